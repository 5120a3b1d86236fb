// Activities of the document purge: thin wrappers of domain/documents/purge.ts, safe to retry.
import { planDocumentPurge, purgeDocument, type PurgePlan } from '../domain/documents/purge.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export function createDocumentActivities(deps: ActivityDeps) {
  // The settings as they are when the activity runs (the retention may have changed since the workflow started).
  const documents = () => ({ settings: deps.settings(), attachmentObjects: deps.objects });
  return {
    /** Reads the row by the database clock, against the worker's retention when the activity runs. */
    async planDocumentPurge(input: { documentUuid: string }): Promise<PurgePlan> {
      return planDocumentPurge(deps.db, documents(), input.documentUuid);
    },

    /** Deletes only a document still trashed past its retention; gone or restored is a harmless no-op. */
    async purgeTrashedDocument(input: { documentUuid: string }): Promise<boolean> {
      return heartbeating(() => purgeDocument(deps.db, documents(), input.documentUuid));
    },
  };
}
