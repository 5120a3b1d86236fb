// The chunk layout of docs/drive-encryption.md § 2: nonce (12) || AES-256-GCM ciphertext || tag (16), with the
// AAD "folio-drive-chunk-v1:<version_uuid>:<i>:<chunk_count>". WebCrypto runs AES-GCM on libuv's thread pool, so
// sealing and opening chunks does not hold the event loop while other parts are on the wire.
import { webcrypto } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes a chunk's ciphertext has beyond its plaintext. */
export const CHUNK_OVERHEAD = NONCE_BYTES + TAG_BYTES;

export type ChunkKey = webcrypto.CryptoKey;

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
