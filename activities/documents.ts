// Activities of the document purge: thin wrappers of domain/documents/purge.ts, safe to retry.
import { heartbeat } from '@temporalio/activity';
import { planDocumentPurge, purgeDocument, type PurgePlan } from '../domain/documents/purge.js';
import { config } from '../platform/config.js';
import type { ActivityDeps } from './index.js';

export function createDocumentActivities(deps: ActivityDeps) {
  const store = { storage: deps.storage, bucket: deps.bucket };
  return {
    /** Reads the row by the database clock; the retention is this worker's configuration. */
    async planDocumentPurge(input: { documentUuid: string }): Promise<PurgePlan> {
      return planDocumentPurge(deps.db, input.documentUuid, config().documentTrashRetentionMs);
    },

    /** Deletes only a document still trashed past its retention; gone or restored is a harmless no-op. */
    async purgeTrashedDocument(input: { documentUuid: string }): Promise<boolean> {
      heartbeat();
      return purgeDocument(deps.db, store, input.documentUuid, config().documentTrashRetentionMs);
    },
  };
}
