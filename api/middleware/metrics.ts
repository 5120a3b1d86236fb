// Counts and times every request for Prometheus (platform/metrics.ts), by the route template the router matched.
import type { Middleware } from 'koa';
import { httpRequestDuration, httpRequests } from '../../platform/metrics.js';

export function httpMetrics(): Middleware {
  return async (ctx, next) => {
    const stopTimer = httpRequestDuration.startTimer();
    try {
      await next();
    } finally {
      // A template such as /v1/drive/files/:uuid; a path no router matched is one series, whatever was asked.
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      httpRequests.inc(labels);
      stopTimer(labels);
    }
  };
}
