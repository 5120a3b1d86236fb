// What the Documents operations are handed by each composition root (api/services.ts for the API and its editor app,
// activities/documents.ts for the worker): one object, so a signature names the transaction, these, the caller and
// the request, and nothing of the process is reached from domain code.
import type { Readable } from 'node:stream';
import type { Config, MasterKey } from '../../platform/config.js';
import type { WorkingDocuments } from './working-documents.js';

/** What Documents reads from configuration, read once by the edge. */
export type DocumentSettings = Pick<Config, 'documentTrashRetentionMs' | 'documentLimits'>;

/**
 * Where attachment bytes are kept, one object per key: the object storage adapter (platform/object-store.ts). The
 * bytes handed to it are already encrypted; the keys and the encryption are the domain's (attachments.ts).
 */
interface AttachmentObjects {
  putStream(key: string, body: Readable, size: number): Promise<void>;
  get(key: string): Promise<AsyncIterable<Buffer>>;
  /** A key already gone is not a failure. */
  removeMany(keys: string[]): Promise<void>;
}

export interface DocumentsDeps {
  settings: DocumentSettings;
  /** The app's parsed documents (platform/working-document-cache.ts). */
  workingDocuments: WorkingDocuments;
  attachmentObjects: AttachmentObjects;
  /** Wraps each attachment's data key. */
  masterKey: MasterKey;
}
