// Counts and times every request for Prometheus (platform/metrics.ts), by the route template the router matched.
import type { Middleware } from 'koa';
import { httpRequestDuration, httpRequests } from '../../platform/metrics.js';

type Labels = { method: string; route: string; status: string };

/**
 * One labels object per series, kept as long as the series is: prom-client copies and merges the labels a timer is
 * started and stopped with on every request, where observe() and inc() with the same object copy nothing.
 */
const seriesLabels = new Map<string, Labels>();

function labelsOf(method: string, route: string, status: number): Labels {
  const key = `${method} ${status} ${route}`;
  let labels = seriesLabels.get(key);
  if (!labels) {
    labels = { method, route, status: String(status) };
    seriesLabels.set(key, labels);
  }
  return labels;
}

export function httpMetrics(): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // A template such as /v1/drive/files/:uuid; a path no router matched is one series, whatever was asked.
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
      const labels = labelsOf(ctx.method, route, ctx.status);
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, (performance.now() - started) / 1000);
    }
  };
}
