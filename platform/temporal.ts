// The Temporal client factory and Folio's search attributes.
import { Client, Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { config } from './config.js';

/** Registered on the dev server at start (deploy/local/services.ts) and on a cluster by the operator. */
export const FOLIO_WORKSPACE_ID = defineSearchAttributeKey('FolioWorkspaceId', SearchAttributeType.KEYWORD);
export const FOLIO_RESOURCE_ID = defineSearchAttributeKey('FolioResourceId', SearchAttributeType.KEYWORD);
export const SEARCH_ATTRIBUTES = [FOLIO_WORKSPACE_ID, FOLIO_RESOURCE_ID];

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
