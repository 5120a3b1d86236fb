// @folio/client: a typed client for Folio's Drive and Documents APIs (README.md).
export {
  contentTag,
  DEFAULT_CONTENT_HASH_MAX_BYTES,
  FolioClient,
  type FolioClientOptions,
  type UploadInput,
  type ReplaceInput,
} from './client.js';
export {
  ApiError,
  DEFAULT_RETRY,
  type CallOptions,
  type HttpOptions,
  type OperationCaller,
  type OperationInput,
  type OperationSpec,
  type RequestOptions,
  type RetryPolicy,
} from './http.js';
export { FolioApi, type ErrorCode } from './operations.js';
export {
  fileSource,
  readState,
  type ByteSource,
  type DownloadOptions,
  type TransferOptions,
} from './transfer.js';
export { CHUNK_OVERHEAD, chunkAad, decryptChunk, encryptChunk, importChunkKey } from './chunks.js';
export {
  CONTENT_HASH_BLOCK_BYTES,
  ContentHashBuilder,
  contentHash,
  type HashSource,
} from './content-hash.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
} from './webhooks.js';
export type * from './types.js';
export {
  downloadToFile,
  mirrorFolder,
  MIRROR_STATE_FILE,
  type MirrorOptions,
  type MirrorResult,
} from './mirror.js';
