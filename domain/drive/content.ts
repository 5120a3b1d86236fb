// Drive content operations: simple and chunked uploads of new files, content replacement, downloads, and
// settling what a client left unfinished. The API and the activities call these; docs/drive-encryption.md.
//
// Crash safety. The lifecycle workflow starts before anything is staged, so every staged upload or version
// has a workflow that expires it. The API completes and aborts inside one transaction that holds the row lock
// (item for uploads, staged version for replacements) across its S3 calls; the workflow's settle activity
// takes the same lock, so the two never interleave, and each S3 step is idempotent, so a retry finishes
// whatever a crash interrupted. Every version row in staged, live or retired status holds its plaintext bytes
// in the workspace pool; the transaction that removes or aborts the row releases them.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { config } from '../../platform/config.js';
import { db } from '../../platform/database.js';
import { logger } from '../../platform/logger.js';
import { bucket, storage } from '../../platform/storage.js';
import { notFound } from '../errors.js';
import { appendChange } from './changes.js';
import { startReplaceLifecycle, startUploadLifecycle, wakeReplaceLifecycle, wakeUploadLifecycle } from './content-lifecycle.js';
import {
  completeMultipart,
  discardStoredObject,
  faultyParts,
  isNoSuchUpload,
  listUploadedParts,
  objectSize,
  putWholeObject,
  startMultipart,
  storageKey,
  type ContentStore,
} from './content-objects.js';
import {
  CHUNK_OVERHEAD_BYTES,
  MAX_CHUNKED_FILE_BYTES,
  MiB,
  chunkLayout,
  decryptChunks,
  encryptChunks,
  generateDataKey,
  unwrapDataKey,
  wrapDataKey,
  type ChunkLayout,
} from './crypto.js';
import { invalidField, invalidFileSize, invalidParts, invalidUploadStatus, missingRequiredFields } from './errors.js';
import { checkName, findVisibleItem, isUuid, resolveDestination, type DriveCaller, type ItemRow, type VisibleItem } from './items.js';
import { releaseStorage, reserveStorage } from '../storage-pool.js';

const log = logger.child({ category: 'drive-content' });

/** The simple upload cap: 100 MiB of plaintext (104,857,600 bytes), so "100 MB" read either way fits. */
export const SIMPLE_UPLOAD_MAX_BYTES = 100 * MiB;

export interface ContentDeps extends ContentStore {
  db: Knex;
  masterKey: Buffer;
}

export const contentDeps = (): ContentDeps => ({ db: db(), storage: storage(), bucket: bucket(), masterKey: config().masterKey });

export interface VersionRow {
  uuid: string;
  file_uuid: string;
  workspace_uuid: string;
  status: 'staged' | 'live' | 'retired' | 'aborted';
  wrapped_key: Buffer;
  storage_key: string;
  storage_upload_id: string | null;
  content_type: string;
  plaintext_size_bytes: string | number;
  chunk_size_bytes: number;
  chunk_count: number;
  created_by: string | null;
  superseded_by: string | null;
  created_at: Date;
  retired_at: Date | null;
}

export const layoutOfVersion = (version: VersionRow): ChunkLayout => {
  const size = Number(version.plaintext_size_bytes);
  return {
    plaintextSizeBytes: size,
    chunkSizeBytes: version.chunk_size_bytes,
    chunkCount: version.chunk_count,
    ciphertextSizeBytes: size + version.chunk_count * CHUNK_OVERHEAD_BYTES,
  };
};

// --- Input checks ----------------------------------------------------------------------------------------

/** A declared plaintext size: an integer from 0 to 1 TiB, else 422 invalid_file_size. */
export function checkFileSize(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidFileSize('plaintext_size_bytes is an integer number of bytes, 0 or more.');
  }
  if (value > MAX_CHUNKED_FILE_BYTES) throw invalidFileSize(`A file is at most ${MAX_CHUNKED_FILE_BYTES} bytes (1 TiB).`);
  return value;
}

const MIME_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[\x20-\x7e]*)?$/;

