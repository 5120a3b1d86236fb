// The purge of a trashed document: waits out the Trash retention, then deletes the document for good. A restore
// (or a new trash) signals it to look at the row again; it never deletes without the activity re-checking the row.
import {
  condition,
  continueAsNew,
  defineSignal,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { LONG_STORAGE_WORK, SHORT_DATABASE_STEP } from './activity-profiles.js';

const { planDocumentPurge } = proxyActivities<Activities>(SHORT_DATABASE_STEP);
const { purgeTrashedDocument } = proxyActivities<Activities>(LONG_STORAGE_WORK);

/** Sent by the API when the document's trash state changes; the workflow reads the row again. */
export const documentTrashChangedSignal = defineSignal('documentTrashChanged');

export interface DocumentPurgeInput {
  documentUuid: string;
}

export interface DocumentPurgeResult {
  outcome: 'purged' | 'restored' | 'gone';
}

/**
 * Passes per run before continuing as new, whatever the server suggests: each pass (a read, perhaps a timer and a
 * signal) adds a handful of events, so a document trashed and restored without end still keeps a small history.
 */
const PASSES_PER_RUN = 100;

export async function documentPurgeWorkflow(input: DocumentPurgeInput): Promise<DocumentPurgeResult> {
  let signals = 0;
  setHandler(documentTrashChangedSignal, () => {
    signals++;
  });
  for (let passes = 0; ; passes++) {
    // The next run starts by reading the row, which covers any signal this one took: the id is all it needs.
    if (passes >= PASSES_PER_RUN || workflowInfo().continueAsNewSuggested)
      return continueAsNew<typeof documentPurgeWorkflow>(input);
    const seen = signals;
    const plan = await planDocumentPurge({ documentUuid: input.documentUuid });
    if (plan.action === 'wait') {
      await condition(() => signals !== seen, plan.delayMs);
      continue;
    }
    if (plan.action === 'purge') {
      const purged = await purgeTrashedDocument({ documentUuid: input.documentUuid });
      if (purged) {
        log.info('document purged', { documentUuid: input.documentUuid });
        return { outcome: 'purged' };
      }
      continue;
    }
    // Restored or gone; a signal that came while we looked means the row may have changed again.
    if (signals === seen) return { outcome: plan.action === 'kept' ? 'restored' : 'gone' };
  }
}
