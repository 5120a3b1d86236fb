// @folio/client's generated methods against a loopback server that answers what each test scripts: one method per
// operation of the document, the request each builds (path, query, headers, body), ApiError's fields, and the retry
// rule: reads and batch_id requests are retried on 429 and 5xx waiting what Retry-After asks, nothing else is.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DOCUMENT_PATH } from '../../../clients/typescript/scripts/generate-types.js';
import { ApiError, FolioApi, FolioClient, type RetryPolicy } from '../../../clients/typescript/src/index.js';
import { retryAfterMs } from '../../../clients/typescript/src/http.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
interface Reply {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
}

let server: Server;
let baseUrl: string;
let seen: Seen[];
let replies: Reply[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(pieces).toString(),
      });
      const reply = replies.shift() ?? { status: 200, json: {} };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.json === undefined ? '' : JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  replies = [];
});

/** A client whose backoff would take far longer than any test: a retry that finishes waited what Retry-After said. */
const client = (retry: Partial<RetryPolicy> = {}) =>
  new FolioClient({
    baseUrl,
    token: 'tok',
    retry: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000, ...retry },
  });

const busy = (status: number, after = '0'): Reply => ({
  status,
  headers: { 'retry-after': after, 'x-request-id': `req-${status}` },
  json: { error: status === 429 ? 'too_many_requests' : 'too_many_uploads', error_description: 'busy' },
});

describe('the generated methods', { timeout: 60_000 }, () => {
  it('cover every operation of the OpenAPI document, by operationId', () => {
    const document = parse(readFileSync(DOCUMENT_PATH, 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'head'].includes(method))
        .map(([, operation]) => operation.operationId),
    );
    expect(ids.length).toBeGreaterThan(80);
    for (const id of ids)
      expect(typeof (FolioApi.prototype as unknown as Record<string, unknown>)[id!], id).toBe('function');
  });

  it('fill the path template, encode the query and send the headers and JSON body', async () => {
    replies = [
      { status: 200, json: { object: 'drive_file' } },
      { status: 200, json: {} },
      { status: 201, json: {} },
    ];
    const folio = client();
    await folio.api.updateFile({
      path: { uuid: 'a/b c' },
      headers: { 'If-Match': '"etag-1"' },
      body: { name: 'new name.txt' },
    });
    await folio.api.listChanges({ query: { since: 'x y', limit: 5 } });
    await folio.api.createDocument({ body: { title: 'T' } });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /v1/drive/files/a%2Fb%20c',
      'GET /v1/drive/changes?since=x+y&limit=5',
      'POST /v1/documents',
    ]);
    expect(seen[0]!.headers['if-match']).toBe('"etag-1"');
    expect(seen[0]!.headers.authorization).toBe('Bearer tok');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: 'new name.txt' });
  });

  it('throw ApiError with the status, the code, the description and the request id', async () => {
    replies = [
      {
        status: 404,
        headers: { 'x-request-id': 'req-42' },
        json: { error: 'not_found', error_description: 'No such document.' },
      },
    ];
    const error = await client()
      .api.getDocument({ path: { uuid: 'd' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'not_found',
      description: 'No such document.',
      requestId: 'req-42',
    });
    expect((error as ApiError).message).toContain('GET /v1/documents/d answered 404');
  });
});

describe('retries', () => {
  it('repeat a read on 429 and 503 after the Retry-After the answer gives, then answer the success', async () => {
    replies = [busy(429), busy(503), { status: 200, json: { object: 'document', uuid: 'd' } }];
    await expect(client().api.getDocument({ path: { uuid: 'd' } })).resolves.toMatchObject({ uuid: 'd' });
    expect(seen).toHaveLength(3);
  });

  it('repeat a request with a batch_id, and not the same request without one', async () => {
    replies = [busy(503), { status: 200, json: { revision: 2 } }];
    const edit = (batch_id?: string) =>
      client().api.editDocumentContent({
        path: { uuid: 'd' },
        body: { operations: [{ type: 'delete', find: 'x' }], ...(batch_id ? { batch_id } : {}) },
      });
    await expect(edit('b-1')).resolves.toEqual({ revision: 2 });
    expect(seen).toHaveLength(2);
    seen = [];
    replies = [busy(503)];
    await expect(edit()).rejects.toMatchObject({
      status: 503,
      code: 'too_many_uploads',
      requestId: 'req-503',
    });
    expect(seen).toHaveLength(1);
  });

  it('never repeat a request the API has no idempotency key for', async () => {
    replies = [busy(429)];
    await expect(client().api.createDocument({ body: { title: 'once' } })).rejects.toMatchObject({
      status: 429,
      code: 'too_many_requests',
      retryAfterSeconds: 0,
    });
    expect(seen).toHaveLength(1);
  });

  it('stop at the policy: a Retry-After past maxRetryAfterMs is not waited for, and attempts are bounded', async () => {
    replies = [busy(503, '120')];
    await expect(client().api.getDocument({ path: { uuid: 'd' } })).rejects.toMatchObject({
      status: 503,
      retryAfterSeconds: 120,
    });
    expect(seen).toHaveLength(1);
    seen = [];
    replies = [busy(429), busy(429), busy(429), busy(429)];
    await expect(client({ retries: 2 }).api.getDocument({ path: { uuid: 'd' } })).rejects.toMatchObject({
      status: 429,
    });
    expect(seen).toHaveLength(3);
  });

  it('read Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-27T04:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Fri, 27 Nov 2026 04:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Fri, 27 Nov 2026 03:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