/** A MIME type such as `image/png` (parameters allowed), at most 255 characters. */
export function checkContentType(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw missingRequiredFields(['content_type']);
  if (value.length > 255 || !MIME_TYPE.test(value)) throw invalidField('content_type', 'content_type is a MIME type such as image/png.');
  return value;
}

// --- New files -------------------------------------------------------------------------------------------

/** What the client (chunked) or the server (simple) needs to write a staged version. */
export interface StagedContent {
  fileUuid: string;
  versionUuid: string;
  storageKey: string;
  layout: ChunkLayout;
  dataKey: Buffer;
  uploadId: string | null;
}

export interface NewFileInput {
  name: unknown;
  contentType: string;
  sizeBytes: number;
  folderUuid: string | null;
  /** Chunked uploads write through an S3 multipart upload the client fills; simple ones are one PUT. */
  multipart: boolean;
}

/**
 * Stages a new file: an `uploading` item that holds its name (no change-feed entry yet), its first version
 * (uuid = file uuid) with a fresh wrapped key, and the bytes reserved in the workspace pool.
 */
export async function beginUpload(deps: ContentDeps, caller: DriveCaller, input: NewFileInput): Promise<StagedContent> {
  const name = checkName(input.name);
  const layout = chunkLayout(input.sizeBytes);
  const fileUuid = randomUUID();
  const key = storageKey(caller.workspaceUuid, fileUuid, fileUuid);
  const dataKey = generateDataKey();
  await startUploadLifecycle(caller.workspaceUuid, fileUuid);
  let uploadId: string | null = null;
  try {
    if (input.multipart) uploadId = await startMultipart(deps, key);
    await deps.db.transaction(async (tx) => {
      const { parentUuid, depth } = await resolveDestination(tx, caller, input.folderUuid);
      await tx('drive_items').insert({
        uuid: fileUuid,
        workspace_uuid: caller.workspaceUuid,
        owner_uuid: caller.userUuid,
        kind: 'file',
        parent_uuid: parentUuid,
        name,
        content_type: input.contentType,
        file_size_bytes: input.sizeBytes,
        upload_status: 'uploading',
        depth,
      });
      await insertStagedVersion(tx, deps, caller, { fileUuid, versionUuid: fileUuid, key, uploadId, dataKey, layout, contentType: input.contentType });
      await reserveStorage(tx, caller.workspaceUuid, input.sizeBytes);
    });
  } catch (error) {
    await discardStoredObject(deps, key, uploadId).catch((cleanup) => log.warn({ err: cleanup, file_uuid: fileUuid }, 'cleanup after a refused upload failed'));
    await wakeUploadLifecycle(fileUuid);
    throw error;
  }
  return { fileUuid, versionUuid: fileUuid, storageKey: key, layout, dataKey, uploadId };
}

async function insertStagedVersion(
  tx: Knex.Transaction,
  deps: ContentDeps,
  caller: DriveCaller,
  v: { fileUuid: string; versionUuid: string; key: string; uploadId: string | null; dataKey: Buffer; layout: ChunkLayout; contentType: string },
): Promise<void> {
  await tx('drive_file_versions').insert({
    uuid: v.versionUuid,
    file_uuid: v.fileUuid,
    workspace_uuid: caller.workspaceUuid,
    status: 'staged',
    wrapped_key: wrapDataKey(deps.masterKey, v.versionUuid, v.dataKey),
    storage_key: v.key,
    storage_upload_id: v.uploadId,
    content_type: v.contentType,
    plaintext_size_bytes: v.layout.plaintextSizeBytes,
    chunk_size_bytes: v.layout.chunkSizeBytes,
    chunk_count: v.layout.chunkCount,
    created_by: caller.userUuid,
  });
}

