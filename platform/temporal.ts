// The process's Temporal connection. Starting and signalling workflows goes through workflows/client.ts.
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import { config } from './config.js';
import { workflowStarts } from './metrics.js';

/** Counts each start this process asks of Temporal, by workflow type, whichever code path asked. */
const countStarts: WorkflowClientInterceptor = {
  async startWithDetails(input, next) {
    const output = await next(input);
    workflowStarts.inc({ type: input.workflowType });
    return output;
  },
  async signalWithStart(input, next) {
    const runId = await next(input);
    workflowStarts.inc({ type: input.workflowType });
    return runId;
  },
};

let shared: Promise<Client> | undefined;

export function temporalClient(): Promise<Client> {
  shared ??= Connection.connect({ address: config().temporal.address }).then(
    (connection) => new Client({ connection, namespace: config().temporal.namespace, interceptors: { workflow: [countStarts] } }),
  );
  return shared;
}

export async function closeTemporalClient(): Promise<void> {
  const client = await shared;
  shared = undefined;
  await client?.connection.close();
}
