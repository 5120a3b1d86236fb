// Liveness (/healthz) and readiness (/readyz: not shutting down, and PostgreSQL, Temporal and object storage answer).
import Router from '@koa/router';
import type { ApiServices } from '../services.js';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
  ]);
}

export function healthRouter(services: ApiServices): Router {
  const checks: Record<string, () => Promise<unknown>> = {
    postgres: () => services.db.raw('select 1'),
    temporal: async () => (await services.temporal()).workflowService.getSystemInfo({}),
    storage: () => services.storage.client.bucketExists(services.storage.bucket),
  };
  const router = new Router({ sensitive: true });

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    // Shutting down: not ready whatever the dependencies say, so no new request is routed here (docs/operations.md).
    if (services.draining.active) {
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
  return router;
}
