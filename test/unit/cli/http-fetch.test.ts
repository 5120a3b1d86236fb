// The CLI's fetch on node:http/https (cli/http-fetch.ts) against loopback servers: what it sends, the Response it
// answers (status, headers, a body streamed as it arrives), redirects as fetch follows them, failures as fetch's
// TypeError (what the client retries and the CLI reports as unreachable), aborts, and HTTPS with the test CA.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, FolioClient } from '../../../clients/typescript/src/index.js';
import { describeError } from '../../../cli/errors.js';
import { httpFetch } from '../../../cli/http-fetch.js';
import { createTestCa } from '../../support/test-ca.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A loopback server that records each request and answers through the handler the test sets. */
async function recorder(): Promise<{
  server: Server;
  url: string;
  seen: Seen[];
  handle: { current: Handler };
}> {
  const seen: Seen[] = [];
  const handle: { current: Handler } = { current: (_req, res) => res.end() };
  const server = createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const body = Buffer.concat(pieces);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handle.current(req, res, body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, handle };
}

let main: Awaited<ReturnType<typeof recorder>>;
let other: Awaited<ReturnType<typeof recorder>>;

beforeAll(async () => {
  main = await recorder();
  other = await recorder();
});
afterAll(() => {
  for (const { server } of [main, other]) server.closeAllConnections();
  return Promise.all([main, other].map(({ server }) => new Promise((resolve) => server.close(resolve))));
});
beforeEach(() => {
  for (const target of [main, other]) {
    target.seen.length = 0;
    target.handle.current = (_req, res) => res.end();
  }
});

/** Answers a JSON body (usable as a Handler and as a server's listener). */
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

