// A server span per request (docs/observability.md § Traces), child of the caller's `traceparent` when it sends one,
// and the active context while the request runs, so workflows it starts continue the trace. Off when tracing is off.
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';

const tracer = trace.getTracer('folio-api');

export function httpTracing(): Middleware {
  return async (ctx, next) => {
    const parent = propagation.extract(context.active(), ctx.headers);
    const span = tracer.startSpan(
      `${ctx.method}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method } },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      // Named by the route template once the router has matched: ids and public-link tokens stay out of traces.
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : undefined;
      if (route) span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({
        'http.route': route ?? 'unmatched',
        'http.response.status_code': ctx.status,
        'folio.request_id': ctx.state.requestId,
      });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
