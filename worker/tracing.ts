// What the worker adds for OpenTelemetry traces (docs/observability.md § Traces): spans around activities and workflow
// code, continuing the trace that the API's start carried in the workflow's headers.
import { fileURLToPath } from 'node:url';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { Tracing } from '../platform/tracing.js';

/**
 * The OpenTelemetry workflow interceptors, active in a workflow whose start carried a trace context
 * (workflows/tracing-interceptors.ts): bundled by deploy/workflow-bundle.ts, and from source when tracing is on.
 */
export const TRACING_WORKFLOW_INTERCEPTORS = fileURLToPath(
  new URL(
    `../workflows/tracing-interceptors${fileURLToPath(import.meta.url).endsWith('.ts') ? '.ts' : '.js'}`,
    import.meta.url,
  ),
);

export interface WorkerTracing {
  activity: ActivityInterceptorsFactory[];
  workflowModules: string[];
  /** Always given: a prebuilt bundle holds the workflow interceptors, which export through this sink (a no-op when off). */
  sinks: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }>;
}

export async function workerTracing(tracing: Tracing | undefined): Promise<WorkerTracing> {
  if (!tracing)
    return { activity: [], workflowModules: [], sinks: { exporter: { export: { fn: () => undefined } } } };
  const otel = await import('@temporalio/interceptors-opentelemetry');
  return {
    activity: [
      (context) => ({
        inbound: new otel.OpenTelemetryActivityInboundInterceptor(context),
        outbound: new otel.OpenTelemetryActivityOutboundInterceptor(context),
      }),
    ],
    workflowModules: [TRACING_WORKFLOW_INTERCEPTORS],
    sinks: { exporter: otel.makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
