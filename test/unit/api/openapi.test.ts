// The OpenAPI document: it lints clean, it lists exactly the routes the app serves, and the response check the
// integration suite runs on every answer refuses an undeclared field, status or error code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lintOpenApi } from '../../../deploy/lint-openapi.js';
import {
  OPENAPI_PATH,
  checkApiResponse,
  isExcludedFromDocument,
  openApiChecker,
} from '../../support/openapi-check.js';

const text = readFileSync(OPENAPI_PATH, 'utf8');
const document = parse(text);
const json = new Headers({ 'content-type': 'application/json; charset=utf-8' });
const etag = '"1-AAAAAAAAAAAAAAAA"';
const jsonWithEtag = new Headers({ 'content-type': 'application/json; charset=utf-8', etag });
const now = new Date().toISOString();
const uuid = '3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60';
const driveFile = {
  object: 'drive_file',
  uuid,
  folder_uuid: null,
  name: 'notes.txt',
  content_type: 'text/plain',
  file_size_bytes: 5,
  upload_status: 'completed',
  trashed: false,
  has_preview: false,
  version: 1,
  ctag: 0,
  created_at: now,
  updated_at: now,
  my_role: 'owner',
  shared: false,
  owner: { self: true, first_name: 'Ada', last_name: null, display_name: 'Ada' },
  content_hash: null,
};
const getFile = (status: number, body: unknown, headers = status === 200 ? jsonWithEtag : json) => ({
  method: 'GET',
  path: `/v1/drive/files/${uuid}`,
  status,
  headers,
  body,
});

