// Holds every API response the tests receive to openapi/folio.yaml: the operation must declare the status, and a JSON
// body must validate against the declared schema (ajv, JSON Schema 2020-12, with formats). docs/api-reference.md.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi/folio.yaml', import.meta.url));

type Json = Record<string, any>;

/**
 * One received response, as the test client saw it; body is parsed JSON for a JSON type, else the text. Without a
 * body (a stream the test reads itself) only the status, the headers and the content type are checked.
 */
export interface ReceivedResponse {
  method: string;
  path: string;
  status: number;
  headers: Headers | Record<string, string>;
  body?: unknown;
}

const SCHEMAS_ROOT = 'https://folio.local/openapi/schemas';

/** The document with every component-schema reference pointing at one registered ajv resource. */
function loadDocument(text: string): Json {
  const rewritten = JSON.stringify(parse(text)).replaceAll(
    '"#/components/schemas/',
    `"${SCHEMAS_ROOT}#/$defs/`,
  );
  return JSON.parse(rewritten) as Json;
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  item: Json;
}

/**
 * Whether a 500 internal_error from any route is expected (x-folio-transport): only in the fault suite, which
 * restarts the services under the API; anywhere else a 5xx fails the test that received it.
 */
let serverFailuresExpected = false;
export function expectServerFailures(): void {
  serverFailuresExpected = true;
}

/** A checker for one document text; checkApiResponse below is the one for openapi/folio.yaml. */
export function openApiChecker(yamlText: string) {
  const document = loadDocument(yamlText);
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword('x-folio-decision');
  ajv.addKeyword('x-folio-extension');
  ajv.addSchema({ $id: SCHEMAS_ROOT, $defs: document.components.schemas });

  const routes: Route[] = Object.entries(document.paths as Json).map(([template, item]) => ({
    template,
    // The router also serves a path with one trailing slash (/v1/drive/files/).
    pattern: new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
    ),
    params: (template.match(/\{/g) ?? []).length,
    item: item as Json,
  }));
  // A literal segment wins over a parameter: /v1/documents/trash is not /v1/documents/{uuid}.
  routes.sort((a, b) => a.params - b.params);

  const compiled = new Map<object, ValidateFunction>();
  const validatorOf = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };
  const deref = (object: Json): Json => {
    if (typeof object?.$ref !== 'string') return object;
    const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(object.$ref) ?? [];
    const target = kind ? document.components[kind]?.[name!] : undefined;
    if (!target) throw new Error(`openapi/folio.yaml: unresolved reference ${object.$ref}`);
    return target;
  };

  /** ajv's errors with where, what and the offending name (an undeclared field says which). */
  const explain = (errors: ValidateFunction['errors']) =>
    (errors ?? [])
      .map(
        (error) =>
          `${error.instancePath || '(body)'} ${error.message}${error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}`,
      )
      .join('; ');

  const excluded: string[] = document['x-folio-excluded']?.prefixes ?? [];
  /** Whether the document leaves this path out by decision (x-folio-excluded: the admin app). */
  const isExcluded = (path: string) =>
    excluded.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

  const check = function check(response: ReceivedResponse): void {
    const method = response.method.toLowerCase();
    // The path as it went out: a URL drops dot segments (`/v1/documents/.` asks for `/v1/documents/`), so match that.
    const path = new URL(response.path, 'http://folio.invalid').pathname;
    const where = `${response.method.toUpperCase()} ${path} answered ${response.status}`;
    // Not "declared" nor "undeclared": the document says nothing of these paths, so a check would prove nothing.
    if (isExcluded(path))
      throw new Error(
        `OpenAPI: ${where}, a path the document leaves out (x-folio-excluded); it cannot be checked against it.`,
      );
    const shown = () =>
      typeof response.body === 'string'
        ? response.body.slice(0, 300)
        : JSON.stringify(response.body)?.slice(0, 600);
    const route = routes.find((candidate) => candidate.pattern.test(path) && candidate.item[method]);
    let responses: Json;
    let operationName: string;
    if (route) {
      responses = route.item[method].responses;
      operationName = `${route.item[method].operationId} (${response.method.toUpperCase()} ${route.template})`;
    } else {
      // A route or method the API does not serve: only what the document says those answer (x-folio-unrouted).
      responses = document['x-folio-unrouted'].responses;
      operationName = 'an unknown route or method (x-folio-unrouted)';
    }
    // What the HTTP server answers to any request before routing (x-folio-transport), whatever the operation.
    const transport =
      response.status >= 500 && !serverFailuresExpected
        ? undefined
        : document['x-folio-transport'].responses[String(response.status)];
    const declared = responses[String(response.status)] ?? transport;
    if (!declared) {
      throw new Error(
        `OpenAPI: ${where}, a status ${operationName} does not declare (declared: ${Object.keys(responses).join(', ')}). Body: ${shown()}`,
      );
    }
    const answer = deref(declared);
    const headerOf = (name: string) =>
      response.headers instanceof Headers
        ? response.headers.get(name)
        : (response.headers[name.toLowerCase()] ?? null);
    for (const [name, declaredHeader] of Object.entries((answer.headers ?? {}) as Json)) {
      const header = deref(declaredHeader);
      const value = headerOf(name);
      if (value === null) {
        if (header.required)
          throw new Error(
            `OpenAPI: ${where} without the ${name} header that ${operationName} declares as required.`,
          );
        continue;
      }
      const validate = validatorOf(header.schema);
      if (!validate(value))
        throw new Error(
          `OpenAPI: ${where} with ${name}: ${value}, which ${operationName} does not declare: ${explain(validate.errors)}`,
        );
    }
    const bodyRead = 'body' in response;
    const empty = response.body === '' || response.body === undefined || response.body === null;
    if (!answer.content) {
      if (bodyRead && !empty)
        throw new Error(
          `OpenAPI: ${where} with a body where ${operationName} declares none. Body: ${shown()}`,
        );
      return;
    }
    if (method === 'head') return;
    const type = (headerOf('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const media = answer.content[type] ?? answer.content['*/*'];
    if (!media) {
      throw new Error(
        `OpenAPI: ${where} with Content-Type ${type || '(none)'}, which ${operationName} does not declare (declared: ${Object.keys(answer.content).join(', ')}).`,
      );
    }
    if (!bodyRead || !/[/+]json$/.test(type) || !media.schema) return;
    const validate = validatorOf(media.schema);
    if (!validate(response.body)) {
      throw new Error(
        `OpenAPI: ${where} with a body that ${operationName} does not declare for ${response.status}: ${explain(validate.errors)}. Body: ${shown()}`,
      );
    }
  };
  return Object.assign(check, { isExcluded });
}

let checker: ReturnType<typeof openApiChecker> | undefined;

const theChecker = () => (checker ??= openApiChecker(readFileSync(OPENAPI_PATH, 'utf8')));

/** Throws, with what is wrong, when openapi/folio.yaml does not declare this response. */
export function checkApiResponse(response: ReceivedResponse): void {
  theChecker()(response);
}

/** Whether openapi/folio.yaml leaves this path out by decision (x-folio-excluded: the admin app's pages). */
export function isExcludedFromDocument(path: string): boolean {
  return theChecker().isExcluded(path.split('?')[0]!);
}
