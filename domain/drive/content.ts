// Drive content operations: simple and chunked uploads of new files, content replacement, downloads, and
// settling what a client left unfinished. The API and the activities call these; docs/drive-encryption.md.
//
// Crash safety. A chunked upload's or replacement's lifecycle workflow starts before anything is staged (and outside
// any transaction), so every staged upload or version, and every object written for one, has a workflow that expires
// it. A simple upload runs within its request and has none: its staged row and the sweep cover it (staged-uploads.ts). The API completes
// and aborts inside the request's one transaction, which holds the row lock (item for uploads, staged version
// for replacements) across its S3 calls; the workflow's settle activity takes the same lock, so the two never
// interleave, and each S3 step is idempotent, so a retry finishes whatever a crash interrupted. Every version row
// in staged, live or retired status holds its plaintext bytes in the workspace pool; the transaction that
// removes or aborts the row releases them. Wakes of a lifecycle go out after the commit (domain/unit-of-work.ts).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';
import { fileTooLarge, notFound } from '../errors.js';
import { checkStorageRoom, poolFull, releaseStorage, reserveStorage } from '../storage-pool.js';
import {
  STATEMENT_REFUSED,
  type LifecycleStarter,
  type RunInTransaction,
  type RunOneStatement,
  type UnitOfWork,
} from '../unit-of-work.js';
import { isUuid } from '../uuid.js';
import { appendChange } from './change-log.js';
import {
  DOWNLOAD_URL_TTL_SECONDS,
  faultyParts,
  presignPartUrls,
  storageKey,
  type ObjectStore,
  type StoredContent,
} from './content-objects.js';
import { ContentHasher } from './content-hash.js';
import {
  ContentIntegrityError,
  chunkLayout,
  chunkPlaintextSize,
  decryptChunks,
  encryptChunks,
  generateDataKey,
  unwrapDataKey,
  wrapDataKey,
  type ChunkLayout,
  type MasterKey,
} from './crypto.js';
import {
  contentHashMismatch,
  invalidField,
  invalidParts,
  invalidUploadStatus,
  missingRequiredFields,
  nameTaken,
} from './errors.js';
import {
  chainEpochs,
  checkName,
  DESTINATION_FOLDER,
  findVisibleItem,
  isNameTaken,
  resolveDestination,
} from './items.js';
import type { ItemGuard, ItemRow, VersionRow, VisibleItem } from './rows.js';
import { markPublicLinkReady } from './sharing.js';
import { dropStagedUpload, recordStagedUpload } from './staged-uploads.js';
import { discardVersionThumbnails, isPreviewable, requestThumbnail } from './thumbnails.js';
import { layoutOfVersion, poolBytesHeld } from './versions.js';
import { AppError } from '../errors.js';
import {
  CHUNK_OVERHEAD_BYTES,
  DEFAULT_CHUNK_SIZE_BYTES,
  decryptChunk,
  sealChunk,
  sealChunkInto,
} from './crypto.js';

/** The simple upload cap: the spec's 100 MB of plaintext, in decimal units as the spec writes them: 100,000,000 bytes. */
export const SIMPLE_UPLOAD_MAX_BYTES = 100_000_000;

export const simpleUploadTooLarge = () =>
  fileTooLarge(SIMPLE_UPLOAD_MAX_BYTES, 'The simple upload cap was exceeded; use the chunked upload.');

/** What the API hands the content operations (api/services.ts `content`). */
export interface ContentDeps extends StoredContent {
  masterKey: Buffer;
  lifecycles: LifecycleStarter;
  /** The one transaction of an initiate, opened once its object storage work is done. */
  runInTransaction: RunInTransaction;
  /** A simple upload's commit, one statement once its bytes are stored (commitWholeFile). */
  runOneStatement: RunOneStatement;
  /** The advisory lock this process holds while it lives: a simple upload's staged row names it (staged-uploads.ts). */
  uploadOwnerLock: () => Promise<string>;
  /** Where a failed cleanup is told; the lifecycle finishes what it left. */
  log: { warn(fields: object, message: string): void };
}

// --- Input checks ----------------------------------------------------------------------------------------

const MIME_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[\x20-\x7e]*)?$/;

/** A MIME type such as `image/png` (parameters allowed), at most 255 characters. */
function checkContentType(value: string): string {
  if (value.trim() === '') throw missingRequiredFields(['content_type']);
  if (value.length > 255 || !MIME_TYPE.test(value))
    throw invalidField('content_type', 'content_type is a MIME type such as image/png.');
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
  name: string;
  contentType: string;
  sizeBytes: number;
  folderUuid: string | null;
}

/**
 * The refusals a new file can get, answered before a lifecycle or any bytes exist: its name, its destination,
 * a live sibling holding the name, the pool. The transaction that writes the rows meets each again under its
 * locks (the unique indexes, the conditional pool update), so a race only moves the refusal there.
 */
async function checkNewFile(knex: Knex, caller: Caller, input: NewFileInput): Promise<NewFileInput> {
  const file = await checkNewFilePlace(knex, caller, input);
  await checkStorageRoom(knex, caller.workspaceUuid, input.sizeBytes);
  return file;
}

/** checkNewFile's refusals but the pool's, which a simple upload meets as it records its staged row. */
async function checkNewFilePlace(knex: Knex, caller: Caller, input: NewFileInput): Promise<NewFileInput> {
  const { file, parentUuid } = await checkNewFileDestination(knex, caller, input);
  if (await isNameTaken(knex, parentUuid ? { folderUuid: parentUuid } : { rootOf: caller }, file.name))
    throw nameTaken();
  return file;
}

/**
 * checkNewFilePlace's refusals but a taken name: the name's form and the destination. A simple upload whose bytes are
 * in hand leaves the taken name to the live-name unique index at its insert (wholeFileCommit; the bytes stored
 * meanwhile are dropped with its staged row), as a folder create does: one statement fewer on the hot path, and no
 * lookup whose plan the table's statistics decide (a benchmark's trace caught the check reading an owner's whole root
 * through the (workspace, owner, parent) index on a table never analysed; docs/benchmarks.md § session 15).
 */
async function checkNewFileDestination(
  knex: Knex,
  caller: Caller,
  input: NewFileInput,
): Promise<{ file: NewFileInput; parentUuid: string | null }> {
  const name = checkName(input.name);
  const { parentUuid } = await resolveDestination(knex, caller, input.folderUuid);
  return { file: { ...input, name }, parentUuid };
}