/** The simple upload: the server encrypts and stores the bytes, and the file is `completed` at once. */
export async function uploadWholeFile(
  deps: ContentDeps,
  caller: DriveCaller,
  input: { name: unknown; contentType: string; folderUuid: string | null; data: Buffer },
): Promise<string> {
  const staged = await beginUpload(deps, caller, { ...input, sizeBytes: input.data.length, multipart: false });
  try {
    const body = Readable.from(encryptChunks(staged.dataKey, staged.versionUuid, staged.layout, input.data), { objectMode: false });
    await putWholeObject(deps, staged.storageKey, body, staged.layout.ciphertextSizeBytes);
    await deps.db.transaction(async (tx) => {
      const item = await lockOwnUpload(tx, caller, staged.fileUuid);
      // Only when the lifecycle expired the upload while the bytes were being written.
      if (item?.upload_status !== 'uploading') throw new Error('the upload expired before its bytes were stored');
      await promoteUpload(tx, item, staged.versionUuid);
    });
  } catch (error) {
    await abortUpload(deps, caller, staged.fileUuid).catch((cleanup) =>
      log.warn({ err: cleanup, file_uuid: staged.fileUuid }, 'abort after a failed simple upload failed; the lifecycle will expire it'),
    );
    throw error;
  }
  await wakeUploadLifecycle(staged.fileUuid);
  return staged.fileUuid;
}

/** The caller's own file row, locked; uploads in flight belong to the person who started them. */
async function lockOwnUpload(tx: Knex.Transaction, caller: DriveCaller, fileUuid: string): Promise<ItemRow | undefined> {
  if (!isUuid(fileUuid)) return undefined;
  return tx('drive_items')
    .where({ uuid: fileUuid, workspace_uuid: caller.workspaceUuid, owner_uuid: caller.userUuid, kind: 'file' })
    .forUpdate()
    .first();
}

/** The caller's upload in flight, for part URLs: 404 if unknown, 422 invalid_upload_status if completed. */
export async function findOwnUpload(deps: ContentDeps, caller: DriveCaller, fileUuid: string): Promise<VersionRow> {
  const version = await deps.db.transaction(async (tx) => {
    const item = await lockOwnUpload(tx, caller, fileUuid);
    if (!item) throw notFound();
    if (item.upload_status !== 'uploading') throw invalidUploadStatus('The upload is already completed.');
    return stagedVersionOf(tx, item.uuid, { createdBy: caller.userUuid });
  });
  if (!version?.storage_upload_id) throw notFound();
  return version;
}

async function stagedVersionOf(
  knex: Knex,
  fileUuid: string,
  options: { createdBy?: string; forUpdate?: boolean } = {},
): Promise<VersionRow | undefined> {
  const query = knex('drive_file_versions').where({ file_uuid: fileUuid, status: 'staged' });
  if (options.createdBy) query.where({ created_by: options.createdBy });
  if (options.forUpdate) query.forUpdate();
  return query.first();
}

/**
 * Completes the caller's chunked upload: every part present with its etag and ciphertext size, the S3
 * multipart upload completed, the file `completed` and announced with a create change. Completing a
 * completed upload again answers the same (a retry after a lost response).
 */
export async function completeUpload(deps: ContentDeps, caller: DriveCaller, fileUuid: string, parts: DeclaredPart[]): Promise<void> {
  const settled = await deps.db.transaction(async (tx) => {
    const item = await lockOwnUpload(tx, caller, fileUuid);
    if (!item) throw notFound();
    if (item.upload_status !== 'uploading') return false;
    const version = await stagedVersionOf(tx, item.uuid, { createdBy: caller.userUuid });
    if (!version?.storage_upload_id) throw notFound();
    await completeStoredParts(deps, version, parts);
    await promoteUpload(tx, item, version.uuid);
    return true;
  });
  if (settled) await wakeUploadLifecycle(fileUuid);
}

async function promoteUpload(tx: Knex.Transaction, item: ItemRow, versionUuid: string): Promise<void> {
  await tx('drive_file_versions').where({ uuid: versionUuid, status: 'staged' }).update({ status: 'live' });
  const [completed] = await tx('drive_items')
    .where({ uuid: item.uuid, upload_status: 'uploading' })
    .update({ upload_status: 'completed', live_version_uuid: versionUuid, updated_at: tx.fn.now() })
    .returning('*');
  await appendChange(tx, 'create', completed);
}

