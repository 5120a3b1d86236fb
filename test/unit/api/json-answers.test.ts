// Object answers are serialised once into the bytes sent (api/middleware/transport.ts jsonAnswersAsBytes): the same
// JSON, type and length Koa would have answered, for GET and HEAD, with other bodies left as they are.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAnswersAsBytes } from '../../../api/middleware/transport.js';

const answer = { name: 'café → ünïcode', items: [1, 2, { nested: true }], none: null };
let server: Server;
let base: string;

beforeAll(async () => {
  const app = new Koa();
  app.use(jsonAnswersAsBytes());
  app.use((ctx) => {
    if (ctx.path === '/object') ctx.body = answer;
    else if (ctx.path === '/list') ctx.body = [answer, answer];
    else if (ctx.path === '/text') ctx.body = 'plain ✓';
    else if (ctx.path === '/stream') ctx.body = Readable.from(['a', 'b']);
    else if (ctx.path === '/created') {
      ctx.status = 201;
      ctx.body = answer;
    }
  });
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('jsonAnswersAsBytes', () => {
  it('answers an object or array as its JSON text in UTF-8, typed and measured in bytes', async () => {
    for (const [path, body] of [
      ['/object', answer],
      ['/list', [answer, answer]],
    ] as const) {
      const response = await fetch(`${base}${path}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      expect(bytes.equals(Buffer.from(JSON.stringify(body)))).toBe(true);
    }
  });

  it('keeps the status, and answers HEAD with the length of the body GET would send, and no body', async () => {
    expect((await fetch(`${base}/created`, { method: 'POST' })).status).toBe(201);
    const head = await fetch(`${base}/object`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(answer))));
    expect(await head.text()).toBe('');
  });

  it('leaves text and streams as they are', async () => {
    const text = await fetch(`${base}/text`);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('plain ✓');
    expect(await (await fetch(`${base}/stream`)).text()).toBe('ab');
  });
});
