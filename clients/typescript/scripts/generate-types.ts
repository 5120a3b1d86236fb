// Generates the client's two generated modules from openapi/folio.yaml (the one source of truth): src/openapi.ts, the
// API's types by openapi-typescript (`paths`, `operations` and `components`, every extension route included), and
// src/operations.ts, one typed method per operation (FolioApi) and the union of every error code the document names.
// Both are committed; test/unit/clients/generated-types.test.ts regenerates them and fails when a committed file
// differs, so a change to the document lands with its types and methods. Run: npm run generate:client-types.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { parse } from 'yaml';

export const DOCUMENT_PATH = fileURLToPath(new URL('../../../openapi/folio.yaml', import.meta.url));
export const GENERATED_PATH = fileURLToPath(new URL('../src/openapi.ts', import.meta.url));
export const OPERATIONS_PATH = fileURLToPath(new URL('../src/operations.ts', import.meta.url));

const HEADER = `// Generated from openapi/folio.yaml by clients/typescript/scripts/generate-types.ts (openapi-typescript): do not edit.
// Regenerate with \`npm run generate:client-types\`; src/types.ts names the types the client uses.
`;

type Json = Record<string, unknown>;

/**
 * Folio's x- keywords are what a client author most needs and openapi-typescript does not print: a route or field
 * that is Folio's own (x-folio-extension) and a decision where the spec says "not shown" (x-folio-decision). Both
 * are appended to the description, which becomes the JSDoc of the generated type. Only descriptions change, so the
 * types are those of the document as written.
 */
function carryExtensions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(carryExtensions);
  if (!node || typeof node !== 'object') return;
  const object = node as Json;
  const notes: string[] = [];
  if (object['x-folio-extension'] === true)
    notes.push('Folio extension: not in the spec (docs/extensions.md).');
  if (typeof object['x-folio-decision'] === 'string')
    notes.push(`Folio decision: ${object['x-folio-decision'].trim()}`);
  // A $ref with siblings is still a reference for openapi-typescript; a description there would be dropped.
  if (notes.length && !('$ref' in object)) {
    object.description = [typeof object.description === 'string' ? object.description.trim() : '', ...notes]
      .filter(Boolean)
      .join('\n');
  }
  for (const [key, value] of Object.entries(object)) if (!key.startsWith('x-')) carryExtensions(value);
}

/** The module text for one document text. */
export async function generateTypes(yamlText: string): Promise<string> {
  const document = parse(yamlText) as OpenAPI3;
  carryExtensions(document);
  const ast = await openapiTS(document, {
    silent: true,
    // additionalProperties: false is everywhere a response object is declared; where it is not (request bodies),
    // openapi-typescript's default (no index signature) is the stricter type for a caller.
    additionalProperties: false,
    // Operations by id (operations['getUploadStatus']) are what src/types.ts names.
    exportType: false,
  });
  return HEADER + '\n' + astToString(ast);
}

// --- src/operations.ts: one method per operation --------------------------------------------------------------

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

/** A `$ref` inside the document, resolved (one level is all the document uses; a chain is followed anyway). */
function resolve<T>(document: Json, node: T): T {
  let value = node as unknown;
  for (let i = 0; i < 10 && value && typeof value === 'object' && '$ref' in value; i++) {
    const ref = String((value as { $ref: unknown }).$ref);
    if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
    value = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (at, key) => (at as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        document,
      );
    if (value === undefined) throw new Error(`unresolved reference ${ref}`);
  }
  return value as T;
}

/** Every value an error body's `error` takes anywhere in the document (`properties: {error: {enum: […]}}`). */
function errorCodes(node: unknown, codes = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => errorCodes(item, codes));
  else if (node && typeof node === 'object') {
    const error = ((node as Json).properties as Json | undefined)?.error as Json | undefined;
    if (error && Array.isArray(error.enum)) for (const code of error.enum) codes.add(String(code));
    if (error && typeof error.const === 'string') codes.add(error.const);
    for (const value of Object.values(node)) errorCodes(value, codes);
  }
  return codes;
}

const comment = (text: string) => text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();

