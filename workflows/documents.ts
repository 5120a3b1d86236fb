// The purge of a trashed document: waits out the Trash retention, then deletes the document for good. A restore
// (or a new trash) signals it to look at the row again; it never deletes without the activity re-checking the row.
import { condition, defineSignal, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { planDocumentPurge } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const { purgeTrashedDocument } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Sent by the API after a trash or restore of the document; the workflow reads the row again. */
export const documentTrashChangedSignal = defineSignal('documentTrashChanged');

export interface DocumentPurgeInput {
  documentUuid: string;
}

export interface DocumentPurgeResult {
  outcome: 'purged' | 'restored' | 'gone';
}

// Each pass reads the row once; a pass is a few events, so even many restore/trash rounds stay far below the
// history limits and continueAsNew is not needed.
export async function documentPurgeWorkflow(input: DocumentPurgeInput): Promise<DocumentPurgeResult> {
  let signals = 0;
  setHandler(documentTrashChangedSignal, () => {
    signals++;
  });
  for (;;) {
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
