// The process's Temporal connection. Starting and signalling workflows goes through workflows/client.ts.
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { config, type Config, type TemporalTls } from './config.js';
import { workflowStarts } from './metrics.js';
import { REQUEST_ID_HEADER, REQUEST_ID_MEMO } from './request-id-carriers.js';
import { currentRequestId } from './request-scope.js';
import { tracingEnabled } from './tracing.js';

/**
 * Every start this process asks of Temporal, whichever code path asked: counted by workflow type, and, inside a
 * request, given its id in the memo (shown in the Temporal UI) and a header that the workflow hands its activities.
 */
function withRequestId<
  T extends { headers: Record<string, unknown>; options: { memo?: Record<string, unknown> } },
>(input: T): T {
  const requestId = currentRequestId();
  if (!requestId) return input;
  return {
    ...input,
    headers: { ...input.headers, [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(requestId) },
    options: { ...input.options, memo: { ...input.options.memo, [REQUEST_ID_MEMO]: requestId } },
  };
}

const startInterceptor: WorkflowClientInterceptor = {
  async startWithDetails(input, next) {
    const output = await next(withRequestId(input));
    workflowStarts.inc({ type: input.workflowType });
    return output;
  },
  async signalWithStart(input, next) {
    const runId = await next(withRequestId(input));
    workflowStarts.inc({ type: input.workflowType });
    return runId;
  },
};

/** Where and how to reach Temporal, for this client and the worker's native connection alike (TLS, mTLS, API key). */
export function temporalConnectionOptions(settings: Config['temporal'] = config().temporal): {
  address: string;
  tls?: TemporalTls;
  apiKey?: string;
} {
  const { address, tls, apiKey } = settings;
  return { address, ...(tls ? { tls } : {}), ...(apiKey ? { apiKey } : {}) };
}

/** A new client on a connection of its own: the process's (temporalClient below), or one per API app (api/services.ts). */
export async function connectTemporal(settings: Config['temporal'] = config().temporal): Promise<Client> {
  const connection = await Connection.connect(temporalConnectionOptions(settings));
  const workflow: WorkflowClientInterceptor[] = [startInterceptor];
  // Starts carry the active trace context, so a workflow continues the trace of the request that started it.
  if (tracingEnabled())
    workflow.push(
      new (await import('@temporalio/interceptors-opentelemetry')).OpenTelemetryWorkflowClientInterceptor(),
    );
  return new Client({ connection, namespace: settings.namespace, interceptors: { workflow } });
}

let shared: Promise<Client> | undefined;

export function temporalClient(): Promise<Client> {
  if (shared) return shared;
  const connecting = connectTemporal();
  // A failed connect is not kept: the next caller tries again (Temporal may have been restarting).
  connecting.catch(() => {
    if (shared === connecting) shared = undefined;
  });
  shared = connecting;
  return shared;
}

export async function closeTemporalClient(): Promise<void> {
  const client = await shared;
  shared = undefined;
  await client?.connection.close();
}
