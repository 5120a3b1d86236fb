// A chunked-transfer client written only from spec/drive.md and docs/drive-encryption.md: WebCrypto AES-GCM,
// PUTs to presigned part URLs, ranged GETs on download_url. No server code is imported, on purpose.
import type { webcrypto } from 'node:crypto';
import { rememberBearerToken } from './log-scan.js';
import { apiUrl } from './api.js';

export interface ClientOptions {
  token: string;
  /** The API base address; defaults to FOLIO_API_URL. */
  baseUrl?: string;
  /** Chunks in flight at once. */
  concurrency?: number;
}

/** Plaintext bytes [offset, offset + length) of the file being sent. */
export type ByteSource = Buffer | ((offset: number, length: number) => Buffer | Promise<Buffer>);

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
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

const TAG_BITS = 128;
const NONCE_BYTES = 12;
const OVERHEAD = 28;
const PART_URL_BATCH = 1000;

const baseOf = (options: ClientOptions) => options.baseUrl ?? apiUrl();

export async function api<T = any>(options: ClientOptions, method: string, path: string, json?: unknown): Promise<T> {
  rememberBearerToken(options.token);
  const response = await fetch(baseOf(options) + path, {
    method,
    headers: { authorization: `Bearer ${options.token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new ApiError(response.status, body, `${method} ${path}`);
  return body as T;
}

const aad = (versionUuid: string, index: number, count: number) =>
  new TextEncoder().encode(`folio-drive-chunk-v1:${versionUuid.toLowerCase()}:${index}:${count}`);

const importKey = (dataKey: string, usage: 'encrypt' | 'decrypt') =>
  crypto.subtle.importKey('raw', Buffer.from(dataKey, 'base64'), { name: 'AES-GCM' }, false, [usage]);

const plainLength = (size: number, transfer: { chunkSizeBytes: number; chunkCount: number }, index: number) =>
  index < transfer.chunkCount - 1 ? transfer.chunkSizeBytes : size - (transfer.chunkCount - 1) * transfer.chunkSizeBytes;

async function read(source: ByteSource, offset: number, length: number): Promise<Buffer> {
  return Buffer.isBuffer(source) ? source.subarray(offset, offset + length) : source(offset, length);
}

/** Runs task(0..count-1) with at most `limit` in flight. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(workers);
}

/** Encrypts chunk i as nonce || AES-GCM ciphertext || tag. */
export async function encryptChunk(key: webcrypto.CryptoKey, versionUuid: string, index: number, count: number, plaintext: Uint8Array): Promise<Buffer> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: aad(versionUuid, index, count), tagLength: TAG_BITS }, key, plaintext);
  return Buffer.concat([nonce, new Uint8Array(sealed)]);
}

/**
 * Encrypts and PUTs every chunk of a staged transfer through presigned part URLs; returns the parts for
 * complete. `partUrlsPath` is /v1/drive/uploads/{uuid}/part_urls or /v1/drive/files/{uuid}/replace/part_urls.
 */
export async function sendChunks(options: ClientOptions, partUrlsPath: string, transfer: Transfer, size: number, source: ByteSource): Promise<Part[]> {
  const key = await importKey(transfer.dataKey, 'encrypt');
  const urls = new Map<number, string>();
  for (let first = 1; first <= transfer.chunkCount; first += PART_URL_BATCH) {
    const numbers = Array.from({ length: Math.min(PART_URL_BATCH, transfer.chunkCount - first + 1) }, (_, i) => first + i);
    const answer = await api<{ part_urls: { part_number: number; url: string }[] }>(options, 'POST', partUrlsPath, { part_numbers: numbers });
    for (const part of answer.part_urls) urls.set(part.part_number, part.url);
  }
  const parts: Part[] = [];
  await pool(transfer.chunkCount, options.concurrency ?? 4, async (index) => {
    const plaintext = await read(source, index * transfer.chunkSizeBytes, plainLength(size, transfer, index));
    const frame = await encryptChunk(key, transfer.versionUuid, index, transfer.chunkCount, plaintext);
    const response = await fetch(urls.get(index + 1)!, { method: 'PUT', body: frame });
    if (!response.ok) throw new ApiError(response.status, await response.text(), `PUT part ${index + 1}`);
    await response.arrayBuffer();
    parts.push({ part_number: index + 1, etag: response.headers.get('etag')! });
  });
  return parts.sort((a, b) => a.part_number - b.part_number);
}

export async function initiateUpload(
  options: ClientOptions,
  input: { name: string; contentType: string; size: number; folderUuid?: string | null },
): Promise<Transfer & { fileUuid: string }> {
  const body = await api(options, 'POST', '/v1/drive/uploads', {
    name: input.name,
    content_type: input.contentType,
    plaintext_size_bytes: input.size,
    ...(input.folderUuid !== undefined ? { folder_uuid: input.folderUuid } : {}),
  });
  return {
    fileUuid: body.file_uuid,
    versionUuid: body.file_uuid, // The first version of a file takes the file's uuid.
    dataKey: body.data_key,
    chunkSizeBytes: body.chunk_size_bytes,
    chunkCount: body.chunk_count,
    storageUploadId: body.storage_upload_id,
  };
}

/** Upload initiate, every chunk, complete. Returns the completed drive_file. */
export async function uploadChunked(
  options: ClientOptions,
  input: { name: string; contentType: string; size: number; source: ByteSource; folderUuid?: string | null },
): Promise<any> {
  const transfer = await initiateUpload(options, input);
  const parts = await sendChunks(options, `/v1/drive/uploads/${transfer.fileUuid}/part_urls`, transfer, input.size, input.source);
  return api(options, 'POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, { parts });
}

export async function initiateReplace(options: ClientOptions, fileUuid: string, input: { size: number; contentType?: string }): Promise<Transfer> {
  const body = await api(options, 'POST', `/v1/drive/files/${fileUuid}/replace`, {
    plaintext_size_bytes: input.size,
    ...(input.contentType ? { content_type: input.contentType } : {}),
  });
  return {
    versionUuid: body.version_uuid,
    dataKey: body.data_key,
    chunkSizeBytes: body.chunk_size_bytes,
    chunkCount: body.chunk_count,
    storageUploadId: body.storage_upload_id,
  };
}

/** Replace initiate, every chunk, complete. Returns the updated drive_file. */
export async function replaceChunked(
  options: ClientOptions,
  fileUuid: string,
  input: { size: number; source: ByteSource; contentType?: string },
): Promise<any> {
  const transfer = await initiateReplace(options, fileUuid, input);
  const parts = await sendChunks(options, `/v1/drive/files/${fileUuid}/replace/part_urls`, transfer, input.size, input.source);
  return api(options, 'POST', `/v1/drive/files/${fileUuid}/replace/complete`, { parts });
}

/**
 * Chunked download: download_init, then one ranged GET per chunk (chunk i starts at i × (chunk_size_bytes + 28)),
 * each decrypted and handed to `sink` in order. Without a sink, returns the whole plaintext.
 */
export async function downloadChunked(
  options: ClientOptions,
  fileUuid: string,
  sink?: (plaintext: Buffer, index: number) => void | Promise<void>,
): Promise<Buffer | undefined> {
  const init = await api(options, 'GET', `/v1/drive/files/${fileUuid}/download_init`);
  const transfer = { chunkSizeBytes: init.chunk_size_bytes as number, chunkCount: init.chunk_count as number };
  const size = init.ciphertext_size_bytes - OVERHEAD * transfer.chunkCount;
  const key = await importKey(init.data_key, 'decrypt');
  const collected: Buffer[] = [];
  const window = options.concurrency ?? 4;
  for (let first = 0; first < transfer.chunkCount; first += window) {
    const indexes = Array.from({ length: Math.min(window, transfer.chunkCount - first) }, (_, i) => first + i);
    const plaintexts = await Promise.all(
      indexes.map(async (index) => {
        const start = index * (transfer.chunkSizeBytes + OVERHEAD);
        const end = start + plainLength(size, transfer, index) + OVERHEAD - 1;
        const response = await fetch(init.download_url, { headers: { range: `bytes=${start}-${end}` } });
        if (response.status !== 206) throw new ApiError(response.status, await response.text(), `GET chunk ${index}`);
        const frame = new Uint8Array(await response.arrayBuffer());
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: frame.subarray(0, NONCE_BYTES), additionalData: aad(init.version_uuid, index, transfer.chunkCount), tagLength: TAG_BITS },
          key,
          frame.subarray(NONCE_BYTES),
        );
        return Buffer.from(plain);
      }),
    );
    for (const [offset, plaintext] of plaintexts.entries()) {
      if (sink) await sink(plaintext, first + offset);
      else collected.push(plaintext);
    }
  }
  return sink ? undefined : Buffer.concat(collected);
}
