// Permanent deletion of a trashed document once its retention has passed: what the purge workflow's activities call.
import type { Knex } from 'knex';
import { releaseStorage } from '../storage-pool.js';
import { removeAttachmentObjects } from './attachments.js';
import type { DocumentsDeps } from './deps.js';
import { revisionLogBytes } from './revision-log.js';

export type PurgePlan =
  { action: 'gone' } | { action: 'kept' } | { action: 'wait'; delayMs: number } | { action: 'purge' };

/**
 * Where a document stands for its purge, by the database clock: gone, kept (not in Trash), due now, or due after a
 * delay. Locks the row for share, so a trash or restore still in flight is seen once it commits.
 */
export async function planDocumentPurge(
  knex: Knex,
  { settings }: Pick<DocumentsDeps, 'settings'>,
  documentUuid: string,
): Promise<PurgePlan> {
  const retentionMs = settings.documentTrashRetentionMs;
  return knex.transaction(async (tx) => {
    const row = await tx('documents')
      .where({ uuid: documentUuid })
      .forShare()
      .first(
        tx.raw(`trashed_at is not null as trashed`),
        tx.raw(
          `ceil(extract(epoch from (trashed_at + ? * interval '1 millisecond' - now())) * 1000)::bigint as delay_ms`,
          [retentionMs],
        ),
      );
    if (!row) return { action: 'gone' };
    if (!row.trashed) return { action: 'kept' };
    const delayMs = Number(row.delay_ms);
    return delayMs > 0 ? { action: 'wait', delayMs } : { action: 'purge' };
  });
}

/**
 * Deletes a document that is still in Trash and past its retention: attachment bytes, then every row (threads,
 * messages, revisions, batches, grants and attachments go by cascade), giving the attachment bytes and the revision
 * log's bytes back to the workspace pool. The row stays locked throughout, so a restore waits and then finds nothing. Idempotent: a
 * document already gone, or restored, is left alone. Returns whether it deleted.
 */
export async function purgeDocument(
  knex: Knex,
  deps: Pick<DocumentsDeps, 'settings' | 'attachmentObjects'>,
  documentUuid: string,
): Promise<boolean> {
  const retentionMs = deps.settings.documentTrashRetentionMs;
  return knex.transaction(async (tx) => {
    const row = await tx('documents')
      .where({ uuid: documentUuid })
      .whereNotNull('trashed_at')
      .whereRaw(`trashed_at + ? * interval '1 millisecond' <= now()`, [retentionMs])
      .forUpdate()
      .first('uuid', 'workspace_uuid');
    if (!row) return false;
    const held = await tx('document_attachments')
      .where({ document_uuid: documentUuid })
      .whereIn('upload_status', ['completed', 'awaiting_upload'])
      .sum({ bytes: 'byte_size' })
      .first();
    await removeAttachmentObjects(tx, deps, documentUuid);
    await releaseStorage(
      tx,
      row.workspace_uuid as string,
      Number(held?.bytes ?? 0) + (await revisionLogBytes(tx, documentUuid)),
    );
    await tx('documents').where({ uuid: documentUuid }).delete();
    return true;
  });
}
