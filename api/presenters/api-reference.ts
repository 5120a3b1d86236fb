// The HTML reference page of the OpenAPI document (GET /docs/api): operations grouped by tag, with their parameters,
// request and response schemas, error codes and x-folio- decisions. Static, escaped, no script, no external resource.
import { createHash } from 'node:crypto';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document is free-form JSON, read by key
type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#222}' +
  'code,pre{font:13px/1.4 ui-monospace,monospace}section.op{border-top:1px solid #ddd;padding:.5rem 0}' +
  '.m{display:inline-block;min-width:4rem;font-weight:600;text-transform:uppercase}.decision{background:#fff7d6;padding:.3rem .6rem}' +
  'table{border-collapse:collapse}th,td{text-align:left;vertical-align:top;padding:.2rem .6rem;border-bottom:1px solid #eee}' +
  'ul.schema{margin:.2rem 0;padding-left:1.2rem}nav ul{columns:3}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** No script at all, and only the page's own style (allowed by its hash). */
export const API_REFERENCE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escapeHtml = (text: unknown) =>
  String(text).replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

const refName = (ref: string) => ref.split('/').pop()!;

function resolver(document: Json) {
  return (object: Json): Json => {
    if (typeof object?.$ref !== 'string') return object;
    return (
      object.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((at: Json | undefined, key: string) => at?.[key], document) ?? {}
    );
  };
}

/** A schema as a short type, linking named schemas to their section. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) {
    const name = refName(schema.$ref);
    const codes = schema.properties?.error?.enum as string[] | undefined;
    return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>${codes ? ` — error codes: ${codes.map((code) => `<code>${escapeHtml(code)}</code>`).join(', ')}` : ''}`;
  }
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (schema.enum)
    return `one of ${schema.enum.map((value: unknown) => `<code>${escapeHtml(value)}</code>`).join(', ')}`;
  for (const key of ['oneOf', 'anyOf'])
    if (schema[key]) return (schema[key] as Json[]).map(typeOf).join(' <em>or</em> ');
  const types = ([] as string[]).concat(schema.type ?? []);
  if (types.includes('array')) return `array of ${typeOf(schema.items)}`;
  const format = schema.format ? ` (${escapeHtml(schema.format)})` : '';
  return escapeHtml(types.join(' or ') || 'object') + format;
}

/** An object schema's fields as a nested list; other schemas as their type. */
function schemaHtml(schema: Json | undefined, depth = 0): string {
  if (!schema) return '';
  if (!schema.properties || depth > 3) return typeOf(schema);
  const required = new Set<string>(schema.required ?? []);
  const items = Object.entries(schema.properties as Json).map(([name, property]) => {
    const field = property as Json;
    const notes = [field.description, field['x-folio-decision'] && `Decision: ${field['x-folio-decision']}`]
      .filter(Boolean)
      .map(escapeHtml)
      .join(' ');
    const nested = field.properties ? schemaHtml(field, depth + 1) : typeOf(field);
    return `<li><code>${escapeHtml(name)}</code>${required.has(name) ? '' : ' <em>(optional)</em>'}: ${nested}${notes ? ` — ${notes}` : ''}</li>`;
  });
  const exact = schema.additionalProperties === false ? ' <em>(no other fields)</em>' : '';
  return `object${exact}<ul class="schema">${items.join('')}</ul>`;
}

function operationHtml(
  document: Json,
  path: string,
  method: string,
  operation: Json,
  shared: Json[],
): string {
  const resolve = resolver(document);
  const parts = [`<section class="op" id="${escapeHtml(operation.operationId)}">`];
  parts.push(`<h3><span class="m">${escapeHtml(method)}</span> <code>${escapeHtml(path)}</code></h3>`);
  parts.push(
    `<p>${escapeHtml(operation.summary ?? '')} <small><code>${escapeHtml(operation.operationId)}</code></small></p>`,
  );
  if (operation['x-folio-scope'])
    parts.push(`<p>Scope: <code>${escapeHtml(operation['x-folio-scope'])}</code></p>`);
  if (operation['x-folio-decision'])
    parts.push(`<p class="decision">Decision: ${escapeHtml(operation['x-folio-decision'])}</p>`);
  const parameters = [...shared, ...(operation.parameters ?? [])].map(resolve);
  if (parameters.length) {
    const rows = parameters.map(
      (parameter) =>
        `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${escapeHtml(parameter.in)}</td><td>${parameter.required ? 'required' : 'optional'}</td><td>${typeOf(parameter.schema)}</td><td>${escapeHtml(parameter.description ?? '')}</td></tr>`,
    );
    parts.push(
      `<table><thead><tr><th>Parameter</th><th>In</th><th></th><th>Type</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  if (operation.requestBody) {
    const body = resolve(operation.requestBody);
    for (const [type, media] of Object.entries((body.content ?? {}) as Json)) {
      parts.push(
        `<p>Request body (<code>${escapeHtml(type)}</code>${body.required ? '' : ', optional'}): ${schemaHtml(resolve((media as Json).schema))}</p>`,
      );
    }
  }
  const rows = Object.entries(operation.responses as Json).map(([status, declared]) => {
    const response = resolve(declared as Json);
    const contents = Object.entries((response.content ?? {}) as Json).map(
      ([type, media]) => `<code>${escapeHtml(type)}</code> ${typeOf((media as Json).schema)}`,
    );
    return `<tr><td><strong>${escapeHtml(status)}</strong></td><td>${escapeHtml(response.description ?? '')}</td><td>${contents.join('<br>')}</td></tr>`;
  });
  parts.push(
    `<table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
  parts.push('</section>');
  return parts.join('\n');
}

export function renderApiReference(document: Json): string {
  const byTag = new Map<string, string[]>(
    ((document.tags ?? []) as Json[]).map((tag) => [tag.name as string, []]),
  );
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationHtml(document, path, method, operation, (item as Json).parameters ?? []));
    }
  }
  const descriptions = new Map<string, string>(
    ((document.tags ?? []) as Json[]).map((tag) => [tag.name, tag.description ?? '']),
  );
  const sections = [...byTag].map(
    ([tag, operations]) =>
      `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>\n<p>${escapeHtml(descriptions.get(tag) ?? '')}</p>\n${operations.join('\n')}`,
  );
  const schemas = Object.entries((document.components?.schemas ?? {}) as Json).map(
    ([name, schema]) =>
      `<section class="op" id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${(schema as Json).description ? `<p>${escapeHtml((schema as Json).description)}</p>` : ''}${(schema as Json)['x-folio-decision'] ? `<p class="decision">Decision: ${escapeHtml((schema as Json)['x-folio-decision'])}</p>` : ''}${schemaHtml(schema as Json)}</section>`,
  );
  const title = `${document.info?.title ?? 'API'} ${document.info?.version ?? ''}`.trim();
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>\n<body><main>\n` +
    `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(document.info?.description ?? '')}</p>\n` +
    (document.info?.['x-folio-decision']
      ? `<p class="decision">Decision: ${escapeHtml(document.info['x-folio-decision'])}</p>\n`
      : '') +
    '<p>The machine-readable document: <a href="/openapi.json">/openapi.json</a>.</p>\n' +
    `<nav><ul>${[...byTag.keys()].map((tag) => `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a></li>`).join('')}<li><a href="#schemas">schemas</a></li></ul></nav>\n` +
    `${sections.join('\n')}\n<h2 id="schemas">Schemas</h2>\n${schemas.join('\n')}\n</main></body></html>\n`
  );
}