/** The module text of src/operations.ts for one document text. */
export async function generateOperations(yamlText: string): Promise<string> {
  const document = parse(yamlText) as Json;
  const codes = [...errorCodes(document)].sort();
  const methods: string[] = [];
  const seen = new Set<string>();
  for (const [template, rawItem] of Object.entries((document.paths ?? {}) as Json)) {
    const item = resolve(document, rawItem as Json);
    for (const method of Object.keys(item).filter((key) => METHODS.includes(key))) {
      const operation = item[method] as Json;
      const id = operation.operationId;
      if (typeof id !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(id))
        throw new Error(`${method.toUpperCase()} ${template} has no usable operationId`);
      if (seen.has(id)) throw new Error(`operationId ${id} is used twice`);
      seen.add(id);
      const parameters = [
        ...((item.parameters as unknown[]) ?? []),
        ...((operation.parameters as unknown[]) ?? []),
      ].map((parameter) => resolve(document, parameter as Parameter));
      const fields: string[] = [];
      const group = (where: string, field: string, type: string) => {
        const found = parameters.filter((parameter) => parameter.in === where);
        if (found.length)
          fields.push(`${field}${found.some((p) => p.required) ? '' : '?'}: ${type}<'${id}'>`);
      };
      group('path', 'path', 'PathParams');
      group('query', 'query', 'QueryParams');
      group('header', 'headers', 'HeaderParams');
      let bodyKind: 'json' | 'bytes' | undefined;
      let retry = method === 'get' || method === 'head' ? 'safe' : 'never';
      if (operation.requestBody) {
        const requestBody = resolve(document, operation.requestBody as Json);
        const content = (requestBody.content ?? {}) as Json;
        const optional = requestBody.required === true ? '' : '?';
        if (content['application/json']) {
          bodyKind = 'json';
          fields.push(`body${optional}: RequestBody<'${id}'>`);
          // A body with a batch_id is applied once however often it arrives (the API's idempotency key).
          const schema = resolve(document, (content['application/json'] as Json).schema as Json);
          if (retry === 'never' && schema && (schema.properties as Json | undefined)?.batch_id)
            retry = 'batch';
        } else {
          bodyKind = 'bytes';
          fields.push(`body${optional}: Uint8Array`);
        }
      }
      // An operation answering anything but JSON on success (a page, a stream, bytes) hands back the Response.
      const raw =
        method === 'head' ||
        Object.entries((operation.responses ?? {}) as Json).some(
          ([status, response]) =>
            status.startsWith('2') &&
            Object.keys((resolve(document, response as Json).content ?? {}) as Json).some(
              (type) => type !== 'application/json',
            ),
        );
      const required = fields.some((field) => !/^\w+\?/.test(field));
      const input = fields.length ? `input${required ? '' : '?'}: { ${fields.join('; ')} }, ` : '';
      const answer = raw ? 'Response' : `SuccessBody<'${id}'>`;
      const spec = [
        `method: '${method.toUpperCase()}'`,
        `path: ${JSON.stringify(template)}`,
        `retry: '${retry}'`,
        ...(bodyKind ? [`body: '${bodyKind}'`] : []),
        ...(raw ? ['raw: true'] : []),
      ].join(', ');
      const summary = typeof operation.summary === 'string' ? comment(operation.summary) : id;
      const notes = [
        `\`${method.toUpperCase()} ${template}\``,
        operation['x-folio-extension'] === true ? 'a Folio extension (docs/extensions.md)' : '',
        raw ? 'answers the Response itself (its body is not JSON)' : '',
        retry === 'safe' ? 'retried (a read)' : '',
        retry === 'batch' ? 'retried when the body carries a batch_id' : '',
      ].filter(Boolean);
      methods.push(
        `  /**\n   * ${summary}${/[.?!]$/.test(summary) ? '' : '.'}\n   *\n   * ${notes.join(' · ')}.\n   */\n` +
          `  ${id}(${input}options?: CallOptions): Promise<${answer}> {\n` +
          `    return this.caller.call<${answer}>({ ${spec} }, ${fields.length ? 'input' : 'undefined'}, options);\n` +
          `  }`,
      );
    }
  }
  const text = `// Generated from openapi/folio.yaml by clients/typescript/scripts/generate-types.ts: do not edit.
// Regenerate with \`npm run generate:client-types\`; README.md § Every operation describes what is generated.
import type { CallOptions, OperationCaller } from './operation-caller.js';
import type { HeaderParams, PathParams, QueryParams, RequestBody, SuccessBody } from './types.js';

/** Every error code the document names (an error body's \`error\`): ApiError.code is one of them. */
export type ErrorCode = ${codes.map((code) => JSON.stringify(code)).join(' | ') || 'never'};

/**
 * One method per operation of the document, named by its operationId: the input's \`path\`, \`query\`, \`headers\` and
 * \`body\` are the operation's parameters and request body, the answer its success body (a Response where that is not
 * JSON). Errors throw ApiError; reads and batch_id requests are retried on 429 and 5xx (README.md § Retries).
 */
export class FolioApi {
  constructor(private readonly caller: OperationCaller) {}

${methods.join('\n\n')}
}
`;
  const prettier = await import('prettier');
  return prettier.format(text, {
    ...(await prettier.resolveConfig(OPERATIONS_PATH)),
    filepath: OPERATIONS_PATH,
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const yamlText = await readFile(DOCUMENT_PATH, 'utf8');
  for (const [path, text] of [
    [GENERATED_PATH, await generateTypes(yamlText)],
    [OPERATIONS_PATH, await generateOperations(yamlText)],
  ] as const) {
    await writeFile(path, text);
    console.log(`wrote ${path} (${text.split('\n').length} lines)`);
  }
}
