// Simple uploads in flight, without a workflow each (docs/drive-encryption.md § Crash safety of a simple upload): a row
// committed before the first byte is stored, claimed by the transaction that creates the file, and swept by a Temporal
// Schedule when the API process that wrote it is gone (or it is older than any request can run).
import type { Knex } from 'knex';
import type { StoredContent } from './content-objects.js';

interface StagedUploadRow {
  storage_key: string;
  workspace_uuid: string;
  file_uuid: string;
  storage_upload_id: string | null;
  owner_lock: string;
  created_at: Date;
}

/** Records, in its own commit, that the object at `storageKey` is about to be written by the process holding `ownerLock`. */
export async function recordStagedUpload(
  knex: Knex,
  row: { storageKey: string; workspaceUuid: string; fileUuid: string; ownerLock: string },
): Promise<void> {
  await knex('drive_staged_uploads').insert({
    storage_key: row.storageKey,
    workspace_uuid: row.workspaceUuid,
    file_uuid: row.fileUuid,
    owner_lock: row.ownerLock,
  });
}

/**
 * Claims the staged upload in the transaction that creates its file: false when a sweep took it first (it then
 * discarded the object, so the file must not be created). The row lock orders this against a sweep running now.
 */
export async function claimStagedUpload(tx: Knex.Transaction, storageKey: string): Promise<boolean> {
  return (await tx('drive_staged_uploads').where({ storage_key: storageKey }).delete()) > 0;
}

/** After a refused or failed upload: its object, then its row. A failure here is left to the sweep. */
export async function dropStagedUpload(deps: StoredContent, storageKey: string): Promise<void> {
  await deps.objects.discard(storageKey, null);
  await deps.db('drive_staged_uploads').where({ storage_key: storageKey }).delete();
}

/**
 * Discards the objects and rows of abandoned simple uploads: those whose API process no longer holds its advisory lock
 * (it crashed or stopped mid-upload; PostgreSQL freed the lock with its session), and any older than `maxAgeMs`,
 * which no request can still be writing. Rows an upload is committing right now are locked and skipped. Returns how
 * many went; a retry or a second sweep finds less to do.
 */
export async function sweepStagedUploads(
  deps: StoredContent,
  options: { maxAgeMs: number; limit?: number },
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    // pg_try_advisory_xact_lock succeeds only when no live session holds the owner's lock; what it takes is let go at commit.
    const rows = (await tx('drive_staged_uploads')
      .whereRaw(
        `created_at < now() - (? * interval '1 millisecond') or pg_try_advisory_xact_lock(owner_lock)`,
        [options.maxAgeMs],
      )
      .orderBy('created_at')
      .limit(options.limit ?? 200)
      .forUpdate()
      .skipLocked()) as StagedUploadRow[];
    for (const row of rows) await deps.objects.discard(row.storage_key, row.storage_upload_id);
    if (rows.length)
      await tx('drive_staged_uploads')
        .whereIn(
          'storage_key',
          rows.map((row) => row.storage_key),
        )
        .delete();
    return rows.length;
  });
}
