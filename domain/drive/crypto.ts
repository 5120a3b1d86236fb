// Encryption at rest of Drive contents: per-version data keys wrapped by the master key, and the one chunk
// layout that the simple routes (server side) and the chunked routes (client side) share. See docs/drive-encryption.md.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { MasterKey } from '../../platform/config.js';

export const MiB = 1024 * 1024;
/** Plaintext bytes per chunk unless the file needs more than MAX_CHUNK_COUNT chunks. */
export const DEFAULT_CHUNK_SIZE_BYTES = 8 * MiB;
/** S3 allows 10,000 parts per multipart upload, and each chunk is one part. */
const MAX_CHUNK_COUNT = 10_000;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Ciphertext bytes a chunk adds to its plaintext: nonce before, tag after. */
export const CHUNK_OVERHEAD_BYTES = NONCE_BYTES + TAG_BYTES;
export const DATA_KEY_BYTES = 32;
/** Largest plaintext the chunked flow accepts: 1 TiB (chunks then grow to at most 105 MiB). */
export const MAX_CHUNKED_FILE_BYTES = 2 ** 40;

const CHUNK_AAD_PREFIX = 'folio-drive-chunk-v1';
const THUMBNAIL_AAD_PREFIX = 'folio-drive-thumbnail-v1';
const KEY_AAD_PREFIX = 'folio-drive-key-v1';
const SECRET_AAD_PREFIX = 'folio-secret-v1';
/** 0x01: wrapped under master key id 0, the format of before rotation. 0x02: a key id byte follows. */
const WRAP_FORMAT_V1 = 0x01;
const WRAP_FORMAT_V2 = 0x02;
const WRAPPED_V1_BYTES = 1 + NONCE_BYTES + DATA_KEY_BYTES + TAG_BYTES;

// The master key with its id and the previous keys that still unwrap: built by platform/config.ts, where it is declared.
export type { MasterKey };

const keyIdOf = (masterKey: MasterKey) => masterKey.keyId ?? 0;

/** The id of the master key a stored wrapped key is under, or undefined for bytes of no known format. */
export function wrappedKeyId(wrapped: Buffer): number | undefined {
  if (wrapped.length === WRAPPED_V1_BYTES && wrapped[0] === WRAP_FORMAT_V1) return 0;
  if (wrapped.length === WRAPPED_V1_BYTES + 1 && wrapped[0] === WRAP_FORMAT_V2) return wrapped[1];
  return undefined;
}

export class ContentIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContentIntegrityError';
  }
}

export interface ChunkLayout {
  plaintextSizeBytes: number;
  chunkSizeBytes: number;
  chunkCount: number;
  ciphertextSizeBytes: number;
}

export interface LayoutRules {
  baseChunkSizeBytes?: number;
  maxChunkCount?: number;
  growthUnitBytes?: number;
}

/**
 * The chunking of a plaintext of `size` bytes: 8 MiB chunks, or the smallest whole number of MiB that keeps
 * the count within 10,000. Every chunk but the last is full; an empty file is one chunk of empty plaintext.
 */
export function chunkLayout(size: number, rules: LayoutRules = {}): ChunkLayout {
  const base = rules.baseChunkSizeBytes ?? DEFAULT_CHUNK_SIZE_BYTES;
  const maxCount = rules.maxChunkCount ?? MAX_CHUNK_COUNT;
  const unit = rules.growthUnitBytes ?? MiB;
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`invalid plaintext size ${size}`);
  let chunkSizeBytes = base;
  if (Math.ceil(size / base) > maxCount) chunkSizeBytes = Math.ceil(size / (maxCount * unit)) * unit;
  const chunkCount = Math.max(1, Math.ceil(size / chunkSizeBytes));
  return {
    plaintextSizeBytes: size,
    chunkSizeBytes,
    chunkCount,
    ciphertextSizeBytes: size + chunkCount * CHUNK_OVERHEAD_BYTES,
  };
}

