// Gives every request an id (echoed as X-Request-Id) and a child logger, logs one line when it ends, and names the
// requests running whenever the event loop was held too long.
import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { EventLoopWatch } from '../../platform/event-loop.js';
import { logger, type Logger } from '../../platform/logger.js';
import { eventLoopHolds } from '../../platform/metrics.js';
import { runWithRequestId } from '../../platform/request-scope.js';
import { redactPath } from '../../platform/secret-paths.js';

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    log: Logger;
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * One logger for every request: the request id reaches each line through the logger's mixin (the request scope), so a
 * child per request would bind nothing of its own and cost an allocation and a serialisation of its bindings.
 */
const httpLog = logger.child({ category: 'http' });

/**
 * The path as logged: secret segments (a public link's token, an admin sign-in link's) left out, in any case, through
 * the one redaction every route that carries a secret declares itself to (platform/secret-paths.ts).
 */
export const loggedPath = (path: string) => redactPath(path);

/** A request as the event-loop watchdog names it. */
export interface RunningRequest {
  ctx: Context;
  method: string;
  /** As requested: secret segments are left out where it is logged (loggedPath), not on every request. */
  path: string;
  requestId: string;
}

/** A turn of the loop longer than this is logged with the requests that ran in it (docs/observability.md). */
const LOOP_HELD_THRESHOLD_MS = 200;

/** Starts the watchdog that logs "event loop held" (a warning per suspect request); the API process calls it once. */
export function watchEventLoop(
  running: EventLoopWatch<RunningRequest>,
  options: { thresholdMs?: number; intervalMs?: number; log?: Pick<Logger, 'warn'> } = {},
): () => void {
  const log = options.log ?? logger.child({ category: 'event_loop' });
  running.start({
    thresholdMs: options.thresholdMs ?? LOOP_HELD_THRESHOLD_MS,
    // The hold is measured to within this: a gap over the threshold is a hold of at least (gap - interval).
    intervalMs: options.intervalMs ?? 25,
    onHeld(heldMs, suspects) {
      eventLoopHolds.inc();
      const fields = { held_ms: Math.round(heldMs), requests_running: suspects.length };
      if (suspects.length === 0) log.warn(fields, 'event loop held');
      for (const request of suspects.slice(0, 20)) {
        const route = typeof request.ctx._matchedRoute === 'string' ? request.ctx._matchedRoute : undefined;
        log.warn(
          {
            ...fields,
            method: request.method,
            route,
            path: loggedPath(request.path),
            request_id: request.requestId,
          },
          'event loop held',
        );
      }
    },
  });
  return () => running.stop();
}

export function requestContext(running: EventLoopWatch<RunningRequest>): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    ctx.state.requestId = requestId;
    // The logger's mixin adds request_id to every line written inside the scope, this one's and any other module's.
    ctx.state.log = httpLog;
    ctx.set('X-Request-Id', requestId);
    // Taken now: the admin app rewrites ctx.path to its own while its routers run.
    const path = ctx.path;
    const ended = running.begin({ ctx, method: ctx.method, path, requestId });
    await runWithRequestId(requestId, async () => {
      try {
        await next();
      } finally {
        ended();
        // Built only when written: the line, and the path's redaction, cost something on every request.
        if (httpLog.isLevelEnabled('info'))
          httpLog.info(
            {
              method: ctx.method,
              path: loggedPath(path),
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
