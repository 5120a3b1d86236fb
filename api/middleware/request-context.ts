// Gives every request an id (echoed as X-Request-Id) and a child logger, and logs one line when it ends.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { logger, type Logger } from '../../platform/logger.js';
import { runWithRequestId } from '../../platform/request-scope.js';

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    log: Logger;
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The path as logged: a public link's token is a secret (whoever holds it reads the item), so it is left out. */
export const loggedPath = (path: string) => path.replace(/^\/s\/[^/]*/, '/s/<token>');

export function requestContext(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    ctx.state.requestId = requestId;
    // The logger's mixin adds request_id to every line written inside the scope, this one's and any other module's.
    ctx.state.log = logger.child({ category: 'http' });
    ctx.set('X-Request-Id', requestId);
    await runWithRequestId(requestId, async () => {
      try {
        await next();
      } finally {
        ctx.state.log.info(
          {
            method: ctx.method,
            path: loggedPath(ctx.path),
            status: ctx.status,
            duration_ms: Math.round(performance.now() - started),
            client_address: ctx.ip,
            workspace_uuid: ctx.state.auth?.workspaceUuid,
          },
          'request',
        );
      }
    });
  };
}
