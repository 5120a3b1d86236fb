// The tests' chunked-transfer client: @folio/client (clients/typescript) with the test's token, the API the suite
// started (each replica in turn), and every bearer token remembered for the log scan. The function names are
// those the tests used before the package existed, so each test keeps its assertions as they were.
import { FolioClient, type ByteSource, type TransferOptions } from '../../clients/typescript/src/index.js';
import type { ReplaceInitiate, UploadInitiate, UploadState } from '../../clients/typescript/src/types.js';
import { apiUrl } from './api.js';
import { rememberBearerToken } from './log-scan.js';
import { checkApiResponse } from './openapi-check.js';

export { ApiError, contentHash, encryptChunk, type ByteSource } from '../../clients/typescript/src/index.js';

export interface ClientOptions {
  token: string;
  /** The API base address; defaults to the suite's API. */
  baseUrl?: string;
  /** Chunks in flight at once. */
  concurrency?: number;
  /** The largest transfer that sends its content hash with complete (the client's default otherwise). */
  contentHashMaxBytes?: number;
}

/** The client a test uses: the test's token, the suite's API, every answer checked against the OpenAPI document. */
export function folioClient(options: ClientOptions): FolioClient {
  rememberBearerToken(options.token);
  return new FolioClient({
    baseUrl: options.baseUrl ?? apiUrl(),
    token: options.token,
    window: options.concurrency,
    contentHashMaxBytes: options.contentHashMaxBytes,
    onResponse: checkApiResponse,
  });
}

/** What an initiate (upload or replace) answers, with the version uuid the chunk AAD binds. */
export interface Transfer {
  versionUuid: string;
  dataKey: string;
  chunkSizeBytes: number;
  chunkCount: number;
  storageUploadId: string;
}

export interface Part {
  part_number: number;
  etag: string;
}

export function api<T = any>(
  options: ClientOptions,
  method: string,
  path: string,
  json?: unknown,
): Promise<T> {
  return folioClient(options).request<T>(method, path, json);
}

function transferOf(versionUuid: string, initiate: UploadInitiate | ReplaceInitiate): Transfer {
  return {
    versionUuid,
    dataKey: initiate.data_key,
    chunkSizeBytes: initiate.chunk_size_bytes,
    chunkCount: initiate.chunk_count,
    storageUploadId: initiate.storage_upload_id,
  };
}

export async function initiateUpload(
  options: ClientOptions,
  input: { name: string; contentType: string; size: number; folderUuid?: string | null },
): Promise<Transfer & { fileUuid: string }> {
  const initiate = await folioClient(options).initiateUpload(input);
  // The first version of a file takes the file's uuid (docs/drive-encryption.md § 2).
  return { fileUuid: initiate.file_uuid, ...transferOf(initiate.file_uuid, initiate) };
}

export async function initiateReplace(
  options: ClientOptions,
  fileUuid: string,
  input: { size: number; contentType?: string; ifMatch?: string },
): Promise<Transfer> {
  const initiate = await folioClient(options).initiateReplace(fileUuid, input);
  return transferOf(initiate.version_uuid, initiate);
}

/**
 * Encrypts and PUTs every chunk of a staged transfer; returns the parts for complete. `partUrlsPath` is
 * /v1/drive/uploads/{uuid}/part_urls or /v1/drive/files/{uuid}/replace/part_urls: it names the transfer.
 */
export async function sendChunks(
  options: ClientOptions,
  partUrlsPath: string,
  transfer: Transfer,
  size: number,
  source: ByteSource,
  transferOptions: TransferOptions = {},
): Promise<Part[]> {
  const [, kind, fileUuid] = /^\/v1\/drive\/(uploads|files)\/([^/]+)\//.exec(partUrlsPath) ?? [];
  if (!kind || !fileUuid) throw new Error(`sendChunks: ${partUrlsPath} is not a part_urls path`);
  const state: UploadState = {
    format: 'folio-upload-state-v1',
    kind: kind === 'uploads' ? 'upload' : 'replace',
    file_uuid: fileUuid,
    version_uuid: transfer.versionUuid,
    data_key: transfer.dataKey,
    chunk_size_bytes: transfer.chunkSizeBytes,
    chunk_count: transfer.chunkCount,
    plaintext_size_bytes: size,
    parts: {},
  };
  return (await folioClient(options).sendParts(state, source, transferOptions)).parts;
}

/** Upload initiate, every chunk, complete. Returns the completed drive_file. */
export function uploadChunked(
  options: ClientOptions,
  input: { name: string; contentType: string; size: number; source: ByteSource; folderUuid?: string | null },
): Promise<any> {
  return folioClient(options).upload(input);
}

/** Replace initiate, every chunk, complete. Returns the updated drive_file. */
export function replaceChunked(
  options: ClientOptions,
  fileUuid: string,
  input: { size: number; source: ByteSource; contentType?: string; ifMatch?: string },
): Promise<any> {
  return folioClient(options).replace(fileUuid, input);
}

/** Chunked download: each decrypted chunk to `sink` in order; without a sink, the whole plaintext. */
export async function downloadChunked(
  options: ClientOptions,
  fileUuid: string,
  sink?: (plaintext: Buffer, index: number) => void | Promise<void>,
): Promise<Buffer | undefined> {
  const client = folioClient(options);
  if (sink) {
    await client.downloadTo(fileUuid, sink);
    return undefined;
  }
  return client.download(fileUuid);
}