/** A new file's first version: its uuid is the file's, with a fresh data key. */
function stageNewFile(caller: Caller, sizeBytes: number): Omit<StagedContent, 'uploadId'> {
  const fileUuid = randomUUID();
  return {
    fileUuid,
    versionUuid: fileUuid,
    storageKey: storageKey(caller.workspaceUuid, fileUuid, fileUuid),
    layout: chunkLayout(sizeBytes),
    dataKey: generateDataKey(),
  };
}

/**
 * The rows of a chunked upload's new file in one transaction: the `uploading` item (it holds its name and is announced
 * when it completes), its staged first version, and its bytes reserved in the pool. A simple upload's rows are
 * wholeFileCommit's.
 */
async function insertUploadingFile(
  tx: Knex.Transaction,
  masterKey: Buffer,
  caller: Caller,
  file: NewFileInput,
  staged: StagedContent,
): Promise<void> {
  const { parentUuid, depth } = await resolveDestination(tx, caller, file.folderUuid);
  await tx('drive_items').insert({
    uuid: staged.fileUuid,
    workspace_uuid: caller.workspaceUuid,
    owner_uuid: caller.userUuid,
    kind: 'file',
    parent_uuid: parentUuid,
    name: file.name,
    content_type: file.contentType,
    file_size_bytes: file.sizeBytes,
    upload_status: 'uploading',
    live_version_uuid: null,
    depth,
    // Its version starts at 1 whatever the folders above it went through (docs/drive-trash.md § Versions).
    epoch_base: await chainEpochs(tx, parentUuid),
  });
  await insertVersion(tx, masterKey, caller, staged, file.contentType, 'staged');
  await reserveStorage(tx, caller.workspaceUuid, file.sizeBytes);
}

async function insertVersion(
  tx: Knex.Transaction,
  masterKey: Buffer,
  caller: Caller,
  staged: StagedContent,
  contentType: string,
  status: 'staged' | 'live',
  contentHash: string | null = null,
): Promise<void> {
  await tx('drive_file_versions').insert({
    uuid: staged.versionUuid,
    file_uuid: staged.fileUuid,
    workspace_uuid: caller.workspaceUuid,
    status,
    wrapped_key: wrapDataKey(masterKey, staged.versionUuid, staged.dataKey),
    storage_key: staged.storageKey,
    storage_upload_id: staged.uploadId,
    content_type: contentType,
    plaintext_size_bytes: staged.layout.plaintextSizeBytes,
    chunk_size_bytes: staged.layout.chunkSizeBytes,
    chunk_count: staged.layout.chunkCount,
    content_hash: contentHash,
    created_by: caller.userUuid,
  });
}

/**
 * After a refusal or a failure past the lifecycle's start: storage discarded (what the workflow would do at
 * expiry), then the lifecycle woken so it finds nothing and ends now.
 */
async function giveUp(
  deps: ContentDeps,
  wake: (unit: UnitOfWork) => void,
  key: string,
  uploadId: string | null,
  ids: object,
): Promise<void> {
  await deps.objects
    .discard(key, uploadId)
    .catch((error) => deps.log.warn({ err: error, ...ids }, 'cleanup after a refused upload failed'));
  await deps.runInTransaction(async (unit) => wake(unit));
}

/**
 * Stages a chunked upload of a new file: an `uploading` item that holds its name (no change-feed entry yet),
 * its first version (uuid = file uuid) with a fresh wrapped key and an S3 multipart upload the client fills,
 * and the bytes reserved in the workspace pool.
 */
export async function beginUpload(
  deps: ContentDeps,
  caller: Caller,
  input: NewFileInput,
): Promise<StagedContent> {
  const contentType = checkContentType(input.contentType);
  const file = await checkNewFile(deps.db, caller, { ...input, contentType });
  const staged = stageNewFile(caller, file.sizeBytes);
  await deps.lifecycles.startUploadLifecycle({
    workspaceUuid: caller.workspaceUuid,
    fileUuid: staged.fileUuid,
  });
  let uploadId: string | null = null;
  try {
    uploadId = await deps.objects.startMultipart(staged.storageKey);
    await deps.runInTransaction(({ tx }) =>
      insertUploadingFile(tx, deps.masterKey, caller, file, { ...staged, uploadId }),
    );
  } catch (error) {
    await giveUp(
      deps,
      (unit) => unit.workflows.wakeUploadLifecycle(staged.fileUuid),
      staged.storageKey,
      uploadId,
      { file_uuid: staged.fileUuid },
    );
    throw error;
  }
  return { ...staged, uploadId };
}

/**
 * The simple upload: the server encrypts and stores the bytes, then writes the file `completed` in one
 * transaction, announced with a create change. No workflow: a staged row, committed before the first byte is
 * stored and claimed by that transaction, is what a sweep finds if the process dies in between (staged-uploads.ts).
 */
export async function uploadWholeFile(
  deps: ContentDeps,
  caller: Caller,
  input: { name: string; contentType: string; folderUuid: string | null; data: Buffer },
): Promise<VisibleItem> {
  const contentType = checkContentType(input.contentType);
  if (input.data.length > SIMPLE_UPLOAD_MAX_BYTES) throw simpleUploadTooLarge();
  const { file } = await checkNewFileDestination(deps.db, caller, {
    name: input.name,
    contentType,
    sizeBytes: input.data.length,
    folderUuid: input.folderUuid,
  });
  const staged = { ...stageNewFile(caller, file.sizeBytes), uploadId: null };
  await recordStagedUpload(deps.db, {
    storageKey: staged.storageKey,
    workspaceUuid: caller.workspaceUuid,
    fileUuid: staged.fileUuid,
    ownerLock: await deps.uploadOwnerLock(),
    sizeBytes: file.sizeBytes,
  });
  try {
    // The server sees this plaintext, so it hashes each chunk as it encrypts it (between the stream's reads). One
    // chunk, most uploads, is sealed at once and written as it is.
    const hasher = new ContentHasher();
    const chunks = hashingWhileEncrypting(staged, input.data, hasher);
    const body = staged.layout.chunkCount === 1 ? [...chunks] : Readable.from(chunks, { objectMode: false });
    await deps.objects.putStream(staged.storageKey, body, staged.layout.ciphertextSizeBytes);
    const contentHash = hasher.digest();
    return await commitWholeFile(deps, caller, file, staged, contentHash);
  } catch (error) {
    await dropStagedUpload(deps, staged.storageKey).catch((cleanup) =>
      deps.log.warn(
        { err: cleanup, file_uuid: staged.fileUuid },
        'cleanup after a refused upload failed; the staged-upload sweep will finish it',
      ),
    );
    throw error;
  }
}

