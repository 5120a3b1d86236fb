// The OpenAPI document as a reference people can use: every operation has a description and a request sample, every
// request body and success response its example, and each example validates against its schema (ajv, JSON Schema
// 2020-12 with formats, as test/support/openapi-check.ts validates the answers the integration suite receives).
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lintOpenApi } from '../../../deploy/lint-openapi.js';
import { OPENAPI_PATH } from '../../support/openapi-check.js';

/** An OpenAPI document is free-form JSON, read by key. */
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];
const SCHEMAS_ROOT = 'https://folio.local/openapi/schemas';
const text = readFileSync(OPENAPI_PATH, 'utf8');

/** Every example in the document, where it is, its media type and the schema it must validate against. */
interface Example {
  where: string;
  type: string;
  schema: Json;
  value: unknown;
}

/** The document's operations, and each example they carry (request bodies resolved through components). */
function examplesOf(document: Json) {
  const resolve = (object: Json): Json =>
    typeof object?.$ref === 'string'
      ? object.$ref
          .replace(/^#\//, '')
          .split('/')
          .reduce((at: Json, key: string) => at[key], document)
      : object;
  const operations: { where: string; operation: Json; examples: Example[] }[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const examples: Example[] = [];
      const collect = (content: Json | undefined, at: string) => {
        for (const [type, media] of Object.entries<Json>(content ?? {}))
          if ('example' in media)
            examples.push({
              where: `${where} ${at} ${type}`,
              type,
              schema: media.schema,
              value: media.example,
            });
      };
      if (operation.requestBody) collect(resolve(operation.requestBody).content, 'request');
      for (const [status, response] of Object.entries<Json>(operation.responses))
        collect(resolve(response).content, status);
      operations.push({ where, operation, examples });
    }
  }
  return operations;
}

/** The problems of every example of a document: the test below holds openapi/folio.yaml to none. */
function exampleProblems(document: Json): string[] {
  // Component references point at one registered resource, as in test/support/openapi-check.ts.
  const rewritten = JSON.parse(
    JSON.stringify(document).replaceAll('"#/components/schemas/', `"${SCHEMAS_ROOT}#/$defs/`),
  ) as Json;
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword('x-folio-decision');
  ajv.addKeyword('x-folio-extension');
  ajv.addSchema({ $id: SCHEMAS_ROOT, $defs: rewritten.components.schemas });
  const compiled = new Map<string, ValidateFunction>();
  return examplesOf(rewritten).flatMap(({ examples }) =>
    examples.flatMap((example) => {
      const key = JSON.stringify(example.schema);
      let validate = compiled.get(key);
      if (!validate) compiled.set(key, (validate = ajv.compile(example.schema)));
      if (validate(example.value)) return [];
      return (validate.errors ?? []).map(
        (error) => `${example.where}: ${error.instancePath || '(root)'} ${error.message}`,
      );
    }),
  );
}

const document = parse(text) as Json;
const operations = examplesOf(document);

describe('the OpenAPI document as a reference', { timeout: 60_000 }, () => {
  it('describes every operation, beyond its summary, and gives a curl request sample for it', () => {
    expect(operations.length).toBeGreaterThan(80);
    const missing = operations.flatMap(({ where, operation }) => {
      const problems: string[] = [];
      if (!(typeof operation.description === 'string' && operation.description.trim().length > 20))
        problems.push(`${where}: no description`);
      const samples = (operation['x-codeSamples'] ?? []) as Json[];
      const path = where.split(' ')[1]!.split('{')[0]!;
      if (!samples.some((sample) => sample.lang === 'Shell' && String(sample.source).includes(path)))
        problems.push(`${where}: no curl sample that calls its path`);
      return problems;
    });
    expect(missing).toEqual([]);
  });

  it('has an example for every JSON request body and for every success response that has a body', () => {
    const missing = operations.flatMap(({ where, operation, examples }) => {
      const problems: string[] = [];
      const body = operation.requestBody;
      const bodyContent =
        body && (body.$ref ? document.components.requestBodies[body.$ref.split('/').pop()] : body).content;
      if (bodyContent?.['application/json'] && !examples.some((example) => / request /.test(example.where)))
        problems.push(`${where}: no request body example`);
      const withBody = Object.entries<Json>(operation.responses).filter(
        ([status, response]) => /^2/.test(status) && !response.$ref && response.content,
      );
      // A body of bytes (a thumbnail, an attachment's file) has no useful example; any other success body has one.
      const describable = withBody.filter(([, response]) =>
        Object.keys(response.content).some(
          (type) => !/^(image\/|\*\/\*|application\/octet-stream)/.test(type),
        ),
      );
      if (describable.length && !examples.some((example) => / 2\d\d /.test(example.where)))
        problems.push(`${where}: no success response example`);
      return problems;
    });
    expect(missing).toEqual([]);
    expect(operations.flatMap(({ examples }) => examples).length).toBeGreaterThan(100);
  });

  it('holds every example to its schema', () => {
    expect(exampleProblems(document)).toEqual([]);
  });

  it('names the example, the field and the broken rule when an example does not match its schema', () => {
    const broken = structuredClone(document);
    const media = broken.paths['/v1/drive/files/{uuid}'].get.responses['200'].content['application/json'];
    media.example = { ...media.example, file_size_bytes: 'thirteen', secret: true };
    const problems = exampleProblems(broken);
    expect(problems).toContain(
      'GET /v1/drive/files/{uuid} 200 application/json: /file_size_bytes must be integer',
    );
    expect(problems).toContain(
      'GET /v1/drive/files/{uuid} 200 application/json: (root) must NOT have additional properties',
    );
  });

  it('reports an entry of a flow mapping cut at a comma (the document once had one)', async () => {
    const broken = text.replace("description: 'Markdown, non-blank.'", 'description: Markdown, non-blank.');
    expect(broken).not.toBe(text);
    expect(await lintOpenApi(broken)).toContainEqual(
      expect.stringMatching(/^line \d+: "non-blank\." is a flow-mapping entry without a value/),
    );
  });
});