describe('the OpenAPI document', { timeout: 30_000 }, () => {
  it('is valid OpenAPI 3.1 and keeps Folio’s rules (named, tagged, scoped operations; error codes listed; exact objects)', async () => {
    expect(await lintOpenApi(text)).toEqual([]);
  }, 60_000);

  it('reports a document that breaks the rules', async () => {
    const broken = text
      .replace('      operationId: getFolder\n', '')
      .replace(
        "'422': { description: Refused, content: { application/json: { schema: { $ref: '#/components/schemas/DriveError', properties: { error: { enum: [invalid_upload_status] } } } } } }",
        "'422': { description: Refused, content: { application/json: { schema: { $ref: '#/components/schemas/DriveError' } } } }",
      );
    const problems = await lintOpenApi(broken);
    expect(problems).toContain('GET /v1/drive/folders/{uuid}: no operationId');
    expect(
      problems.some((problem) =>
        /error answer is DriveError or ApiError with its codes listed/.test(problem),
      ),
    ).toBe(true);
  }, 60_000);

  it('lists exactly the routes the app serves, each method of each path', async () => {
    const { appRouters } = await import('../../../api/app.js');
    const { routerServices } = await import('../../support/api-app.js');
    const served = new Set<string>();
    for (const router of appRouters(routerServices()).served) {
      for (const layer of router.stack) {
        const path = String(layer.path)
          .replace(/:(\w+)/g, '{$1}')
          .replace(/(.)\/$/, '$1');
        for (const method of layer.methods) served.add(`${method} ${path}`);
      }
    }
    const declared = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      for (const method of ['get', 'put', 'post', 'delete', 'patch', 'head'])
        if (item[method]) declared.add(`${method.toUpperCase()} ${path}`);
    }
    // Koa's router answers HEAD on every GET route; the document names HEAD where it means something (public links).
    const servedWithoutImplicitHead = [...served].filter(
      (route) => !route.startsWith('HEAD ') || declared.has(route),
    );
    expect([...declared].sort()).toEqual(servedWithoutImplicitHead.sort());
  }, 60_000);

  it('accepts a response the document declares', () => {
    expect(() => checkApiResponse(getFile(200, driveFile))).not.toThrow();
    expect(() => checkApiResponse(getFile(404, { error: 'not_found' }))).not.toThrow();
  });

  it('refuses a response with a field the document does not declare, and names the field', () => {
    expect(() => checkApiResponse(getFile(200, { ...driveFile, internal_key: 'x' }))).toThrow(
      /getFile .*additional properties.*internal_key/,
    );
    expect(() =>
      checkApiResponse(getFile(200, { ...driveFile, owner: { ...driveFile.owner, uuid } })),
    ).toThrow(/\/owner must NOT have additional properties/);
  });

  it('refuses a field missing or of the wrong type', () => {
    const { ctag: _ctag, ...withoutCtag } = driveFile;
    expect(() => checkApiResponse(getFile(200, withoutCtag))).toThrow(/must have required property 'ctag'/);
    expect(() => checkApiResponse(getFile(200, { ...driveFile, created_at: 'yesterday' }))).toThrow(
      /\/created_at must match format "date-time"/,
    );
  });

  it('refuses a status the operation does not declare, and lists those it does', () => {
    expect(() => checkApiResponse(getFile(409, { error: 'conflict' }))).toThrow(
      /answered 409, a status getFile .* does not declare \(declared: 200, 304, 400, 401, 403, 404\)/,
    );
    expect(() => checkApiResponse(getFile(500, { error: 'internal_error' }))).toThrow(/does not declare/);
    // Before any route, Node's HTTP server may refuse an oversized request line (x-folio-transport).
    expect(() => checkApiResponse(getFile(431, ''))).not.toThrow();
  });

  it('refuses an error code the operation does not list for that status, and the other API’s error shape', () => {
    expect(() => checkApiResponse(getFile(404, { error: 'comment_not_found' }))).toThrow(
      /\/error must be equal to one of the allowed values/,
    );
    expect(() =>
      checkApiResponse(getFile(404, { error: 'not_found', error_description: 'Not found.' })),
    ).toThrow(/additional properties/);
  });

  it('refuses a body where none is declared, a type not declared, and a missing required header', () => {
    const deleted = { method: 'DELETE', path: `/v1/drive/files/${uuid}`, headers: new Headers() };
    expect(() => checkApiResponse({ ...deleted, status: 204, body: '' })).not.toThrow();
    expect(() => checkApiResponse({ ...deleted, status: 204, body: 'gone' })).toThrow(
      /a body where deleteFile .* declares none/,
    );
    expect(() =>
      checkApiResponse(getFile(200, '<p>hi</p>', new Headers({ 'content-type': 'text/html', etag }))),
    ).toThrow(/Content-Type text\/html/);
    expect(() => checkApiResponse(getFile(401, { error: 'invalid_token' }))).toThrow(
      /without the WWW-Authenticate header/,
    );
  });

  it('holds the conditional answers of an item (an extension): its ETag, 304 without a body, 412 with the current item', () => {
    expect(() => checkApiResponse(getFile(200, driveFile, json))).toThrow(/without the ETag header/);
    expect(() =>
      checkApiResponse(
        getFile(200, driveFile, new Headers({ 'content-type': 'application/json', etag: 'W/"1"' })),
      ),
    ).toThrow(/with ETag/);
    expect(() => checkApiResponse(getFile(304, '', new Headers({ etag })))).not.toThrow();
    const update = { method: 'POST', path: `/v1/drive/files/${uuid}`, headers: jsonWithEtag };
    expect(() =>
      checkApiResponse({
        ...update,
        status: 412,
        body: { error: 'precondition_failed', current: driveFile },
      }),
    ).not.toThrow();
    expect(() =>
      checkApiResponse({ ...update, status: 412, body: { error: 'precondition_failed' } }),
    ).toThrow(/required property 'current'/);
    expect(() =>
      checkApiResponse({ ...update, status: 400, body: { error: 'invalid_if_match' } }),
    ).not.toThrow();
  });

  it('prefers a literal path segment over a parameter, and holds an unknown route to x-folio-unrouted', () => {
    const trash = { method: 'GET', path: '/v1/documents/trash?limit=5', status: 422, headers: json };
    expect(() =>
      checkApiResponse({ ...trash, body: { error: 'invalid_limit', error_description: 'x' } }),
    ).not.toThrow();
    expect(() =>
      checkApiResponse({ ...trash, body: { error: 'invalid_uuid', error_description: 'x' } }),
    ).toThrow(/listTrashedDocuments/);
    const unknown = { method: 'GET', path: '/no/such/route', headers: json };
    expect(() =>
      checkApiResponse({
        ...unknown,
        status: 404,
        body: { error: 'not_found', error_description: 'No such route.' },
      }),
    ).not.toThrow();
    expect(() => checkApiResponse({ ...unknown, status: 200, body: {} })).toThrow(/x-folio-unrouted/);
  });

  it('judges a path with a dot segment as the route the request reached, since a URL drops the segment', () => {
    // `GET /v1/documents/.` goes out as `GET /v1/documents/`: the listing, not one document named ".".
    const listing = { object: 'list', url: '/v1/documents', has_more: false, next_cursor: null, data: [] };
    const dotted = { method: 'GET', path: '/v1/documents/.', status: 200, headers: json, body: listing };
    expect(() => checkApiResponse(dotted)).not.toThrow();
    expect(() => checkApiResponse({ ...dotted, path: '/v1/documents/x/..' })).not.toThrow();
  });

  it('leaves the admin app out (x-folio-excluded), and refuses to judge its pages rather than pass them', () => {
    expect(document['x-folio-excluded'].prefixes).toEqual(['/admin']);
    for (const path of Object.keys(document.paths)) expect(isExcludedFromDocument(path), path).toBe(false);
    expect(isExcludedFromDocument('/admin')).toBe(true);
    expect(isExcludedFromDocument('/admin/webhooks/new?notice=created')).toBe(true);
    expect(isExcludedFromDocument('/administrator')).toBe(false);
    expect(isExcludedFromDocument('/v1/admin/webhooks')).toBe(false);
    const page = {
      method: 'GET',
      path: '/admin/webhooks',
      status: 200,
      headers: new Headers({ 'content-type': 'text/html; charset=utf-8' }),
      body: '<html>',
    };
    expect(() => checkApiResponse(page)).toThrow(/leaves out \(x-folio-excluded\)/);
  });

  it('checks against the document it is given, so a changed document changes the verdict', () => {
    const changed = text.replace(
      "'404': { $ref: '#/components/responses/DriveNotFound' }\n    post:\n      operationId: updateFile",
      "'404': { $ref: '#/components/responses/DriveNotFound' }\n        '409': { $ref: '#/components/responses/DriveNotFound' }\n    post:\n      operationId: updateFile",
    );
    expect(changed).not.toBe(text);
    expect(() => openApiChecker(changed)(getFile(409, { error: 'not_found' }))).not.toThrow();
  });
});
