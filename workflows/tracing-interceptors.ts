// OpenTelemetry's workflow interceptors (docs/observability.md § Traces), bundled with the workflows and active only in
// a workflow whose start carried a trace context. A start carries one when its starter traces (the API's, the
// activities' and the CLI's Temporal client while OTEL_EXPORTER_OTLP_ENDPOINT is set): a traced request then follows
// into its workflows and their activities as before. Any other workflow (tracing off, or started by a Temporal
// Schedule) makes no span: it used to make two or three per run in the sandbox and send each through the exporter
// sink to a no-op, a third of the worker's CPU for a webhook delivery (docs/benchmarks.md § session 14).
//
// Nor does it load OpenTelemetry. The worker evaluates a workflow's modules afresh for every workflow it starts (the
// SDK's reused V8 context keeps module state apart per workflow), and OpenTelemetry's are 116 of the 135 a start
// evaluated: ≈ 3 ms of the workflow thread at every start, a fifth of the worker's CPU per webhook delivery
// (docs/benchmarks.md § session 27). They are loaded when a traced start first needs them.
import type {
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptorsFactory,
  WorkflowInternalsInterceptor,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import type {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';

type OpenTelemetryWorkflowModule =
  typeof import('@temporalio/interceptors-opentelemetry/lib/workflow/index.js');

/**
 * Webpack's synchronous require, which evaluates the module inside the workflow that asks (in the sandbox, as the
 * interceptors' own imports were): an `import()` would add a promise to every traced start and a chunk the one-file
 * workflow bundle cannot carry.
 */
const loadOpenTelemetry = (): OpenTelemetryWorkflowModule =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on demand, see above
  require('@temporalio/interceptors-opentelemetry/lib/workflow/index.js') as OpenTelemetryWorkflowModule;

/** The header OpenTelemetry's client interceptor writes a start's trace context into (its TRACE_HEADER). */
const TRACE_HEADER = '_tracer-data';

export const interceptors: WorkflowInterceptorsFactory = () => {
  // Decided once, by the start's headers (part of the history, so a replay decides the same); a signal handled before
  // the workflow's first run (signal-with-start) is not traced.
  let otel:
    | {
        inbound: OpenTelemetryInboundInterceptor;
        outbound: OpenTelemetryOutboundInterceptor;
        internals: OpenTelemetryInternalsInterceptor;
      }
    | undefined;
  const inbound: WorkflowInboundCallsInterceptor = {
    execute(input, next) {
      if (!input.headers[TRACE_HEADER]) return next(input);
      const openTelemetry = loadOpenTelemetry();
      otel = {
        inbound: new openTelemetry.OpenTelemetryInboundInterceptor(),
        outbound: new openTelemetry.OpenTelemetryOutboundInterceptor(),
        internals: new openTelemetry.OpenTelemetryInternalsInterceptor(),
      };
      return otel.inbound.execute(input, next);
    },
    handleSignal: (input, next) => (otel ? otel.inbound.handleSignal(input, next) : next(input)),
    handleUpdate: (input, next) => (otel ? otel.inbound.handleUpdate(input, next) : next(input)),
    validateUpdate: (input, next) => (otel ? otel.inbound.validateUpdate(input, next) : next(input)),
    handleQuery: (input, next) => (otel ? otel.inbound.handleQuery(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (otel ? otel.outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) =>
      otel ? otel.outbound.scheduleLocalActivity(input, next) : next(input),
    startNexusOperation: (input, next) =>
      otel ? otel.outbound.startNexusOperation(input, next) : next(input),
    startChildWorkflowExecution: (input, next) =>
      otel ? otel.outbound.startChildWorkflowExecution(input, next) : next(input),
    continueAsNew: (input, next) => (otel ? otel.outbound.continueAsNew(input, next) : next(input)),
    signalWorkflow: (input, next) => (otel ? otel.outbound.signalWorkflow(input, next) : next(input)),
    getLogAttributes: (input, next) => (otel ? otel.outbound.getLogAttributes(input, next) : next(input)),
  };
  const internals: WorkflowInternalsInterceptor = {
    dispose: (input, next) => (otel ? otel.internals.dispose(input, next) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [internals] };
};