export function chunkPlaintextSize(layout: ChunkLayout, index: number): number {
  if (index < layout.chunkCount - 1) return layout.chunkSizeBytes;
  return layout.plaintextSizeBytes - (layout.chunkCount - 1) * layout.chunkSizeBytes;
}

export const chunkCiphertextSize = (layout: ChunkLayout, index: number): number =>
  chunkPlaintextSize(layout, index) + CHUNK_OVERHEAD_BYTES;

export const chunkCiphertextOffset = (layout: ChunkLayout, index: number): number =>
  index * (layout.chunkSizeBytes + CHUNK_OVERHEAD_BYTES);

/** Binds a chunk to its version, its position and the total count: no reorder, truncation or swap. */
export function chunkAad(versionUuid: string, index: number, count: number): Buffer {
  return Buffer.from(`${CHUNK_AAD_PREFIX}:${versionUuid.toLowerCase()}:${index}:${count}`, 'utf8');
}

/** One at-rest chunk: 12-byte random nonce || AES-256-GCM ciphertext || 16-byte tag. */
export function encryptChunk(
  key: Buffer,
  versionUuid: string,
  index: number,
  count: number,
  plaintext: Buffer,
): Buffer {
  return Buffer.concat(sealChunk(key, versionUuid, index, count, plaintext));
}

/**
 * The same at-rest chunk as encryptChunk, answered in its three pieces (nonce, ciphertext, tag) so a streamed writer
 * sends it without joining them.
 */
export function sealChunk(
  key: Buffer,
  versionUuid: string,
  index: number,
  count: number,
  plaintext: Buffer,
): Buffer[] {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(chunkAad(versionUuid, index, count));
  const body = cipher.update(plaintext);
  cipher.final();
  return [nonce, body, cipher.getAuthTag()];
}

/** Plaintext encrypted per cipher.update by sealChunkInto: its output, a new buffer each time, is dropped at once. */
const SEAL_SLICE_BYTES = 64 * 1024;

/**
 * The same at-rest chunk as encryptChunk, written into `frame` (at least CHUNK_OVERHEAD_BYTES longer than the
 * plaintext) and answered as the part of it that holds the chunk: a streamed writer reuses its frames instead of
 * leaving a new chunk-sized buffer per chunk for the garbage collector (docs/benchmarks.md § Simple upload memory).
 * The cipher allocates its output, so the plaintext goes through in small slices whose copies die young.
 */
export function sealChunkInto(
  frame: Buffer,
  key: Buffer,
  versionUuid: string,
  index: number,
  count: number,
  plaintext: Buffer,
): Buffer {
  const size = plaintext.length + CHUNK_OVERHEAD_BYTES;
  if (frame.length < size) throw new RangeError(`a frame of ${frame.length} bytes cannot hold ${size}`);
  const nonce = frame.subarray(0, NONCE_BYTES);
  randomBytes(NONCE_BYTES).copy(nonce);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(chunkAad(versionUuid, index, count));
  let at = NONCE_BYTES;
  for (let start = 0; start < plaintext.length; start += SEAL_SLICE_BYTES)
    at += cipher.update(plaintext.subarray(start, start + SEAL_SLICE_BYTES)).copy(frame, at);
  cipher.final();
  cipher.getAuthTag().copy(frame, at);
  return frame.subarray(0, size);
}

/**
 * A thumbnail at rest, sealed like one chunk (nonce || ciphertext || tag) under its version's data key, with its own
 * AAD so that it can never pass for a chunk of the file, nor for another version's or variant's thumbnail.
 */
function thumbnailAad(versionUuid: string, variant: string): Buffer {
  return Buffer.from(`${THUMBNAIL_AAD_PREFIX}:${versionUuid.toLowerCase()}:${variant}`, 'utf8');
}

export function encryptThumbnail(
  key: Buffer,
  versionUuid: string,
  variant: string,
  plaintext: Buffer,
): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(thumbnailAad(versionUuid, variant));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

export function decryptThumbnail(key: Buffer, versionUuid: string, variant: string, frame: Buffer): Buffer {
  return openFrame(key, thumbnailAad(versionUuid, variant), frame, 'the thumbnail');
}

