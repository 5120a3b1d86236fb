// The chunk layout of docs/drive-encryption.md § 2: nonce (12) || AES-256-GCM ciphertext || tag (16), with the
// AAD "folio-drive-chunk-v1:<version_uuid>:<i>:<chunk_count>". The transfer seals (sealChunkFrame) and opens
// (openChunkStream) chunks with node:crypto on the event loop, each in one pass over one chunk-sized buffer: WebCrypto
// runs on libuv's thread pool but copies each frame twice more around its job, and on two cores that CPU, not the
// event loop's time, is the transfer's limit (docs/benchmarks.md § 2026-11-27, session 15). encryptChunk and
// decryptChunk (WebCrypto) stay for callers that hold a CryptoKey.
import { createCipheriv, createDecipheriv, randomFillSync, webcrypto } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes a chunk's ciphertext has beyond its plaintext. */
export const CHUNK_OVERHEAD = NONCE_BYTES + TAG_BYTES;

type ChunkKey = webcrypto.CryptoKey;

export interface Layout {
  chunkSizeBytes: number;
  chunkCount: number;
  plaintextSizeBytes: number;
}

export const chunkAad = (versionUuid: string, index: number, count: number): Uint8Array =>
  new TextEncoder().encode(`folio-drive-chunk-v1:${versionUuid.toLowerCase()}:${index}:${count}`);

export const importChunkKey = (dataKey: string, usage: 'encrypt' | 'decrypt'): Promise<ChunkKey> =>
  webcrypto.subtle.importKey('raw', Buffer.from(dataKey, 'base64'), { name: 'AES-GCM' }, false, [usage]);

/** Plaintext length of chunk `index`: every chunk but the last is full; an empty file is one empty chunk. */
export const plainLength = (layout: Layout, index: number): number =>
  index < layout.chunkCount - 1
    ? layout.chunkSizeBytes
    : layout.plaintextSizeBytes - (layout.chunkCount - 1) * layout.chunkSizeBytes;

/** Where chunk `index` starts in the stored object. */
export const chunkOffset = (layout: Layout, index: number): number =>
  index * (layout.chunkSizeBytes + CHUNK_OVERHEAD);

export async function encryptChunk(
  key: ChunkKey,
  versionUuid: string,
  index: number,
  count: number,
  plaintext: Uint8Array,
): Promise<Buffer> {
  const nonce = webcrypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await webcrypto.subtle.encrypt(
    {
      name: 'AES-GCM',
      iv: nonce,
      additionalData: chunkAad(versionUuid, index, count),
      tagLength: TAG_BYTES * 8,
    },
    key,
    plaintext,
  );
  return Buffer.concat([nonce, new Uint8Array(sealed)]);
}

/** Plaintext encrypted per cipher.update by sealChunkFrame: the cipher allocates each output, dropped at once. */
const SEAL_SLICE_BYTES = 64 * 1024;

/**
 * encryptChunk's frame, sealed with node:crypto from the raw data key into one buffer of the frame's size: the
 * plaintext goes through in slices whose outputs die young, so the frame is the one chunk-sized buffer the chunk
 * allocates. With `into` (at least the frame's size) nothing chunk-sized is allocated: the frame answered is its start.
 * A transfer reuses its frames so: a fresh 8 MiB buffer per part costs its page faults and a collection more than the
 * copy into it (docs/benchmarks.md § 2026-11-28 (session 19)).
 */
export function sealChunkFrame(
  dataKey: Uint8Array,
  versionUuid: string,
  index: number,
  count: number,
  plaintext: Uint8Array,
  into?: Buffer,
): Buffer {
  const frameLength = plaintext.length + CHUNK_OVERHEAD;
  if (into && into.length < frameLength)
    throw new RangeError(`a frame of ${frameLength} bytes needs a buffer as large`);
  const frame = into ? into.subarray(0, frameLength) : Buffer.allocUnsafe(frameLength);
  const nonce = randomFillSync(frame.subarray(0, NONCE_BYTES));
  const cipher = createCipheriv('aes-256-gcm', dataKey, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(chunkAad(versionUuid, index, count));
  let at = NONCE_BYTES;
  for (let start = 0; start < plaintext.length; start += SEAL_SLICE_BYTES)
    at += cipher.update(plaintext.subarray(start, start + SEAL_SLICE_BYTES)).copy(frame, at);
  at += cipher.final().copy(frame, at);
  cipher.getAuthTag().copy(frame, at);
  return frame;
}

/** Opens one stored chunk; a chunk that fails authentication rejects (the bytes are not what was written). */
export async function decryptChunk(
  key: ChunkKey,
  versionUuid: string,
  index: number,
  count: number,
  frame: Uint8Array,
): Promise<Buffer> {
  const plain = await webcrypto.subtle.decrypt(
    {
      name: 'AES-GCM',
      iv: frame.subarray(0, NONCE_BYTES),
      additionalData: chunkAad(versionUuid, index, count),
      tagLength: TAG_BYTES * 8,
    },
    key,
    frame.subarray(NONCE_BYTES),
  );
  return Buffer.from(plain);
}

/**
 * Opens one stored chunk from the pieces its frame arrives in (`frameLength` bytes in all), gathered into `frame`, a
 * buffer of at least that size that the caller may reuse once this settles: the plaintext answered is then the only
 * buffer the chunk allocates, written by one AES-GCM pass. (Opening each piece as it comes allocates a buffer per
 * piece; on Node 20 the garbage collection that costs was worth more CPU than the pass itself.) A frame of another
 * length or one that fails authentication rejects. `dataKey` is the raw key (download_init's, decoded).
 */
export async function openChunkStream(
  dataKey: Uint8Array,
  versionUuid: string,
  index: number,
  count: number,
  frameLength: number,
  pieces: AsyncIterable<Uint8Array>,
  frame: Buffer = Buffer.allocUnsafe(frameLength),
): Promise<Buffer> {
  if (frameLength < CHUNK_OVERHEAD)
    throw new RangeError(`a chunk's frame has at least ${CHUNK_OVERHEAD} bytes`);
  if (frame.length < frameLength)
    throw new RangeError(`a frame of ${frameLength} bytes needs a buffer as large`);
  let at = 0;
  for await (const piece of pieces) {
    if (at + piece.length > frameLength) throw new Error(`chunk ${index}: more than ${frameLength} bytes`);
    frame.set(piece, at);
    at += piece.length;
  }
  if (at !== frameLength) throw new Error(`chunk ${index}: ${at} bytes, not ${frameLength}`);
  const tagAt = frameLength - TAG_BYTES;
  const decipher = createDecipheriv('aes-256-gcm', dataKey, frame.subarray(0, NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(chunkAad(versionUuid, index, count));
  decipher.setAuthTag(frame.subarray(tagAt, frameLength));
  const plaintext = decipher.update(frame.subarray(NONCE_BYTES, tagAt));
  try {
    decipher.final();
  } catch (error) {
    throw new Error(`chunk ${index} failed authentication: its bytes are not what was stored`, {
      cause: error,
    });
  }
  return plaintext;
}