/** A streamed simple upload's fields, read from its body (their types checked by the route). */
export interface WholeFileFields {
  name: string;
  contentType: string;
  folderUuid: string | null;
}

/**
 * A large simple upload stored as its body arrives (docs/drive-encryption.md § 5, the streamed path): each 8 MiB of
 * plaintext is sealed as it fills, under the chunk count its declared Content-Length lets the route expect, and sent as
 * one part of a multipart upload while the next fills. The refusals that need no bytes run when `data` begins if the
 * fields came first (checkEarly, a taken name included), and again at the end (finish), in the buffered path's order
 * (a taken name then refused by the commit's unique index, as there); a refused upload stores nothing more, and its
 * bytes are dropped with its staged row. When the body holds another count of chunks than
 * expected, what was sealed under the wrong count is read back and sealed again. The file is committed by the same
 * transaction as uploadWholeFile's (commitWholeFile).
 */
export class StreamedWholeFile {
  private readonly staged: Omit<StagedContent, 'layout' | 'uploadId'>;
  /** The count the chunks are sealed under, settled when the first is (speculatedCount). */
  private speculated: number | undefined;
  private readonly hasher = new ContentHasher();
  private sealed = 0;
  private parts: { part: number; etag: string }[] = [];
  private readonly sending = new Set<Promise<void>>();
  /**
   * Frames whose parts are stored, sealed into again: one buffer per part in flight for the whole upload, instead of a
   * new chunk-sized one per chunk that only a full garbage collection frees (docs/benchmarks.md § Simple upload memory).
   */
  private readonly spareFrames: Buffer[] = [];
  private uploadId: Promise<string> | undefined;
  private checking: Promise<void> | undefined;
  private recorded = false;
  private committed = false;
  /** Why nothing more is stored: an early refusal, the pool, the cap. Answered at the end, in its turn. */
  private refusal: unknown;
  /** A storage or database failure while sending; answered at the end. */
  private failure: unknown;

  /**
   * `expectedBytes`: the plaintext size the body is expected to hold, asked once, when the first chunk is sealed (the
   * route's estimate from the declared Content-Length). A wrong one costs a reseal, never the bytes.
   */
  constructor(
    private readonly deps: ContentDeps,
    private readonly caller: Caller,
    private readonly expectedBytes: () => number,
  ) {
    this.staged = stageNewFile(caller, 0);
  }

  /** Plaintext bytes per chunk: a simple upload is under 10,000 chunks of 8 MiB. */
  static readonly chunkBytes = DEFAULT_CHUNK_SIZE_BYTES;

  /**
   * The refusals the fields read before `data` already decide: the content type and the name's format, and, when the
   * folder was sent before `data` too, the folder and a live sibling holding the name. A refused upload stores nothing.
   */
  checkEarly(fields: Partial<WholeFileFields>, folderKnown: boolean): Promise<void> {
    const { name, contentType } = fields;
    if (name === undefined || contentType === undefined) return Promise.resolve();
    this.checking = (async () => {
      try {
        checkContentType(contentType);
        checkName(name);
        if (folderKnown)
          await checkNewFilePlace(this.deps.db, this.caller, {
            name,
            contentType,
            sizeBytes: 0,
            folderUuid: fields.folderUuid ?? null,
          });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        this.refusal ??= error;
      }
    })();
    return this.checking;
  }

  /** A whole chunk of plaintext (the decoder's window, reused once this returns): sealed now, sent in the background. */
  take(plaintext: Buffer): void {
    if (this.refusal !== undefined || this.failure !== undefined) return;
    if ((this.sealed + 1) * StreamedWholeFile.chunkBytes > SIMPLE_UPLOAD_MAX_BYTES) {
      this.refusal = simpleUploadTooLarge();
      return;
    }
    this.hasher.update(plaintext);
    const index = this.sealed++;
    const frame = sealChunkInto(
      this.spareFrames.pop() ?? Buffer.allocUnsafeSlow(StreamedWholeFile.chunkBytes + CHUNK_OVERHEAD_BYTES),
      this.staged.dataKey,
      this.staged.versionUuid,
      index,
      this.speculatedCount(),
      plaintext,
    );
    this.send(index + 1, [frame], frame);
  }

  /**
   * Whether the reader waits (drained) before it reads on: when a part is in flight and the next piece may fill the
   * decoder's window (`chunkNear`), or when two are. So the next chunk fills while a part is stored and is sealed into
   * the frame that part frees: one frame serves the whole upload (docs/benchmarks.md § Simple upload memory).
   */
  busy(chunkNear: boolean): boolean {
    return this.sending.size >= (chunkNear ? 1 : 2);
  }

  /** Resolves when the reader may read on (busy): the body is read no faster than storage takes it. */
  async drained(chunkNear: boolean): Promise<void> {
    while (this.busy(chunkNear)) await Promise.race(this.sending);
  }

  /**
   * The body has ended with `rest`, the plaintext after the last whole chunk, of `plaintextBytes` in all: the checks in
   * the buffered path's order, the last chunk, and the commit.
   */
  async finish(fields: WholeFileFields, rest: Buffer, plaintextBytes: number): Promise<VisibleItem> {
    await this.settle();
    const contentType = checkContentType(fields.contentType);
    if (plaintextBytes > SIMPLE_UPLOAD_MAX_BYTES) throw simpleUploadTooLarge();
    const { file } = await checkNewFileDestination(this.deps.db, this.caller, {
      name: fields.name,
      contentType,
      sizeBytes: plaintextBytes,
      folderUuid: fields.folderUuid,
    });
    if (this.refusal !== undefined) throw this.refusal;
    if (this.failure !== undefined) throw this.failure;
    const layout = chunkLayout(plaintextBytes);
    if (this.sealed > 0 && layout.chunkCount !== this.speculatedCount()) await this.reseal(layout.chunkCount);
    if (this.sealed < layout.chunkCount) {
      this.hasher.update(rest);
      // Every part is stored by now (settle), so a frame is spare unless this is the first chunk.
      const spare = this.spareFrames.pop();
      const { dataKey, versionUuid } = this.staged;
      const frame = spare
        ? [sealChunkInto(spare, dataKey, versionUuid, this.sealed, layout.chunkCount, rest)]
        : sealChunk(dataKey, versionUuid, this.sealed, layout.chunkCount, rest);
      if (this.uploadId === undefined) {
        // One chunk: one PUT, as the buffered path writes it.
        await this.record(plaintextBytes);
        const size = frame.reduce((total, piece) => total + piece.length, 0);
        await this.deps.objects.putStream(this.staged.storageKey, frame, size);
      } else {
        this.send(++this.sealed, frame);
      }
    }
    if (this.uploadId !== undefined) {
      await this.settle();
      if (this.failure !== undefined) throw this.failure;
      await this.deps.objects.completeMultipart(this.staged.storageKey, await this.uploadId, this.parts);
    }
    const created = await commitWholeFile(
      this.deps,
      this.caller,
      file,
      { ...this.staged, layout, uploadId: null },
      this.hasher.digest(),
    );
    this.committed = true;
    return created;
  }

