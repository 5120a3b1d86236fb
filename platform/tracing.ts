// OpenTelemetry traces (docs/observability.md § Traces): on when an OTLP endpoint is configured, off (no provider, no
// interceptors, no cost) otherwise. Spans go out over OTLP/HTTP; sampling follows the standard OTEL_TRACES_SAMPLER.
// The SDK is imported only when tracing is on, so the CLI and untraced processes never load it.
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  shutdown(): Promise<void>;
}

/** The standard variables of the OpenTelemetry exporters: either one turns tracing on. */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

let started: Promise<Tracing> | undefined;

/** Registers the process's tracer provider (once); undefined when tracing is off. */
export async function startTracing(serviceName: string): Promise<Tracing | undefined> {
  if (!tracingEnabled()) return undefined;
  started ??= (async () => {
    const [{ Resource }, { BatchSpanProcessor }, { NodeTracerProvider }, { OTLPTraceExporter }] =
      await Promise.all([
        import('@opentelemetry/resources'),
        import('@opentelemetry/sdk-trace-base'),
        import('@opentelemetry/sdk-trace-node'),
        import('@opentelemetry/exporter-trace-otlp-http'),
      ]);
    const resource = new Resource({ 'service.name': process.env.OTEL_SERVICE_NAME ?? serviceName });
    // The exporter reads its endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables itself.
    const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter());
    const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
    provider.register();
    return { resource, spanProcessor, shutdown: () => provider.shutdown() };
  })();
  return started;
}
