// The event-loop watchdog (api/middleware/request-context.ts): a request that holds the loop past 200 ms is named in a
// warning, by method, route template and redacted path, and counted.
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  requestContext,
  watchEventLoop,
  type RunningRequest,
} from '../../../api/middleware/request-context.js';
import { EventLoopWatch } from '../../../platform/event-loop.js';
import { registry } from '../../../platform/metrics.js';
import '../../../api/routes/drive/public-links.js';

const busyWait = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

let server: Server;
let base: string;
const warn = vi.fn();
let stopWatching: () => void;
const running = new EventLoopWatch<RunningRequest>();

beforeAll(async () => {
  const router = new Router();
  // Blocks, then answers in the same turn: gone from the in-flight set before the watchdog's timer runs.
  router.get('/s/:token/slow', (ctx) => {
    busyWait(300);
    ctx.body = 'done';
  });
  // Blocks, then waits: still in flight when the timer runs.
  router.post('/v1/slow/:uuid', async (ctx) => {
    busyWait(300);
    await new Promise((resolve) => setTimeout(resolve, 50));
    ctx.status = 204;
  });
  const app = new Koa();
  app.use(requestContext(running)).use(router.routes());
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stopWatching = watchEventLoop(running, { log: { warn } as never });
});

afterAll(() => {
  stopWatching();
  server.close();
});

const heldLines = () =>
  warn.mock.calls
    .filter(([, message]) => message === 'event loop held')
    .map(([fields]) => fields as Record<string, unknown>);

describe('event loop held', () => {
  it('names a request that blocks the loop for 300 ms and answers in the same turn, its secret segment left out', async () => {
    warn.mockClear();
    const token = 'abcdefghijklmnopqrstuvwxyz012345';
    expect((await fetch(`${base}/S/${token}/slow`)).status).toBe(200);
    await vi.waitFor(() => expect(heldLines()).not.toEqual([]), { timeout: 2_000 });
    const [line] = heldLines();
    expect(line).toMatchObject({
      method: 'GET',
      route: '/s/:token/slow',
      path: '/S/<token>/slow',
      request_id: expect.any(String),
    });
    expect(line!.held_ms).toBeGreaterThanOrEqual(250);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(token);
  });

  it('names a request that blocks and is still in flight when the loop turns again', async () => {
    warn.mockClear();
    const uuid = '6b0f4c36-0d8b-4f3e-9a55-0c9f1a2b3c4d';
    expect((await fetch(`${base}/v1/slow/${uuid}`, { method: 'POST' })).status).toBe(204);
    await vi.waitFor(() => expect(heldLines()).not.toEqual([]), { timeout: 2_000 });
    expect(heldLines()[0]).toMatchObject({
      method: 'POST',
      route: '/v1/slow/:uuid',
      path: `/v1/slow/${uuid}`,
    });
  });

  it('counts each hold in folio_event_loop_holds_total', async () => {
    const before =
      (await registry.getSingleMetric('folio_event_loop_holds_total')!.get()).values[0]?.value ?? 0;
    await fetch(`${base}/v1/slow/6b0f4c36-0d8b-4f3e-9a55-0c9f1a2b3c4d`, { method: 'POST' });
    await vi.waitFor(async () => {
      const after =
        (await registry.getSingleMetric('folio_event_loop_holds_total')!.get()).values[0]?.value ?? 0;
      expect(after).toBeGreaterThan(before);
    });
  });
});