  /** Whatever was stored is dropped with the staged row, unless the file was committed. Safe to call twice. */
  async abandon(): Promise<void> {
    this.refusal ??= new Error('abandoned');
    await this.settle();
    if (this.committed || !this.recorded) return;
    this.recorded = false;
    await dropStagedUpload(this.deps, this.staged.storageKey).catch((cleanup) =>
      this.deps.log.warn(
        { err: cleanup, file_uuid: this.staged.fileUuid },
        'cleanup after a refused upload failed; the staged-upload sweep will finish it',
      ),
    );
  }

  private speculatedCount(): number {
    this.speculated ??= chunkLayout(
      Math.max(0, Math.min(Math.floor(this.expectedBytes()), SIMPLE_UPLOAD_MAX_BYTES)),
    ).chunkCount;
    return this.speculated;
  }

  /** `reusable`: the frame's buffer, sealed into again once storage has taken the part (never after a failure). */
  private send(part: number, frame: Buffer[], reusable?: Buffer): void {
    this.uploadId ??= this.startParts();
    const sent = this.uploadId
      .then((uploadId) => this.deps.objects.putPart(this.staged.storageKey, uploadId, part, frame))
      .then((etag) => {
        this.parts.push({ part, etag });
        if (reusable) this.spareFrames.push(reusable);
      })
      .catch((error) => {
        if (this.refusal === undefined) this.failure ??= error;
      })
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  /** The staged row (its pool check counts the first chunk, the least the file holds), then the multipart upload. */
  private async startParts(): Promise<string> {
    await this.checking;
    if (this.refusal !== undefined) throw this.refusal;
    try {
      await this.record(StreamedWholeFile.chunkBytes);
    } catch (error) {
      if (error instanceof AppError) this.refusal ??= error;
      throw error;
    }
    return this.deps.objects.startMultipart(this.staged.storageKey);
  }

  private async record(sizeBytes: number): Promise<void> {
    await recordStagedUpload(this.deps.db, {
      storageKey: this.staged.storageKey,
      workspaceUuid: this.caller.workspaceUuid,
      fileUuid: this.staged.fileUuid,
      ownerLock: await this.deps.uploadOwnerLock(),
      sizeBytes,
    });
    this.recorded = true;
  }

  private async settle(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled([...this.sending]);
    if (this.uploadId) await this.uploadId.catch(() => undefined);
  }

  /**
   * The body held another count of chunks than expected (members after `data`, whitespace, escapes), so the chunks sent
   * name a wrong count in their AAD: they are assembled as they are, read back one by one, opened and sealed again
   * under `count` into a new multipart upload of the same key. Rare, and slower: correctness first.
   */
  private async reseal(count: number): Promise<void> {
    const key = this.staged.storageKey;
    await this.deps.objects.completeMultipart(key, await this.uploadId!, this.parts);
    const { dataKey, versionUuid } = this.staged;
    const frameBytes = StreamedWholeFile.chunkBytes + CHUNK_OVERHEAD_BYTES;
    const uploadId = await this.deps.objects.startMultipart(key);
    const parts: { part: number; etag: string }[] = [];
    for (let index = 0; index < this.sealed; index++) {
      const stored = await this.deps.objects.getRange(key, index * frameBytes, frameBytes);
      const plaintext = decryptChunk(dataKey, versionUuid, index, this.speculatedCount(), stored);
      const frame = sealChunk(dataKey, versionUuid, index, count, plaintext);
      parts.push({ part: index + 1, etag: await this.deps.objects.putPart(key, uploadId, index + 1, frame) });
    }
    this.uploadId = Promise.resolve(uploadId);
    this.parts = parts;
  }
}

/**
 * A simple upload whose bytes are stored, committed in one statement (wholeFileCommit). Its refusals at the commit: a
 * taken name (the live-name unique index, mapped by the API), the pool full, or a destination the caller may no longer
 * create in, answered as resolveDestination answers it now.
 */
async function commitWholeFile(
  deps: ContentDeps,
  caller: Caller,
  file: NewFileInput,
  staged: StagedContent,
  contentHash: string,
): Promise<VisibleItem> {
  const inFolder = file.folderUuid !== null;
  try {
    const created = await deps.runOneStatement<VisibleItem>({
      name: inFolder ? 'commit_whole_file_in_folder' : 'commit_whole_file_at_root',
      sql: (parts) => wholeFileCommit(inFolder, parts),
      bindings: {
        storage_key: staged.storageKey,
        file: staged.fileUuid,
        version: staged.versionUuid,
        workspace: caller.workspaceUuid,
        user: caller.userUuid,
        ...(inFolder && { folder: file.folderUuid }),
        name: file.name,
        content_type: file.contentType,
        size: file.sizeBytes,
        content_hash: contentHash,
        wrapped_key: wrapDataKey(deps.masterKey, staged.versionUuid, staged.dataKey),
        plaintext_size: staged.layout.plaintextSizeBytes,
        chunk_size: staged.layout.chunkSizeBytes,
        chunk_count: staged.layout.chunkCount,
      },
      workflows: (requests) => {
        if (isPreviewable({ kind: 'file', content_type: file.contentType, name: file.name }))
          void requests.startThumbnail({
            workspaceUuid: caller.workspaceUuid,
            fileUuid: staged.fileUuid,
            versionUuid: staged.versionUuid,
          });
      },
    });
    if (!created) throw new Error('the staged upload was swept before its commit');
    return created;
  } catch (error) {
    const { code, detail } = error as { code?: string; detail?: string };
    if (code !== STATEMENT_REFUSED) throw error;
    if (detail === 'storage_limit_exceeded') throw await poolFull(deps.db, caller.workspaceUuid);
    await resolveDestination(deps.db, caller, file.folderUuid);
    throw notFound('The destination folder changed while the file was stored.');
  }
}

/**
 * A simple upload's commit, one statement committed as it ends (RunOneStatement), in this order: its staged row claimed
 * (gone only when this request outlived every limit and a sweep discarded its bytes: then nothing is written); in a
 * folder, the destination checked again under FOR SHARE (DESTINATION_FOLDER: a trash cascade batch updating it waits
 * for us, or we see it trashed); the file (`completed`) and its live version; the thumbnail asked for; then its bytes
 * reserved in the pool (the conditional update holds the workspace row), the change-log lock, and the create change,
 * each reading the one before it, and the commit. The folder's effective `trashed` and epochs are read under the lock
 * by drive_lock_change_log_under (db/migrations/028), which sees what the statement's snapshot, taken before the wait,
 * does not: an ancestor trashed, restored or moved by a writer that committed meanwhile. So the answer's `trashed` and
 * version agree with the change log's order. A new file is its owner's (role owner) and has no grants or links.
 */
function wholeFileCommit(
  inFolder: boolean,
  { commitMode, recordWorkflows }: { commitMode: string; recordWorkflows(anchor: string): string },
): string {
  return `with ${commitMode},
    ${inFolder ? DESTINATION_FOLDER : 'destination as (select null::uuid as uuid, 0 as depth, true as ok)'},
    claimed as (
      delete from drive_staged_uploads where storage_key = :storage_key returning storage_key
    ), item as (
      insert into drive_items (uuid, workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type,
        file_size_bytes, upload_status, live_version_uuid, content_hash, depth, epoch_base)
      select :file::uuid, :workspace::uuid, :user::uuid, 'file', destination.uuid, :name::text, :content_type::text,
        :size::bigint, 'completed', :version::uuid, :content_hash::text, destination.depth,
        ${inFolder ? 'coalesce(drive_chain_epochs(destination.uuid), 0)' : '0 /* no folder above: no epochs */'}
      from claimed left join destination on true
      where folio_refuse_unless(destination.ok, 'destination_refused')
      returning *
    ), version as (
      insert into drive_file_versions (uuid, file_uuid, workspace_uuid, status, wrapped_key, storage_key,
        content_type, plaintext_size_bytes, chunk_size_bytes, chunk_count, content_hash, created_by)
      select :version::uuid, item.uuid, item.workspace_uuid, 'live', :wrapped_key::bytea, claimed.storage_key,
        item.content_type, :plaintext_size::bigint, :chunk_size::integer, :chunk_count::integer, item.content_hash,
        item.owner_uuid
      from item, claimed
    ), ${recordWorkflows('item')},
    pool as (
      update workspaces set storage_used_bytes = storage_used_bytes + :size::bigint
      where uuid = :workspace::uuid and exists (select 1 from item)
        and (:size::bigint = 0 or storage_used_bytes + :size::bigint <= storage_limit_bytes)
      returning uuid
    ), chain as materialized (
      select l.trashed, l.epochs
      from pool cross join lateral drive_lock_change_log_under(pool.uuid, (select parent_uuid from item)) as l
    ), change as (
      insert into drive_changes (workspace_uuid, item_uuid, resource_type, change_type, item_version,
        parent_uuid, owner_uuid)
      select item.workspace_uuid, item.uuid, 'file', 'create', item.version - item.epoch_base + chain.epochs,
        item.parent_uuid, item.owner_uuid
      from item, chain
      returning item_version
    )
    select item.*, chain.trashed, change.item_version as version, 'owner' as my_role, false as shared,
      o.first_name as owner_first_name, o.last_name as owner_last_name, commit_mode.batch
    from item
      join users as o on o.uuid = item.owner_uuid
      cross join commit_mode
      left join change on true
      left join chain on true
    where folio_refuse_unless(change.item_version is not null, 'storage_limit_exceeded')`;
}

/** The at-rest chunks of a simple upload, each chunk's plaintext added to `hasher` as it is sealed. */
function* hashingWhileEncrypting(
  staged: Omit<StagedContent, 'uploadId'>,
  plaintext: Buffer,
  hasher: ContentHasher,
): Generator<Buffer> {
  let index = 0;
  for (const frame of encryptChunks(staged.dataKey, staged.versionUuid, staged.layout, plaintext)) {
    const start = index * staged.layout.chunkSizeBytes;
    hasher.update(plaintext.subarray(start, start + chunkPlaintextSize(staged.layout, index++)));
    yield frame;
  }
}

/** The caller's own file row; uploads in flight belong to the person who started them. */
async function ownUpload(
  knex: Knex,
  caller: Caller,
  fileUuid: string,
  options: { forUpdate: boolean },
): Promise<ItemRow | undefined> {
  if (!isUuid(fileUuid)) return undefined;
  const query = knex('drive_items').where({
    uuid: fileUuid,
    workspace_uuid: caller.workspaceUuid,
    owner_uuid: caller.userUuid,
    kind: 'file',
  });
  if (options.forUpdate) query.forUpdate();
  return query.first();
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

export interface PartUrl {
  partNumber: number;
  url: string;
  expiresAt: string;
}

/** Presigned PUT URLs of the requested parts of a staged version; a number outside 1..chunk_count is 422 invalid_parts. */
async function presignParts(
  store: ObjectStore,
  version: VersionRow,
  partNumbers: number[],
): Promise<PartUrl[]> {
  const { chunkCount } = layoutOfVersion(version);
  const wanted = [...new Set(partNumbers)].sort((a, b) => a - b);
  const outside = wanted.filter((number) => number < 1 || number > chunkCount);
  if (outside.length) throw invalidParts(outside);
  return presignPartUrls(store, version.storage_key, version.storage_upload_id!, wanted);
}

/** The caller's chunked upload in flight and its staged version: 404 if unknown, 422 invalid_upload_status if completed. */
export async function stagedChunkedUpload(
  knex: Knex,
  caller: Caller,
  fileUuid: string,
): Promise<VersionRow & { storage_upload_id: string }> {
  const item = await ownUpload(knex, caller, fileUuid, { forUpdate: false });
  if (!item) throw notFound();
  if (item.upload_status !== 'uploading') throw invalidUploadStatus('The upload is already completed.');
  const version = await stagedVersionOf(knex, item.uuid, { createdBy: caller.userUuid });
  if (!version?.storage_upload_id) throw notFound();
  return version as VersionRow & { storage_upload_id: string };
}

/** Part URLs of the caller's upload in flight: 404 if unknown, 422 invalid_upload_status if completed. */
export async function presignUploadParts(
  deps: StoredContent,
  caller: Caller,
  fileUuid: string,
  partNumbers: number[],
): Promise<PartUrl[]> {
  return presignParts(deps.objects, await stagedChunkedUpload(deps.db, caller, fileUuid), partNumbers);
}

/**
 * Completes the caller's chunked upload: every part present with its etag and ciphertext size, the S3
 * multipart upload completed, the content hash verified when the client sent one, the file `completed` and
 * announced with a create change. Completing a completed upload again answers the same (a retry after a lost
 * response), unless it names another hash than the one recorded.
 */
export async function completeUpload(
  deps: ReadableContent,
  unit: UnitOfWork,
  caller: Caller,
  fileUuid: string,
  completion: Completion,
): Promise<VisibleItem> {
  const { tx } = unit;
  const item = await ownUpload(tx, caller, fileUuid, { forUpdate: true });
  if (!item) throw notFound();
  if (item.upload_status === 'uploading') {
    const version = await stagedVersionOf(tx, item.uuid, { createdBy: caller.userUuid });
    if (!version?.storage_upload_id) throw notFound();
    await completeStoredParts(deps.objects, version, completion.parts);
    const contentHash = await verifiedContentHash(deps, version, completion.contentHash);
    await tx('drive_file_versions')
      .where({ uuid: version.uuid, status: 'staged' })
      .update({ status: 'live', content_hash: contentHash });
    const [completed] = (await tx('drive_items')
      .where({ uuid: item.uuid, upload_status: 'uploading' })
      .update({
        upload_status: 'completed',
        live_version_uuid: version.uuid,
        content_hash: contentHash,
        updated_at: tx.fn.now(),
      })
      .returning('*')) as ItemRow[];
    await appendChange(tx, 'create', completed!);
    await markPublicLinkReady(tx, item.uuid);
    unit.workflows.wakeUploadLifecycle(item.uuid);
    await requestThumbnail(unit, completed!);
  } else if (completion.contentHash !== undefined) {
    // The upload's own version (its uuid is the file's) keeps the hash it was completed with, until it is purged.
    const first: Pick<VersionRow, 'content_hash'> | undefined = await tx('drive_file_versions')
      .where({ uuid: item.uuid })
      .first('content_hash');
    if (first?.content_hash && first.content_hash !== completion.contentHash) throw contentHashMismatch();
  }
  return findVisibleItem(tx, caller, item.uuid, { kind: 'file' });
}

/** Object storage and the master key: what reading back a staged version's plaintext takes. */
export type ReadableContent = Pick<StoredContent, 'objects'> & { masterKey: MasterKey };

/**
 * The client's content hash of a staged version (null when it sent none), checked against the plaintext storage
 * now holds: the assembled object is read and every chunk decrypted (so authenticated) and hashed. A chunk that
 * does not open, or another hash, is 422 content_hash_mismatch, and the caller's transaction commits nothing.
 * Storage keeps the assembled object: a later complete reads it again (completeStoredParts finds the object), and
 * abort or expiry discards it. Without a hash nothing is read: the complete stays as cheap as the spec's.
 */
async function verifiedContentHash(
  deps: ReadableContent,
  version: VersionRow,
  declared: string | undefined,
): Promise<string | null> {
  if (declared === undefined) return null;
  const layout = layoutOfVersion(version);
  const dataKey = unwrapDataKey(deps.masterKey, version.uuid, version.wrapped_key);
  const hasher = new ContentHasher();
  let opened = 0;
  try {
    const ciphertext = await deps.objects.get(version.storage_key);
    for await (const plaintext of decryptChunks(ciphertext, dataKey, version.uuid, layout)) {
      hasher.update(plaintext);
      opened++;
    }
  } catch (error) {
    if (error instanceof ContentIntegrityError) throw contentHashMismatch([opened + 1]);
    throw error;
  }
  if (hasher.digest() !== declared) throw contentHashMismatch();
  return declared;
}

interface DeclaredPart {
  part_number: number;
  etag: string;
}

/** What a complete names: every part, and the plaintext's content hash when the client sends one (an extension). */
export interface Completion {
  parts: DeclaredPart[];
  contentHash?: string;
}

/** Checks the client's part list against what storage holds, then completes the multipart upload. */
async function completeStoredParts(
  store: ObjectStore,
  version: VersionRow,
  declared: DeclaredPart[],
): Promise<void> {
  const layout = layoutOfVersion(version);
  const uploadId = version.storage_upload_id!;
  const stored = await store.listParts(version.storage_key, uploadId);
  if (!stored) {
    // An earlier attempt completed the object in storage and crashed before its commit: finish the commit.
    if ((await store.size(version.storage_key)) === layout.ciphertextSizeBytes) return;
    throw notFound('The upload is no longer open.');
  }
  const faulty = faultyParts(layout, declared, stored);
  if (faulty.length) throw invalidParts(faulty);
  await store.completeMultipart(
    version.storage_key,
    uploadId,
    stored.filter((part) => part.part <= layout.chunkCount),
  );
}

/** Aborts the caller's upload in flight: staged parts discarded, the name and the reserved bytes freed. */
export async function abortUpload(
  deps: Pick<StoredContent, 'objects'>,
  unit: UnitOfWork,
  caller: Caller,
  fileUuid: string,
): Promise<void> {
  const item = await ownUpload(unit.tx, caller, fileUuid, { forUpdate: true });
  if (!item) throw notFound();
  if (item.upload_status !== 'uploading')
    throw invalidUploadStatus('The upload is completed; delete the file instead.');
  await discardUploadingFile(deps.objects, unit.tx, item);
  unit.workflows.wakeUploadLifecycle(item.uuid);
}

/** Storage first (idempotent), then the rows and the pool in the caller's transaction. */
async function discardUploadingFile(store: ObjectStore, tx: Knex.Transaction, item: ItemRow): Promise<void> {
  const versions: VersionRow[] = await tx('drive_file_versions').where({ file_uuid: item.uuid });
  for (const version of versions) await store.discard(version.storage_key, version.storage_upload_id);
  const deleted = await tx('drive_items').where({ uuid: item.uuid, upload_status: 'uploading' }).delete();
  if (deleted) await releaseStorage(tx, item.workspace_uuid, poolBytesHeld(versions));
}

export type UploadState = 'uploading' | 'completed' | 'aborted' | 'expired';

/**
 * The lifecycle's look at a chunked upload: still uploading (and expired → aborted now), completed, or gone. A gone
 * upload may have left a multipart upload behind (a crash between the lifecycle's start and the initiate's commit),
 * so storage is swept.
 */
export async function settleUpload(
  deps: StoredContent,
  ids: { workspaceUuid: string; fileUuid: string },
  expired: boolean,
): Promise<UploadState> {
  return deps.db.transaction(async (tx) => {
    const item: ItemRow | undefined = await tx('drive_items')
      .where({ uuid: ids.fileUuid })
      .forUpdate()
      .first();
    if (!item) {
      await deps.objects.discard(storageKey(ids.workspaceUuid, ids.fileUuid, ids.fileUuid), null);
      return 'aborted';
    }
    if (item.upload_status !== 'uploading') return 'completed';
    if (!expired) return 'uploading';
    await discardUploadingFile(deps.objects, tx, item);
    return 'expired';
  });
}

// --- Replacement -----------------------------------------------------------------------------------------

/** A live, completed file the caller may edit, with no replacement in flight; 422 invalid_upload_status otherwise. */
async function replaceableFile(
  knex: Knex,
  caller: Caller,
  fileUuid: string,
  forUpdate = false,
  guard?: ItemGuard,
): Promise<VisibleItem> {
  const item = await findVisibleItem(knex, caller, fileUuid, {
    kind: 'file',
    needs: 'editor',
    includeUploading: true,
    forUpdate,
    guard,
  });
  if (item.upload_status !== 'completed') throw invalidUploadStatus('The file is still uploading.');
  if (await stagedVersionOf(knex, item.uuid))
    throw invalidUploadStatus('A replacement is already in flight for this file.');
  return item;
}

/**
 * Stages a replacement version of a file; the current version stays live until the replacement completes. `guard` (a
 * precondition) is checked first on the file as read, then again on the file locked in the transaction that stages
 * the version: once that commits, no other replacement can start until this one ends.
 */
export async function beginReplace(
  deps: ContentDeps,
  caller: Caller,
  fileUuid: string,
  input: { sizeBytes: number; contentType?: string; guard?: ItemGuard },
): Promise<StagedContent> {
  const contentType = input.contentType === undefined ? undefined : checkContentType(input.contentType);
  // Refusals (unknown file, role, precondition, one in flight, the pool) are answered before a workflow or multipart upload exists.
  const item = await replaceableFile(deps.db, caller, fileUuid, false, input.guard);
  await checkStorageRoom(deps.db, caller.workspaceUuid, input.sizeBytes);
  const versionUuid = randomUUID();
  const key = storageKey(caller.workspaceUuid, item.uuid, versionUuid);
  const staged = {
    fileUuid: item.uuid,
    versionUuid,
    storageKey: key,
    layout: chunkLayout(input.sizeBytes),
    dataKey: generateDataKey(),
  };
  await deps.lifecycles.startReplaceLifecycle({
    workspaceUuid: caller.workspaceUuid,
    fileUuid: item.uuid,
    versionUuid,
  });
  let uploadId: string | null = null;
  try {
    uploadId = await deps.objects.startMultipart(key);
    await deps.runInTransaction(async ({ tx }) => {
      const locked = await replaceableFile(tx, caller, item.uuid, true, input.guard);
      await insertVersion(
        tx,
        deps.masterKey,
        caller,
        { ...staged, uploadId },
        contentType ?? locked.content_type ?? 'application/octet-stream',
        'staged',
      );
      await reserveStorage(tx, caller.workspaceUuid, input.sizeBytes);
    });
  } catch (error) {
    await giveUp(deps, (unit) => unit.workflows.wakeReplaceLifecycle(versionUuid), key, uploadId, {
      version_uuid: versionUuid,
    });
    throw error;
  }
  return { ...staged, uploadId };
}

/** The caller's replacement in flight on a file they may still edit; 404 when there is none. */
async function ownReplacement(
  knex: Knex,
  caller: Caller,
  fileUuid: string,
  forUpdate: boolean,
): Promise<{ item: VisibleItem; version: VersionRow }> {
  const item = await findVisibleItem(knex, caller, fileUuid, { kind: 'file', needs: 'editor', forUpdate });
  const version = await stagedVersionOf(knex, item.uuid, { createdBy: caller.userUuid, forUpdate });
  if (!version?.storage_upload_id) throw notFound('No replacement of yours is in flight for this file.');
  return { item, version };
}

/** Part URLs of the caller's replacement in flight. */
export async function presignReplacementParts(
  deps: StoredContent,
  caller: Caller,
  fileUuid: string,
  partNumbers: number[],
): Promise<PartUrl[]> {
  const { version } = await ownReplacement(deps.db, caller, fileUuid, false);
  return presignParts(deps.objects, version, partNumbers);
}

/**
 * Promotes the caller's replacement atomically: the old live version retired (kept for the retention
 * period), the new one live, ctag and version +1, size, type and content hash updated, and an update change.
 * A content hash the client sends is verified first (verifiedContentHash); without one the new version has none.
 */
export async function completeReplace(
  deps: ReadableContent,
  unit: UnitOfWork,
  caller: Caller,
  fileUuid: string,
  completion: Completion,
): Promise<VisibleItem> {
  const { tx } = unit;
  const { item, version } = await ownReplacement(tx, caller, fileUuid, true);
  await completeStoredParts(deps.objects, version, completion.parts);
  const contentHash = await verifiedContentHash(deps, version, completion.contentHash);
  await tx('drive_file_versions')
    .where({ file_uuid: item.uuid, status: 'live' })
    .update({ status: 'retired', retired_at: tx.fn.now(), superseded_by: version.uuid });
  await tx('drive_file_versions')
    .where({ uuid: version.uuid, status: 'staged' })
    .update({ status: 'live', content_hash: contentHash });
  const [updated] = (await tx('drive_items')
    .where({ uuid: item.uuid })
    .update({
      live_version_uuid: version.uuid,
      ctag: tx.raw('ctag + 1'),
      version: tx.raw('version + 1'),
      file_size_bytes: version.plaintext_size_bytes,
      content_type: version.content_type,
      content_hash: contentHash,
      // The new content has no thumbnail yet: it gets its own, and has_preview comes back when that is stored.
      has_preview: false,
      updated_at: tx.fn.now(),
    })
    .returning('*')) as ItemRow[];
  await appendChange(tx, 'update', updated!);
  unit.workflows.wakeReplaceLifecycle(version.uuid);
  await requestThumbnail(unit, updated!);
  return findVisibleItem(tx, caller, item.uuid, { kind: 'file' });
}

/** Discards the caller's replacement in flight; the file keeps its current content. */
export async function abortReplace(
  deps: Pick<StoredContent, 'objects'>,
  unit: UnitOfWork,
  caller: Caller,
  fileUuid: string,
): Promise<VisibleItem> {
  const { item, version } = await ownReplacement(unit.tx, caller, fileUuid, true);
  await discardStagedVersion(deps.objects, unit.tx, version);
  unit.workflows.wakeReplaceLifecycle(version.uuid);
  return findVisibleItem(unit.tx, caller, item.uuid, { kind: 'file' });
}

async function discardStagedVersion(
  store: ObjectStore,
  tx: Knex.Transaction,
  version: VersionRow,
): Promise<void> {
  await store.discard(version.storage_key, version.storage_upload_id);
  const aborted = await tx('drive_file_versions')
    .where({ uuid: version.uuid, status: 'staged' })
    .update({ status: 'aborted' });
  if (aborted) await releaseStorage(tx, version.workspace_uuid, Number(version.plaintext_size_bytes));
}

export type ReplaceState =
  { state: 'staged' | 'aborted' | 'expired' } | { state: 'completed'; retiredAt: string | null };

/** The lifecycle's look at a replacement: still staged (and expired → aborted now), aborted, or completed. */
export async function settleReplace(
  deps: StoredContent,
  ids: { workspaceUuid: string; fileUuid: string; versionUuid: string },
  expired: boolean,
): Promise<ReplaceState> {
  return deps.db.transaction(async (tx) => {
    const version: VersionRow | undefined = await tx('drive_file_versions')
      .where({ uuid: ids.versionUuid })
      .forUpdate()
      .first();
    if (!version) {
      await deps.objects.discard(storageKey(ids.workspaceUuid, ids.fileUuid, ids.versionUuid), null);
      return { state: 'aborted' };
    }
    if (version.status === 'aborted') return { state: 'aborted' };
    if (version.status === 'staged') {
      if (!expired) return { state: 'staged' };
      await discardStagedVersion(deps.objects, tx, version);
      return { state: 'expired' };
    }
    const retired = await tx('drive_file_versions')
      .where({ superseded_by: version.uuid })
      .max('retired_at as at')
      .first();
    const at = retired?.at as Date | string | null | undefined;
    return { state: 'completed', retiredAt: at ? new Date(at).toISOString() : null };
  });
}

/** Purges the versions a replacement retired: object first, then the row and its pool bytes. Idempotent. */
export async function purgeSupersededVersions(deps: StoredContent, versionUuid: string): Promise<number> {
  const retired: VersionRow[] = await deps
    .db('drive_file_versions')
    .where({ superseded_by: versionUuid, status: 'retired' });
  let purged = 0;
  for (const version of retired) {
    await discardVersionThumbnails(deps, version.uuid);
    await deps.objects.discard(version.storage_key, null);
    await deps.db.transaction(async (tx) => {
      const deleted = await tx('drive_file_versions')
        .where({ uuid: version.uuid, status: 'retired' })
        .delete();
      if (!deleted) return;
      await releaseStorage(tx, version.workspace_uuid, Number(version.plaintext_size_bytes));
      purged++;
    });
  }
  return purged;
}

// --- Downloads -------------------------------------------------------------------------------------------

interface LiveContent<I extends ItemRow> {
  item: I;
  version: VersionRow;
  layout: ChunkLayout;
  dataKey: Buffer;
}

/** The live version of a completed file the caller can see, with its unwrapped key. */
async function openLiveContent(
  deps: StoredContent & { masterKey: Buffer },
  caller: Caller,
  fileUuid: string,
): Promise<LiveContent<VisibleItem>> {
  return liveContentOf(deps, await findVisibleItem(deps.db, caller, fileUuid, { kind: 'file' }));
}

/** The live version of a completed file, found by whoever may read it, with its unwrapped key. */
async function liveContentOf<I extends ItemRow>(
  deps: StoredContent & { masterKey: Buffer },
  item: I,
): Promise<LiveContent<I>> {
  const version: VersionRow | undefined = item.live_version_uuid
    ? await deps.db('drive_file_versions').where({ uuid: item.live_version_uuid }).first()
    : undefined;
  if (!version) throw new Error(`file ${item.uuid} has no live version row`);
  return {
    item,
    version,
    layout: layoutOfVersion(version),
    dataKey: unwrapDataKey(deps.masterKey, version.uuid, version.wrapped_key),
  };
}

/** A simple download: the file and its plaintext, chunk by chunk, each authenticated before it is yielded. */
export async function openDownload(
  deps: StoredContent & { masterKey: Buffer },
  caller: Caller,
  fileUuid: string,
): Promise<{ item: VisibleItem; layout: ChunkLayout; plaintext: AsyncGenerator<Buffer> }> {
  return openDownloadOf(deps, await findVisibleItem(deps.db, caller, fileUuid, { kind: 'file' }));
}

/** The same download of a completed file found another way: through a public link (public-links.ts). */
export async function openDownloadOf<I extends ItemRow>(
  deps: StoredContent & { masterKey: Buffer },
  file: I,
): Promise<{ item: I; layout: ChunkLayout; plaintext: AsyncGenerator<Buffer> }> {
  const { item, version, layout, dataKey } = await liveContentOf(deps, file);
  const ciphertext = await deps.objects.get(version.storage_key);
  return { item, layout, plaintext: decryptChunks(ciphertext, dataKey, version.uuid, layout) };
}

/** A chunked download: the key, the layout and a presigned URL the client reads ranges of. */
export async function openChunkedDownload(
  deps: StoredContent & { masterKey: Buffer },
  caller: Caller,
  fileUuid: string,
): Promise<{ versionUuid: string; layout: ChunkLayout; dataKey: Buffer; downloadUrl: string }> {
  const { version, layout, dataKey } = await openLiveContent(deps, caller, fileUuid);
  return {
    versionUuid: version.uuid,
    layout,
    dataKey,
    downloadUrl: await deps.objects.presignGetUrl(version.storage_key, DOWNLOAD_URL_TTL_SECONDS),
  };
}