export interface DeclaredPart {
  part_number: number;
  etag: string;
}

/** Checks the client's part list against what storage holds, then completes the multipart upload. */
async function completeStoredParts(deps: ContentDeps, version: VersionRow, declared: DeclaredPart[]): Promise<void> {
  const layout = layoutOfVersion(version);
  const uploadId = version.storage_upload_id!;
  let stored;
  try {
    stored = await listUploadedParts(deps, version.storage_key, uploadId);
  } catch (error) {
    if (!isNoSuchUpload(error)) throw error;
    // An earlier attempt completed the object in storage and crashed before its commit: finish the commit.
    if ((await objectSize(deps, version.storage_key)) === layout.ciphertextSizeBytes) return;
    throw notFound('The upload is no longer open.');
  }
  const faulty = faultyParts(layout, declared, stored);
  if (faulty.length) throw invalidParts(faulty);
  await completeMultipart(deps, version.storage_key, uploadId, stored.filter((part) => part.part <= layout.chunkCount));
}

/** Aborts the caller's upload in flight: staged parts discarded, the name and the reserved bytes freed. */
export async function abortUpload(deps: ContentDeps, caller: DriveCaller, fileUuid: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const item = await lockOwnUpload(tx, caller, fileUuid);
    if (!item) throw notFound();
    if (item.upload_status !== 'uploading') throw invalidUploadStatus('The upload is completed; delete the file instead.');
    await discardUploadingFile(deps, tx, item);
  });
  await wakeUploadLifecycle(fileUuid);
}

/** Storage first (idempotent), then the rows and the pool in the caller's transaction. */
async function discardUploadingFile(deps: ContentStore, tx: Knex.Transaction, item: ItemRow): Promise<void> {
  const versions: VersionRow[] = await tx('drive_file_versions').where({ file_uuid: item.uuid });
  for (const version of versions) await discardStoredObject(deps, version.storage_key, version.storage_upload_id);
  const deleted = await tx('drive_items').where({ uuid: item.uuid, upload_status: 'uploading' }).delete();
  if (!deleted) return;
  const held = versions.filter((version) => version.status !== 'aborted').reduce((sum, v) => sum + Number(v.plaintext_size_bytes), 0);
  await releaseStorage(tx, item.workspace_uuid, held);
}

export type UploadState = 'uploading' | 'completed' | 'aborted' | 'expired';

/**
 * The lifecycle's look at an upload: still uploading (and expired → aborted now), completed, or gone. A gone
 * upload may have left a multipart upload behind (a crash before its row committed), so storage is swept.
 */
export async function settleUpload(
  deps: ContentStore & { db: Knex },
  ids: { workspaceUuid: string; fileUuid: string },
  expired: boolean,
): Promise<UploadState> {
  return deps.db.transaction(async (tx) => {
    const item: ItemRow | undefined = await tx('drive_items').where({ uuid: ids.fileUuid }).forUpdate().first();
    if (!item) {
      await discardStoredObject(deps, storageKey(ids.workspaceUuid, ids.fileUuid, ids.fileUuid), null);
      return 'aborted';
    }
    if (item.upload_status !== 'uploading') return 'completed';
    if (!expired) return 'uploading';
    await discardUploadingFile(deps, tx, item);
    return 'expired';
  });
}

// --- Replacement -----------------------------------------------------------------------------------------

/** A live, completed file the caller may edit, with no replacement in flight; 422 invalid_upload_status otherwise. */
async function replaceableFile(knex: Knex, caller: DriveCaller, fileUuid: string, forUpdate = false): Promise<VisibleItem> {
  const item = await findVisibleItem(knex, caller, fileUuid, { kind: 'file', needs: 'editor', includeUploading: true, forUpdate });
  if (item.upload_status !== 'completed') throw invalidUploadStatus('The file is still uploading.');
  if (await stagedVersionOf(knex, item.uuid)) throw invalidUploadStatus('A replacement is already in flight for this file.');
  return item;
}

