// Rename, trash and restore of a document, and the purge workflow each trashed document runs
// (workflows/documents.ts): signalled with start inside the trashing transaction, so it exists whenever the trash
// commits; its first read of the row waits on our lock and so sees the committed state.
import type { Knex } from 'knex';
import { config } from '../../platform/config.js';
import { logger } from '../../platform/logger.js';
import { temporalClient } from '../../platform/temporal.js';
import { FOLIO_RESOURCE_ID, FOLIO_WORKSPACE_ID } from '../../workflows/client.js';
import { documentPurgeWorkflowId } from '../../workflows/ids.js';
import { documentTrashChangedSignal, type documentPurgeWorkflow } from '../../workflows/documents.js';
import { checkDocumentUpdate, findVisibleDocument, writeDocumentUpdate, type DocumentCaller, type DocumentUpdate, type VisibleDocument } from './documents.js';

const log = logger.child({ category: 'documents-trash' });

/** Starts the purge of a trashed document, or wakes the one already waiting so it reads trashed_at again. */
export async function ensurePurgeWorkflow(document: { uuid: string; workspace_uuid: string }): Promise<void> {
  const client = await temporalClient();
  await client.workflow.signalWithStart<typeof documentPurgeWorkflow>('documentPurgeWorkflow', {
    workflowId: documentPurgeWorkflowId(document.uuid),
    taskQueue: config().temporal.taskQueue,
    args: [{ documentUuid: document.uuid }],
    signal: documentTrashChangedSignal,
    signalArgs: [],
    typedSearchAttributes: [
      { key: FOLIO_WORKSPACE_ID, value: document.workspace_uuid },
      { key: FOLIO_RESOURCE_ID, value: document.uuid },
    ],
  });
}

/**
 * Wakes the purge after a restore so it ends now. Only a shortcut: a lost signal leaves the workflow to find the
 * document restored when its retention ends, and it never deletes a restored document.
 */
async function wakePurgeWorkflow(documentUuid: string): Promise<void> {
  try {
    await (await temporalClient()).workflow.getHandle(documentPurgeWorkflowId(documentUuid)).signal(documentTrashChangedSignal);
  } catch (error) {
    log.info({ err: error, document_uuid: documentUuid }, 'no purge workflow to wake after a restore');
  }
}

/**
 * Applies an update (title, trashed) in one transaction: the whole request is checked against the caller's role
 * before anything is written. Trashing an already trashed document changes nothing, but still makes sure its purge
 * is scheduled, so a retry repairs a trash whose workflow start was lost.
 */
export async function updateDocument(knex: Knex, caller: DocumentCaller, documentUuid: string, update: DocumentUpdate): Promise<VisibleDocument> {
  return knex.transaction(async (tx) => {
    const document = await findVisibleDocument(tx, caller, documentUuid, { forUpdate: true });
    const change = checkDocumentUpdate(document, update);
    const trash = await writeDocumentUpdate(tx, document, { ...change, trashed: update.trashed });
    if (update.trashed === true) await ensurePurgeWorkflow(document);
    if (trash === 'restored') await wakePurgeWorkflow(document.uuid);
    return findVisibleDocument(tx, caller, document.uuid);
  });
}
