// Object answers are serialised once into the bytes sent (api/middleware/transport.ts jsonAnswersAsBytes, jsonBytes): the same
// JSON, type and length Koa would have answered, for GET and HEAD, with other bodies left as they are.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAnswersAsBytes, jsonBytes } from '../../../api/middleware/transport.js';

const answer = { name: 'café → ünïcode', items: [1, 2, { nested: true }], none: null };
/** A list answer long enough to be written in chunks (jsonBytes), with text of one to four UTF-8 bytes a character. */
const longList = {
  object: 'list',
  url: '/v1/drive/changes',
  changes: Array.from({ length: 1500 }, (_, index) => ({
    uuid: `item-${index}`,
    name: index % 3 ? `file ${index}.txt` : `Résumé — 日本語 ${index} 📄`,
    size: index * 1024,
    trashed: index % 7 === 0,
    owner: { first_name: 'Zoë', last_name: null },
  })),
  has_more: true,
};
let server: Server;
let base: string;

beforeAll(async () => {
  const app = new Koa();
  app.use(jsonAnswersAsBytes());
  app.use((ctx) => {
    if (ctx.path === '/object') ctx.body = answer;
    else if (ctx.path === '/list') ctx.body = [answer, answer];
    else if (ctx.path === '/long-list') ctx.body = longList;
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
      ['/long-list', longList],
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

describe('jsonBytes', () => {
  const same = (value: object) =>
    expect(jsonBytes(value).toString('utf8')).toBe(Buffer.from(JSON.stringify(value)).toString('utf8'));

  it('writes a long list the bytes JSON.stringify would, whatever its elements hold', () => {
    same(longList);
    same(longList.changes);
    // Elements of very different sizes: each chunk is sized from the one before.
    same({
      items: [...Array.from({ length: 40 }, (_, index) => index), 'x'.repeat(200_000), ...longList.changes],
    });
    same({ items: Array.from({ length: 100_000 }, (_, index) => index) });
  });

  it('writes what JSON.stringify leaves out or turns into null the same way', () => {
    const sparse: unknown[] = Array.from({ length: 40 }, (_, index) => index);
    delete sparse[5];
    same({
      gone: undefined,
      method: () => 1,
      when: new Date(Date.UTC(2026, 10, 28)),
      items: [undefined, () => 1, Symbol('s'), new Date(0), null, NaN, ...longList.changes],
      sparse,
      nested: { deep: [longList.changes.slice(0, 40)] },
      last: 'end',
    });
    same({ items: [] as unknown[], more: Array.from({ length: 32 }, () => ({})) });
  });

  it('leaves short lists and objects with toJSON to JSON.stringify whole', () => {
    same({ items: Array.from({ length: 31 }, (_, index) => ({ index })) });
    same({ toJSON: () => ({ replaced: true }), items: longList.changes });
    same([]);
    same({});
  });
});