/** Stages a replacement version of a file; the current version stays live until the replacement completes. */
export async function beginReplace(
  deps: ContentDeps,
  caller: DriveCaller,
  fileUuid: string,
  input: { sizeBytes: number; contentType?: string },
): Promise<StagedContent> {
  // Refusals (unknown file, role, one in flight) are answered before a workflow or multipart upload exists.
  const item = await replaceableFile(deps.db, caller, fileUuid);
  const versionUuid = randomUUID();
  const layout = chunkLayout(input.sizeBytes);
  const dataKey = generateDataKey();
  const key = storageKey(caller.workspaceUuid, item.uuid, versionUuid);
  await startReplaceLifecycle(caller.workspaceUuid, item.uuid, versionUuid);
  let uploadId: string | null = null;
  try {
    uploadId = await startMultipart(deps, key);
    await deps.db.transaction(async (tx) => {
      const locked = await replaceableFile(tx, caller, item.uuid, true);
      const contentType = input.contentType ?? locked.content_type ?? 'application/octet-stream';
      await insertStagedVersion(tx, deps, caller, { fileUuid: item.uuid, versionUuid, key, uploadId, dataKey, layout, contentType });
      await reserveStorage(tx, caller.workspaceUuid, input.sizeBytes);
    });
  } catch (error) {
    await discardStoredObject(deps, key, uploadId).catch((cleanup) => log.warn({ err: cleanup, version_uuid: versionUuid }, 'cleanup after a refused replacement failed'));
    await wakeReplaceLifecycle(versionUuid);
    throw error;
  }
  return { fileUuid: item.uuid, versionUuid, storageKey: key, layout, dataKey, uploadId };
}

/** The caller's replacement in flight on a file they may still edit; 404 when there is none. */
async function ownReplacement(tx: Knex.Transaction, caller: DriveCaller, fileUuid: string): Promise<{ item: VisibleItem; version: VersionRow }> {
  const item = await findVisibleItem(tx, caller, fileUuid, { kind: 'file', needs: 'editor', forUpdate: true });
  const version = await stagedVersionOf(tx, item.uuid, { createdBy: caller.userUuid, forUpdate: true });
  if (!version?.storage_upload_id) throw notFound('No replacement of yours is in flight for this file.');
  return { item, version };
}

export async function findOwnReplacement(deps: ContentDeps, caller: DriveCaller, fileUuid: string): Promise<VersionRow> {
  return deps.db.transaction(async (tx) => (await ownReplacement(tx, caller, fileUuid)).version);
}

/**
 * Promotes the caller's replacement atomically: the old live version retired (kept for the retention
 * period), the new one live, ctag and version +1, size and type updated, and an update change.
 */
export async function completeReplace(deps: ContentDeps, caller: DriveCaller, fileUuid: string, parts: DeclaredPart[]): Promise<void> {
  const versionUuid = await deps.db.transaction(async (tx) => {
    const { item, version } = await ownReplacement(tx, caller, fileUuid);
    await completeStoredParts(deps, version, parts);
    await tx('drive_file_versions')
      .where({ file_uuid: item.uuid, status: 'live' })
      .update({ status: 'retired', retired_at: tx.fn.now(), superseded_by: version.uuid });
    await tx('drive_file_versions').where({ uuid: version.uuid, status: 'staged' }).update({ status: 'live' });
    const [updated] = await tx('drive_items')
      .where({ uuid: item.uuid })
      .update({
        live_version_uuid: version.uuid,
        ctag: tx.raw('ctag + 1'),
        version: tx.raw('version + 1'),
        file_size_bytes: version.plaintext_size_bytes,
        content_type: version.content_type,
        updated_at: tx.fn.now(),
      })
      .returning('*');
    await appendChange(tx, 'update', updated);
    return version.uuid;
  });
  await wakeReplaceLifecycle(versionUuid);
}

/** Discards the caller's replacement in flight; the file keeps its current content. */
export async function abortReplace(deps: ContentDeps, caller: DriveCaller, fileUuid: string): Promise<void> {
  const versionUuid = await deps.db.transaction(async (tx) => {
    const { version } = await ownReplacement(tx, caller, fileUuid);
    await discardStagedVersion(deps, tx, version);
    return version.uuid;
  });
  await wakeReplaceLifecycle(versionUuid);
}