function openFrame(key: Buffer, aad: Buffer, frame: Buffer, what: string): Buffer {
  if (frame.length < CHUNK_OVERHEAD_BYTES)
    throw new ContentIntegrityError(`${what} is shorter than its nonce and tag`);
  const decipher = createDecipheriv('aes-256-gcm', key, frame.subarray(0, NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(aad);
  decipher.setAuthTag(frame.subarray(frame.length - TAG_BYTES));
  const plaintext = decipher.update(frame.subarray(NONCE_BYTES, frame.length - TAG_BYTES));
  try {
    decipher.final(); // GCM has no padding: final() only checks the tag, and adds no bytes.
    return plaintext;
  } catch {
    throw new ContentIntegrityError(`${what} failed authentication`);
  }
}

export const decryptChunk = (
  key: Buffer,
  versionUuid: string,
  index: number,
  count: number,
  frame: Buffer,
): Buffer => openFrame(key, chunkAad(versionUuid, index, count), frame, `chunk ${index} of ${count}`);

export const generateDataKey = (): Buffer => randomBytes(DATA_KEY_BYTES);

/** data_key on the wire: standard base64 (RFC 4648 §4, padded) of the 32 raw key bytes. */
export const encodeDataKey = (key: Buffer): string => key.toString('base64');

/**
 * The stored form of a data key: a format byte (0x01 under master key id 0; 0x02 then the key id byte under any other)
 * || 12-byte nonce || AES-256-GCM(master key) of the 32 key bytes || 16-byte tag, with the version uuid as AAD so a
 * wrapped key cannot be moved to another version row.
 */
export function wrapDataKey(masterKey: MasterKey, versionUuid: string, dataKey: Buffer): Buffer {
  if (dataKey.length !== DATA_KEY_BYTES) throw new RangeError('a data key is 32 bytes');
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', masterKey, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(`${KEY_AAD_PREFIX}:${versionUuid.toLowerCase()}`, 'utf8'));
  const body = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  const id = keyIdOf(masterKey);
  const header = id === 0 ? Buffer.from([WRAP_FORMAT_V1]) : Buffer.from([WRAP_FORMAT_V2, id]);
  return Buffer.concat([header, nonce, body, cipher.getAuthTag()]);
}

export function unwrapDataKey(masterKey: MasterKey, versionUuid: string, wrapped: Buffer): Buffer {
  const id = wrappedKeyId(wrapped);
  if (id === undefined) throw new ContentIntegrityError('unknown wrapped key format');
  const key = id === keyIdOf(masterKey) ? masterKey : masterKey.previousKeys?.get(id);
  if (!key)
    throw new ContentIntegrityError(`the wrapped key is under master key id ${id}, which is not configured`);
  const start = wrapped.length - WRAPPED_V1_BYTES + 1;
  const nonce = wrapped.subarray(start, start + NONCE_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(`${KEY_AAD_PREFIX}:${versionUuid.toLowerCase()}`, 'utf8'));
  decipher.setAuthTag(wrapped.subarray(wrapped.length - TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(wrapped.subarray(start + NONCE_BYTES, wrapped.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new ContentIntegrityError('the wrapped key does not open with this master key and version');
  }
}

/**
 * The same data key wrapped under the current master key, or null when it already is (a rotation's rewrap, run again,
 * changes nothing). Throws ContentIntegrityError when no configured key opens it.
 */
export function rewrapDataKey(masterKey: MasterKey, versionUuid: string, wrapped: Buffer): Buffer | null {
  if (wrappedKeyId(wrapped) === keyIdOf(masterKey)) return null;
  return wrapDataKey(masterKey, versionUuid, unwrapDataKey(masterKey, versionUuid, wrapped));
}

/**
 * A short secret kept at rest that Folio must read back (a public link's token, a device's push token): sealed under a
 * fresh key that the master key wraps, as file bytes are. The wrapped key binds the row's uuid (so a master-key rotation
 * rewraps it like any data key, domain/master-key-rotation.ts); the sealed bytes bind the uuid and what the secret is,
 * so a value moved to another row or column does not open.
 */
export interface SealedSecret {
  keyWrapped: Buffer;
  sealed: Buffer;
}

const secretAad = (purpose: string, rowUuid: string) =>
  Buffer.from(`${SECRET_AAD_PREFIX}:${purpose}:${rowUuid.toLowerCase()}`, 'utf8');

export function sealSecret(
  masterKey: MasterKey,
  purpose: string,
  rowUuid: string,
  plaintext: Buffer,
): SealedSecret {
  const key = generateDataKey();
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(secretAad(purpose, rowUuid));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return {
    keyWrapped: wrapDataKey(masterKey, rowUuid, key),
    sealed: Buffer.concat([nonce, body, cipher.getAuthTag()]),
  };
}

/** The plaintext of a sealed secret; ContentIntegrityError when no configured master key opens it or it was moved. */
export function openSecret(
  masterKey: MasterKey,
  purpose: string,
  rowUuid: string,
  secret: SealedSecret,
): Buffer {
  return openFrame(
    unwrapDataKey(masterKey, rowUuid, secret.keyWrapped),
    secretAad(purpose, rowUuid),
    secret.sealed,
    `the sealed ${purpose}`,
  );
}

/** Encrypts a whole plaintext chunk by chunk, yielding each at-rest chunk in order. */
export function* encryptChunks(
  key: Buffer,
  versionUuid: string,
  layout: ChunkLayout,
  plaintext: Buffer,
): Generator<Buffer> {
  if (plaintext.length !== layout.plaintextSizeBytes)
    throw new RangeError('plaintext does not match its layout');
  for (let index = 0; index < layout.chunkCount; index++) {
    const start = index * layout.chunkSizeBytes;
    const piece = plaintext.subarray(start, start + chunkPlaintextSize(layout, index));
    yield encryptChunk(key, versionUuid, index, layout.chunkCount, piece);
  }
}

/**
 * Decrypts a ciphertext stream of any piece sizes, yielding each chunk's plaintext once it authenticates.
 * A stream that ends early, runs long, or holds a chunk out of place throws ContentIntegrityError.
 */
export async function* decryptChunks(
  source: AsyncIterable<Buffer>,
  key: Buffer,
  versionUuid: string,
  layout: ChunkLayout,
): AsyncGenerator<Buffer> {
  // Each chunk's pieces are gathered into one frame reused from chunk to chunk: a fresh chunk-sized buffer per chunk
  // costs its page faults, more than the copy into it. The plaintext yielded is decryptChunk's own buffer.
  const frame = Buffer.allocUnsafe(chunkCiphertextSize(layout, 0));
  let gathered = 0;
  let index = 0;
  for await (const piece of source) {
    let at = 0;
    while (at < piece.length) {
      if (index === layout.chunkCount) throw new ContentIntegrityError('ciphertext runs past its last chunk');
      const size = chunkCiphertextSize(layout, index);
      const taken = piece.copy(frame, gathered, at, Math.min(piece.length, at + size - gathered));
      gathered += taken;
      at += taken;
      if (gathered === size) {
        yield decryptChunk(key, versionUuid, index, layout.chunkCount, frame.subarray(0, size));
        gathered = 0;
        index++;
      }
    }
  }
  if (index < layout.chunkCount)
    throw new ContentIntegrityError(`ciphertext ends after ${index} of ${layout.chunkCount} chunks`);
}

/** Standard base64 of a byte stream, emitted in pieces (each a multiple of 4 characters until the end). */
export async function* base64Stream(source: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let carry = Buffer.alloc(0);
  for await (const piece of source) {
    const joined = carry.length ? Buffer.concat([carry, piece]) : piece;
    const whole = joined.length - (joined.length % 3);
    if (whole > 0) yield joined.subarray(0, whole).toString('base64');
    carry = Buffer.from(joined.subarray(whole));
  }
  if (carry.length) yield carry.toString('base64');
}

export const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);
