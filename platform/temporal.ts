// The process's Temporal connection. Starting and signalling workflows goes through workflows/client.ts.
import { Client, Connection } from '@temporalio/client';
import { config } from './config.js';

let shared: Promise<Client> | undefined;

export function temporalClient(): Promise<Client> {
  shared ??= Connection.connect({ address: config().temporal.address }).then(
    (connection) => new Client({ connection, namespace: config().temporal.namespace }),
  );
  return shared;
}

export async function closeTemporalClient(): Promise<void> {
  const client = await shared;
  shared = undefined;
  await client?.connection.close();
}