async function discardStagedVersion(deps: ContentStore, tx: Knex.Transaction, version: VersionRow): Promise<void> {
  await discardStoredObject(deps, version.storage_key, version.storage_upload_id);
  const aborted = await tx('drive_file_versions').where({ uuid: version.uuid, status: 'staged' }).update({ status: 'aborted' });
  if (aborted) await releaseStorage(tx, version.workspace_uuid, Number(version.plaintext_size_bytes));
}

export type ReplaceState = { state: 'staged' | 'aborted' | 'expired' } | { state: 'completed'; retiredAt: string | null };

/** The lifecycle's look at a replacement: still staged (and expired → aborted now), aborted, or completed. */
export async function settleReplace(
  deps: ContentStore & { db: Knex },
  ids: { workspaceUuid: string; fileUuid: string; versionUuid: string },
  expired: boolean,
): Promise<ReplaceState> {
  return deps.db.transaction(async (tx) => {
    const version: VersionRow | undefined = await tx('drive_file_versions').where({ uuid: ids.versionUuid }).forUpdate().first();
    if (!version) {
      await discardStoredObject(deps, storageKey(ids.workspaceUuid, ids.fileUuid, ids.versionUuid), null);
      return { state: 'aborted' };
    }
    if (version.status === 'aborted') return { state: 'aborted' };
    if (version.status === 'staged') {
      if (!expired) return { state: 'staged' };
      await discardStagedVersion(deps, tx, version);
      return { state: 'expired' };
    }
    const retired = await tx('drive_file_versions').where({ superseded_by: version.uuid }).max('retired_at as at').first();
    const at = retired?.at as Date | string | null | undefined;
    return { state: 'completed', retiredAt: at ? new Date(at).toISOString() : null };
  });
}

/** Purges the versions a replacement retired: object first, then the row and its pool bytes. Idempotent. */
export async function purgeSupersededVersions(deps: ContentStore & { db: Knex }, versionUuid: string): Promise<number> {
  const retired: VersionRow[] = await deps.db('drive_file_versions').where({ superseded_by: versionUuid, status: 'retired' });
  let purged = 0;
  for (const version of retired) {
    await discardStoredObject(deps, version.storage_key, null);
    await deps.db.transaction(async (tx) => {
      const deleted = await tx('drive_file_versions').where({ uuid: version.uuid, status: 'retired' }).delete();
      if (!deleted) return;
      await releaseStorage(tx, version.workspace_uuid, Number(version.plaintext_size_bytes));
      purged++;
    });
  }
  return purged;
}

// --- Downloads -------------------------------------------------------------------------------------------

export interface LiveContent {
  item: VisibleItem;
  version: VersionRow;
  layout: ChunkLayout;
  dataKey: Buffer;
}

/** The live version of a completed file the caller can see, with its unwrapped key. */
export async function openLiveContent(deps: ContentDeps, caller: DriveCaller, fileUuid: string): Promise<LiveContent> {
  const item = await findVisibleItem(deps.db, caller, fileUuid, { kind: 'file' });
  const version: VersionRow | undefined = item.live_version_uuid
    ? await deps.db('drive_file_versions').where({ uuid: item.live_version_uuid }).first()
    : undefined;
  if (!version) throw new Error(`file ${item.uuid} has no live version row`);
  return { item, version, layout: layoutOfVersion(version), dataKey: unwrapDataKey(deps.masterKey, version.uuid, version.wrapped_key) };
}

/** The plaintext of a live version, chunk by chunk, each authenticated before it is yielded. */
export async function readPlaintext(deps: ContentDeps, content: LiveContent): Promise<AsyncGenerator<Buffer>> {
  const ciphertext = await deps.storage.getObject(deps.bucket, content.version.storage_key);
  return decryptChunks(ciphertext, content.dataKey, content.version.uuid, content.layout);
}
