// Simple uploads in flight, without a workflow each (docs/drive-encryption.md § Crash safety of a simple upload): a row
// committed before the first byte is stored, claimed (deleted) by the statement that creates the file (content.ts
// wholeFileCommit), and swept by a Temporal Schedule when the API process that wrote it is gone (or it is older than
// any request can run).
import type { Knex } from 'knex';
import { storageLimitExceeded } from '../errors.js';
import { prepared } from '../prepared.js';
import type { StoredContent } from './content-objects.js';

interface StagedUploadRow {
  storage_key: string;
  workspace_uuid: string;
  file_uuid: string;
  storage_upload_id: string | null;
  owner_lock: string;
  created_at: Date;
}

/**
 * Records, in its own commit, that the object at `storageKey` is about to be written by the process holding
 * `ownerLock`, or refuses with 422 storage_limit_exceeded when `sizeBytes` do not fit the pool now (checkStorageRoom's
 * cheap refusal, in the same statement; reserveStorage decides at the commit).
 */
export async function recordStagedUpload(
  knex: Knex,
  row: { storageKey: string; workspaceUuid: string; fileUuid: string; ownerLock: string; sizeBytes: number },
): Promise<void> {
  const { rows } = await prepared<{ storage_limit_bytes: string | null; fits: boolean }>(
    knex,
    'record_staged_upload',
    `with room as (
         select w.storage_limit_bytes,
           w.uuid is null or ?::bigint <= 0 or w.storage_used_bytes + ?::bigint <= w.storage_limit_bytes as fits
         from (select 1) as one left join workspaces as w on w.uuid = ?::uuid
       ), staged as (
         insert into drive_staged_uploads (storage_key, workspace_uuid, file_uuid, owner_lock)
         select ?::text, ?::uuid, ?::uuid, ?::bigint from room where fits
       )
       select storage_limit_bytes, fits from room`,
    [
      row.sizeBytes,
      row.sizeBytes,
      row.workspaceUuid,
      row.storageKey,
      row.workspaceUuid,
      row.fileUuid,
      row.ownerLock,
    ],
  );
  if (!rows[0]!.fits) throw storageLimitExceeded(Number(rows[0]!.storage_limit_bytes));
}

/**
 * After a refused or failed upload: its object, then its row, while the row is held. Only an upload whose row is still
 * there is dropped: when the error came after its commit (an answer lost with its connection, the wait for the
 * commit's flush), the row was claimed and the object is a file's. A failure here is left to the sweep.
 */
export async function dropStagedUpload(deps: StoredContent, storageKey: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const staged = await tx('drive_staged_uploads').where({ storage_key: storageKey }).forUpdate().first();
    if (!staged) return;
    await deps.objects.discard(storageKey, null);
    await tx('drive_staged_uploads').where({ storage_key: storageKey }).delete();
  });
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
