// The per-workspace storage pool: plaintext bytes promised to every Drive version, upload in flight and document
// attachment, and the bytes each document's revision log stores (domain/documents/revision-log.ts).
import type { Knex } from 'knex';
import { storageLimitExceeded, type AppError } from './errors.js';

/**
 * Reserves `bytes` in the workspace pool, or throws `full(limit)`: 422 storage_limit_exceeded, which Drive answers
 * with pool_bytes and Documents without (each spec lists its own error fields). One conditional UPDATE, so concurrent
 * reservations cannot overshoot the limit together. The reservation belongs to the caller's transaction: a rollback
 * gives the bytes back.
 */
export async function reserveStorage(
  tx: Knex.Transaction,
  workspaceUuid: string,
  bytes: number,
  full: (poolBytes: number) => AppError = storageLimitExceeded,
): Promise<void> {
  if (bytes <= 0) return;
  const updated = await tx('workspaces')
    .where({ uuid: workspaceUuid })
    .whereRaw('storage_used_bytes + ? <= storage_limit_bytes', [bytes])
    .increment('storage_used_bytes', bytes);
  if (updated > 0) return;
  throw await poolFull(tx, workspaceUuid, full);
}

/** The refusal of a reservation that did not fit, with the pool's limit as it is now. */
export async function poolFull(
  knex: Knex,
  workspaceUuid: string,
  full: (poolBytes: number) => AppError = storageLimitExceeded,
): Promise<AppError> {
  const workspace = await knex('workspaces').where({ uuid: workspaceUuid }).first('storage_limit_bytes');
  return full(Number(workspace?.storage_limit_bytes ?? 0));
}

/**
 * A cheap refusal before anything is stored or started: 422 storage_limit_exceeded when `bytes` do not fit the
 * pool now. Only reserveStorage decides; this spares a request that cannot fit the work before it.
 */
export async function checkStorageRoom(knex: Knex, workspaceUuid: string, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  const workspace = await knex('workspaces')
    .where({ uuid: workspaceUuid })
    .first('storage_used_bytes', 'storage_limit_bytes');
  if (workspace && Number(workspace.storage_used_bytes) + bytes > Number(workspace.storage_limit_bytes)) {
    throw storageLimitExceeded(Number(workspace.storage_limit_bytes));
  }
}

/**
 * Gives `bytes` back to the pool. Call it in the transaction that removes what held them (an aborted or
 * expired upload, a purged version, a permanently deleted file), so a retry cannot release twice.
 */
export async function releaseStorage(
  tx: Knex.Transaction,
  workspaceUuid: string,
  bytes: number,
): Promise<void> {
  if (bytes <= 0) return;
  await tx('workspaces').where({ uuid: workspaceUuid }).decrement('storage_used_bytes', bytes);
}
