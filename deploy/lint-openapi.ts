// Lints openapi/folio.yaml (run by npm test): valid OpenAPI 3.1 (@seriousme/openapi-schema-validator, offline), plus
// Folio's rules: named, tagged, scoped operations; error codes listed per status; exact response objects; no entry
// of a flow mapping without a value. Redocly's and Spectral's rulesets run beside it (deploy/test.sh).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { isMap, parse, parseDocument, visit } from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document is free-form JSON, read by key
type Json = Record<string, any>;
const FILE = 'openapi/folio.yaml';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export async function lintOpenApi(text: string): Promise<string[]> {
  const document = parse(text) as Json;
  const problems: string[] = [];
  problems.push(...flowEntriesWithoutValue(text));
  const validator = new Validator();
  const result = await validator.validate(document);
  if (!result.valid) problems.push(`not a valid OpenAPI document: ${JSON.stringify(result.errors, null, 1)}`);
  if (!String(document.openapi).startsWith('3.1')) problems.push('openapi must be 3.1.x');

  const resolve = (object: Json): Json => {
    const ref = object?.$ref;
    if (typeof ref !== 'string') return object;
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json | undefined>((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    if (!target) problems.push(`unresolved reference ${ref}`);
    return target ?? {};
  };

  /** Every object a response answers is exact: additionalProperties false wherever properties are listed. */
  const checkExact = (schema: Json, where: string, seen = new Set<object>()): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    const resolved = schema.$ref ? resolve(schema) : schema;
    if (resolved !== schema) checkExact(resolved, where, seen);
    if (schema.properties && !schema.$ref && schema.additionalProperties !== false)
      problems.push(`${where}: an object with properties must say additionalProperties: false`);
    for (const key of ['items', 'additionalProperties'])
      if (typeof schema[key] === 'object') checkExact(schema[key], where, seen);
    for (const key of ['oneOf', 'anyOf', 'allOf'])
      for (const part of schema[key] ?? []) checkExact(part, where, seen);
    for (const property of Object.values((schema.properties ?? {}) as Json))
      checkExact(property, where, seen);
  };

  const tags = new Set(((document.tags ?? []) as Json[]).map((tag) => tag.name));
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!operation.operationId) problems.push(`${where}: no operationId`);
      else if (ids.has(operation.operationId))
        problems.push(`${where}: operationId ${operation.operationId} is used twice`);
      else ids.add(operation.operationId);
      if (!operation.summary) problems.push(`${where}: no summary`);
      if (!operation.tags?.length) problems.push(`${where}: no tag`);
      for (const tag of operation.tags ?? [])
        if (!tags.has(tag)) problems.push(`${where}: tag ${tag} is not declared under tags`);
      if (path.startsWith('/v1/')) {
        if (!operation['x-folio-scope']) problems.push(`${where}: no x-folio-scope`);
        if (!operation.responses?.['401']) problems.push(`${where}: no 401 (every /v1 route needs a token)`);
      }
      const statuses = Object.keys(operation.responses ?? {});
      if (!statuses.some((status) => /^[23]\d\d$/.test(status)))
        problems.push(`${where}: no success response`);
      for (const status of statuses) {
        if (!/^[1-5]\d\d$/.test(status)) problems.push(`${where}: response ${status} is not an exact status`);
        const response = resolve(operation.responses[status]);
        for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
          const schema = (media as Json).schema as Json | undefined;
          if (!schema || !/json$/.test(type)) continue;
          checkExact(schema, `${where} ${status} ${type}`);
          if (Number(status) >= 400 && /^\/(v1|s)\//.test(path)) {
            const variants: Json[] = schema.oneOf ?? [schema];
            for (const variant of variants) {
              if (
                !/#\/components\/schemas\/(DriveError|ApiError)$/.test(variant.$ref ?? '') ||
                !Array.isArray(variant.properties?.error?.enum)
              ) {
                problems.push(
                  `${where} ${status}: an error answer is DriveError or ApiError with its codes listed in properties.error.enum`,
                );
              }
            }
          }
        }
      }
    }
  }
  return problems;
}

/**
 * In a flow mapping a plain scalar ends at a comma: `{ description: Markdown, non-blank. }` is the description
 * "Markdown" and a key "non-blank." with no value, which parsers accept without a word. The document never means an
 * entry without a value, so each one is reported with its line: quote the scalar.
 */
function flowEntriesWithoutValue(text: string): string[] {
  const problems: string[] = [];
  visit(parseDocument(text), {
    Map(_, map) {
      if (!isMap(map) || !map.flow) return;
      for (const pair of map.items) {
        if (pair.value !== null) continue;
        const key = pair.key as { range?: [number, number]; toString(): string };
        const line = text.slice(0, key.range?.[0] ?? 0).split('\n').length;
        problems.push(
          `line ${line}: "${key.toString()}" is a flow-mapping entry without a value (a plain scalar cut at a comma? quote it)`,
        );
      }
    },
  });
  return problems;
}

// Run as a script (npm test); imported by test/unit/api/openapi.test.ts for lintOpenApi alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = await lintOpenApi(readFileSync(FILE, 'utf8'));
  if (problems.length) {
    console.error(`${FILE}:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`${FILE}: valid OpenAPI 3.1, and Folio's rules hold`);
}
