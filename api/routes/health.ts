// Liveness (/healthz) and readiness (/readyz: not shutting down, and PostgreSQL, Temporal and object storage answer).
import Router from '@koa/router';
import { isDraining } from '../draining.js';
import { db } from '../../platform/database.js';
import { bucket, storage } from '../../platform/storage.js';
import { temporalClient } from '../../platform/temporal.js';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
  ]);
}

const checks: Record<string, () => Promise<unknown>> = {
  postgres: () => db().raw('select 1'),
  temporal: async () => (await temporalClient()).workflowService.getSystemInfo({}),
  storage: () => storage().bucketExists(bucket()),
};

export const healthRouter = new Router({ sensitive: true });

healthRouter.get('/healthz', (ctx) => {
  ctx.body = { status: 'ok' };
});

healthRouter.get('/readyz', async (ctx) => {
  // Shutting down: not ready whatever the dependencies say, so no new request is routed here (docs/operations.md).
  if (isDraining()) {
    ctx.status = 503;
    ctx.body = { status: 'draining' };
    return;
  }
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check());
        return [name, 'ok'] as const;
      } catch (error) {
        ctx.state.log.warn({ err: error, dependency: name }, 'readiness check failed');
        return [name, 'unavailable'] as const;
      }
    }),
  );
  const ready = results.every(([, status]) => status === 'ok');
  ctx.status = ready ? 200 : 503;
  ctx.body = { status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results) };
});
