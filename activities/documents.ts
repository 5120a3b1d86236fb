// Activities of the document purge: thin wrappers of domain/documents/purge.ts, safe to retry.
import { planDocumentPurge, purgeDocument, type PurgePlan } from '../domain/documents/purge.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export function createDocumentActivities(deps: ActivityDeps) {
  const store = { storage: deps.storage, bucket: deps.bucket, masterKey: deps.masterKey };
  return {
    /** Reads the row by the database clock; the retention is the worker's setting when the activity runs. */
    async planDocumentPurge(input: { documentUuid: string }): Promise<PurgePlan> {
      return planDocumentPurge(deps.db, input.documentUuid, deps.settings().documentTrashRetentionMs);
    },

    /** Deletes only a document still trashed past its retention; gone or restored is a harmless no-op. */
    async purgeTrashedDocument(input: { documentUuid: string }): Promise<boolean> {
      return heartbeating(() =>
        purgeDocument(deps.db, store, input.documentUuid, deps.settings().documentTrashRetentionMs),
      );
    },
  };
}
