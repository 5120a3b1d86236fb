// Drive bytes in object storage: one object per file version, written whole or by S3 multipart upload.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client as StorageClient } from 'minio';
import { chunkCiphertextSize, type ChunkLayout } from './crypto.js';

export interface ContentStore {
  storage: StorageClient;
  bucket: string;
}

/** One object per version: drive/<workspace_uuid>/<file_uuid>/<version_uuid>. */
export const storageKey = (workspaceUuid: string, fileUuid: string, versionUuid: string): string =>
  `drive/${workspaceUuid}/${fileUuid}/${versionUuid}`;

/** Lifetime of presigned part PUT URLs; a client asks again for parts it has not sent by then. */
const PART_URL_TTL_SECONDS = 3600;
/** Lifetime of the download_url; a client calls download_init again for a longer download. */
const DOWNLOAD_URL_TTL_SECONDS = 900;

export interface UploadedPart {
  part: number;
  etag: string;
  size: number;
}

const errorCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;
export const isNoSuchUpload = (error: unknown) => errorCode(error) === 'NoSuchUpload';
const isNotFound = (error: unknown) =>
  ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes(errorCode(error) ?? '');
const bareEtag = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

export async function startMultipart(store: ContentStore, key: string): Promise<string> {
  return store.storage.initiateNewMultipartUpload(store.bucket, key, {
    'Content-Type': 'application/octet-stream',
  });
}

export async function presignPartUrls(
  store: ContentStore,
  key: string,
  uploadId: string,
  partNumbers: number[],
) {
  const expiresAt = new Date(Date.now() + PART_URL_TTL_SECONDS * 1000).toISOString();
  return Promise.all(
    partNumbers.map(async (partNumber) => ({
      partNumber,
      url: await store.storage.presignedUrl('PUT', store.bucket, key, PART_URL_TTL_SECONDS, {
        partNumber: String(partNumber),
        uploadId,
      }),
      expiresAt,
    })),
  );
}

/**
 * Writes a whole object from a stream of known size. Through a presigned PUT rather than minio's putObject:
 * over plain HTTP that one hashes every byte twice (MD5 and the SHA-256 payload signature) and buffers 64 MiB
 * parts, which halves the simple upload's throughput; a presigned PUT is signed with UNSIGNED-PAYLOAD.
 */
export async function putWholeObject(
  store: ContentStore,
  key: string,
  body: Readable,
  size: number,
): Promise<void> {
  const url = new URL(await store.storage.presignedPutObject(store.bucket, key, 3600));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  await new Promise<void>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'PUT',
        headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8').on('data', (piece: string) => (answer += piece.slice(0, 1000)));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve()
            : reject(new Error(`storage PUT answered ${res.statusCode}: ${answer.slice(0, 300)}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    pipeline(body, req).catch(reject);
  });
}

export async function presignDownloadUrl(store: ContentStore, key: string): Promise<string> {
  return store.storage.presignedGetObject(store.bucket, key, DOWNLOAD_URL_TTL_SECONDS);
}

/** Every part S3 holds for the upload. minio declares listParts protected; it is the S3 ListParts call. */
export async function listUploadedParts(
  store: ContentStore,
  key: string,
  uploadId: string,
): Promise<UploadedPart[]> {
  const client = store.storage as unknown as {
    listParts(bucket: string, key: string, uploadId: string): Promise<UploadedPart[]>;
  };
  const parts = await client.listParts(store.bucket, key, uploadId);
  return parts.map((part) => ({ part: part.part, etag: bareEtag(part.etag), size: Number(part.size) }));
}

/**
 * Part numbers that keep an upload from completing: missing from the client's list or from storage, listed
 * twice, out of range, with an etag other than the stored one, or of the wrong ciphertext size.
 */
export function faultyParts(
  layout: ChunkLayout,
  declared: { part_number: number; etag: string }[],
  stored: UploadedPart[],
): number[] {
  const faulty = new Set<number>();
  const storedByNumber = new Map(stored.map((part) => [part.part, part]));
  const seen = new Set<number>();
  for (const { part_number: number, etag } of declared) {
    const part = storedByNumber.get(number);
    const outOfRange = number < 1 || number > layout.chunkCount;
    if (outOfRange || seen.has(number) || !part || part.etag !== bareEtag(etag)) faulty.add(number);
    seen.add(number);
  }
  for (let number = 1; number <= layout.chunkCount; number++) {
    const part = storedByNumber.get(number);
    if (!seen.has(number) || !part || part.size !== chunkCiphertextSize(layout, number - 1))
      faulty.add(number);
  }
  return [...faulty].sort((a, b) => a - b);
}

export async function completeMultipart(
  store: ContentStore,
  key: string,
  uploadId: string,
  parts: UploadedPart[],
): Promise<void> {
  const ordered = [...parts]
    .sort((a, b) => a.part - b.part)
    .map((part) => ({ part: part.part, etag: part.etag }));
  await store.storage.completeMultipartUpload(store.bucket, key, uploadId, ordered);
}

export async function objectSize(store: ContentStore, key: string): Promise<number | undefined> {
  try {
    return (await store.storage.statObject(store.bucket, key)).size;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Removes whatever storage holds for a version: its multipart upload (the known id and any other left by a
 * crashed writer for the same key) and its object. Idempotent: what is gone stays gone.
 */
export async function discardStoredObject(
  store: ContentStore,
  key: string,
  uploadId: string | null,
): Promise<void> {
  if (uploadId) await abortQuietly(store, key, uploadId);
  for (let round = 0; round < 100; round++) {
    const stray = await store.storage.findUploadId(store.bucket, key);
    if (!stray) break;
    await abortQuietly(store, key, stray);
  }
  await store.storage.removeObject(store.bucket, key);
}

async function abortQuietly(store: ContentStore, key: string, uploadId: string): Promise<void> {
  try {
    await store.storage.abortMultipartUpload(store.bucket, key, uploadId);
  } catch (error) {
    if (!isNoSuchUpload(error)) throw error;
  }
}