describe('httpFetch', () => {
  it('sends the method, the headers and a JSON body, and answers the status, headers and body', async () => {
    main.handle.current = json(201, { uuid: 'u' }, { 'x-request-id': 'req-1' });
    const response = await httpFetch(`${main.url}/v1/drive/folders?x=1`, {
      method: 'POST',
      headers: { Authorization: 'Bearer tok', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'é' }),
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.json()).toEqual({ uuid: 'u' });
    const [request] = main.seen;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/drive/folders?x=1' });
    expect(request!.headers).toMatchObject({ authorization: 'Bearer tok', 'content-length': '13' });
    expect(JSON.parse(request!.body.toString())).toEqual({ name: 'é' });
  });

  it('sends a byte body exactly, as a part PUT does', async () => {
    main.handle.current = (_req, res) => res.writeHead(200, { etag: '"e1"' }).end();
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const response = await httpFetch(`${main.url}/part`, { method: 'PUT', body: bytes.subarray(5) });
    expect(response.headers.get('etag')).toBe('"e1"');
    expect(main.seen[0]!.body.equals(bytes.subarray(5))).toBe(true);
  });

  it("gives the client an error answer's body, so ApiError has its code and request id", async () => {
    main.handle.current = json(404, { error: 'not_found' }, { 'x-request-id': 'req-404' });
    const client = new FolioClient({ baseUrl: main.url, token: 'tok', fetch: httpFetch });
    const error = await client.getFile('nope').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', requestId: 'req-404' });
    expect(main.seen[0]!.headers.authorization).toBe('Bearer tok');
  });

  it('streams the body: the first piece is read before the server has sent the rest', async () => {
    let finish!: () => void;
    main.handle.current = (_req, res) => {
      res.writeHead(206, { 'content-type': 'application/octet-stream' });
      res.write('first piece;');
      finish = () => res.end('the rest');
    };
    const response = await httpFetch(`${main.url}/chunk`, { headers: { range: 'bytes=0-19' } });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe('first piece;');
    finish();
    const rest: Buffer[] = [];
    for (let piece = await reader.read(); !piece.done; piece = await reader.read())
      rest.push(Buffer.from(piece.value));
    expect(Buffer.concat(rest).toString()).toBe('the rest');
    expect(main.seen[0]!.headers.range).toBe('bytes=0-19');
  });

  it('answers no body for a 204 and for a HEAD', async () => {
    main.handle.current = (_req, res) => res.writeHead(204).end();
    const empty = await httpFetch(`${main.url}/gone`, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    main.handle.current = (_req, res) => res.writeHead(200, { 'content-length': '10' }).end();
    const head = await httpFetch(`${main.url}/s/t`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe('10');
    expect(await head.text()).toBe('');
  });

  describe('redirects, as fetch follows them', () => {
    it('follows a GET to the same origin with its authorization', async () => {
      main.handle.current = (req, res) => {
        if (req.url === '/old') res.writeHead(302, { location: '/new' }).end();
        else json(200, { at: req.url })(req, res);
      };
      const response = await httpFetch(`${main.url}/old`, { headers: { authorization: 'Bearer tok' } });
      expect(await response.json()).toEqual({ at: '/new' });
      expect(main.seen.map((request) => request.headers.authorization)).toEqual(['Bearer tok', 'Bearer tok']);
    });

    it('drops the authorization on a redirect to another origin', async () => {
      main.handle.current = (_req, res) => res.writeHead(307, { location: `${other.url}/there` }).end();
      other.handle.current = json(200, {});
      await httpFetch(`${main.url}/here`, { headers: { authorization: 'Bearer tok', 'x-keep': '1' } });
      expect(other.seen[0]!.headers.authorization).toBeUndefined();
      expect(other.seen[0]!.headers['x-keep']).toBe('1');
    });

    it('turns a POST into a GET without its body on 303, and repeats method and body on 307', async () => {
      main.handle.current = (req, res) => {
        if (req.url === '/see-other') res.writeHead(303, { location: '/result' }).end();
        else if (req.url === '/temporary') res.writeHead(307, { location: '/again' }).end();
        else res.end();
      };
      const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' };
      await httpFetch(`${main.url}/see-other`, post);
      await httpFetch(`${main.url}/temporary`, post);
      expect(main.seen.map(({ method, url, body }) => `${method} ${url} ${body.toString()}`)).toEqual([
        'POST /see-other {"a":1}',
        'GET /result ',
        'POST /temporary {"a":1}',
        'POST /again {"a":1}',
      ]);
      expect(main.seen[1]!.headers['content-type']).toBeUndefined();
    });

    it("refuses a redirect with redirect: 'error', answers it with 'manual', and stops a loop", async () => {
      main.handle.current = (_req, res) => res.writeHead(301, { location: '/loop' }).end();
      await expect(httpFetch(`${main.url}/a`, { redirect: 'error' })).rejects.toThrow(TypeError);
      expect((await httpFetch(`${main.url}/a`, { redirect: 'manual' })).status).toBe(301);
      main.seen.length = 0;
      await expect(httpFetch(`${main.url}/a`)).rejects.toThrow('fetch failed');
      expect(main.seen).toHaveLength(21);
    });
  });

  describe('failures, as fetch fails', () => {
    it('rejects with TypeError "fetch failed" when nothing listens, which the CLI reports as unreachable', async () => {
      const closed = createServer();
      closed.listen(0, '127.0.0.1');
      await once(closed, 'listening');
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      const error = await httpFetch(`http://127.0.0.1:${port}/`).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
      expect(describeError(error).answer.error).toEqual({
        code: 'unreachable',
        message: 'the server cannot be reached (ECONNREFUSED)',
        status: null,
      });
    });

    it('fails the body with a TypeError when the connection is cut before its end', async () => {
      main.handle.current = (_req, res) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('only part', () => res.destroy());
      };
      const response = await httpFetch(`${main.url}/cut`);
      await expect(response.text()).rejects.toThrow(TypeError);
    });

    it("rejects with the signal's reason when aborted while waiting for the answer, and never sends when aborted before", async () => {
      let arrived!: () => void;
      const held = new Promise<void>((resolve) => (arrived = resolve));
      main.handle.current = () => arrived(); // Holds the answer.
      const controller = new AbortController();
      const pending = httpFetch(`${main.url}/slow`, { signal: controller.signal });
      await held;
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      main.seen.length = 0;
      await expect(httpFetch(`${main.url}/never`, { signal: controller.signal })).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(main.seen).toHaveLength(0);
    });
  });

  describe('over HTTPS', () => {
    let ca: string;
    let server: Server;
    let url: string;

    beforeAll(async () => {
      ca = createTestCa();
      server = createHttpsServer(
        { cert: readFileSync(join(ca, 'leaf.crt')), key: readFileSync(join(ca, 'leaf.key')) },
        json(200, { secure: true }),
      );
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    });

    it('talks to a server whose authority NODE_EXTRA_CA_CERTS names, as the HTTPS test run does', async () => {
      // A process of its own: Node reads NODE_EXTRA_CA_CERTS once, at start.
      const script = `import { httpFetch } from ${JSON.stringify(pathToFileURL(join(root, 'cli/http-fetch.ts')).href)};
        process.stdout.write(await (await httpFetch(${JSON.stringify(url)})).text());`;
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        {
          env: { ...process.env, NODE_EXTRA_CA_CERTS: join(ca, 'ca.crt') },
          cwd: root,
        },
      );
      expect(JSON.parse(stdout)).toEqual({ secure: true });
    });

    it('refuses a certificate from an authority it does not trust, as a network failure', async () => {
      const error = await httpFetch(`${url}/`).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({
        message: 'fetch failed',
        cause: { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
      });
    });
  });
});
