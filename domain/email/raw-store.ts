// The raw message of an email in object storage, encrypted at rest with the Drive scheme (domain/drive/crypto.ts): a
// fresh data key per message, AES-256-GCM chunks bound to the email uuid, the key stored wrapped by the master key.
import {
  chunkLayout,
  decryptChunks,
  encryptChunks,
  generateDataKey,
  unwrapDataKey,
  wrapDataKey,
} from '../drive/crypto.js';
import type { ObjectStore } from '../drive/content-objects.js';

/** The object storage calls a raw message takes (platform/object-store.ts). */
type RawMessageObjects = Pick<ObjectStore, 'put' | 'get' | 'remove'>;

/** email/<workspace>/<mailbox>/<email>: one object per message, written once, never replaced. */
const emailStorageKey = (workspaceUuid: string, mailboxUuid: string, emailUuid: string) =>
  `email/${workspaceUuid}/${mailboxUuid}/${emailUuid}`;

export interface StoredRawMessage {
  storageKey: string;
  wrappedKey: Buffer;
  sizeBytes: number;
  chunkSizeBytes: number;
}

export async function putRawMessage(
  store: RawMessageObjects,
  masterKey: Buffer,
  target: { workspaceUuid: string; mailboxUuid: string; emailUuid: string },
  raw: Buffer,
): Promise<StoredRawMessage> {
  const dataKey = generateDataKey();
  const layout = chunkLayout(raw.length);
  const ciphertext = Buffer.concat([...encryptChunks(dataKey, target.emailUuid, layout, raw)]);
  const storageKey = emailStorageKey(target.workspaceUuid, target.mailboxUuid, target.emailUuid);
  await store.put(storageKey, ciphertext);
  return {
    storageKey,
    wrappedKey: wrapDataKey(masterKey, target.emailUuid, dataKey),
    sizeBytes: raw.length,
    chunkSizeBytes: layout.chunkSizeBytes,
  };
}

export async function readRawMessage(
  store: RawMessageObjects,
  masterKey: Buffer,
  row: {
    uuid: string;
    storage_key: string;
    wrapped_key: Buffer;
    size_bytes: number | string;
    chunk_size_bytes: number;
  },
): Promise<Buffer> {
  const dataKey = unwrapDataKey(masterKey, row.uuid, row.wrapped_key);
  const size = Number(row.size_bytes);
  const layout = chunkLayout(size, { baseChunkSizeBytes: row.chunk_size_bytes });
  const source = await store.get(row.storage_key);
  const pieces: Buffer[] = [];
  for await (const piece of decryptChunks(source, dataKey, row.uuid, layout)) pieces.push(piece);
  return Buffer.concat(pieces, size);
}

export async function removeRawMessage(store: RawMessageObjects, storageKey: string): Promise<void> {
  await store.remove(storageKey);
}
