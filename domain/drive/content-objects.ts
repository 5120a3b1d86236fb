// Drive bytes in object storage: one object per file version, written whole or by S3 multipart upload. The rules live
// here (where an object is kept, how long a URL lives, which parts keep an upload from completing); the calls to
// storage go through the ObjectStore each process builds (platform/object-store.ts) and hands in with ContentDeps.
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { chunkCiphertextSize, type ChunkLayout } from './crypto.js';

export interface UploadedPart {
  part: number;
  /** Without quotes. */
  etag: string;
  size: number;
}

/** What Drive (and the email raw store) ask of object storage; keys are those of the rules below. */
export interface ObjectStore {
  /** Opens a multipart upload of the key; answers its upload id. */
  startMultipart(key: string): Promise<string>;
  presignPartUrl(key: string, uploadId: string, partNumber: number, ttlSeconds: number): Promise<string>;
  presignGetUrl(key: string, ttlSeconds: number): Promise<string>;
  /** Every part stored for the upload, or undefined once it is no longer open (completed or aborted). */
  listParts(key: string, uploadId: string): Promise<UploadedPart[] | undefined>;
  completeMultipart(key: string, uploadId: string, parts: { part: number; etag: string }[]): Promise<void>;
  /**
   * Writes one part of a multipart upload from the pieces of its bytes; answers its etag, without quotes. Once it
   * answers, the pieces are no longer read (the caller may write into them again).
   */
  putPart(key: string, uploadId: string, partNumber: number, body: Buffer[]): Promise<string>;
  /** `length` bytes of the object from `offset`. */
  getRange(key: string, offset: number, length: number): Promise<Buffer>;
  /** Writes a whole object of `size` bytes, from a stream or from the pieces of it held in memory. */
  putStream(key: string, body: Readable | Buffer[], size: number): Promise<void>;
  /** Writes a small object held in memory. */
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Readable>;
  /** The object's size, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  remove(key: string): Promise<void>;
  /** Removes the objects; one already gone is not a failure. */
  removeMany(keys: string[]): Promise<void>;
  /** Removes the object and every multipart upload of the key (the known one and strays). Idempotent. */
  discard(key: string, uploadId: string | null): Promise<void>;
}

/** Object storage and the database: what the lifecycle activities and every content operation need. */
export interface StoredContent {
  db: Knex;
  objects: ObjectStore;
}

/** One object per version: drive/<workspace_uuid>/<file_uuid>/<version_uuid>. */
export const storageKey = (workspaceUuid: string, fileUuid: string, versionUuid: string): string =>
  `drive/${workspaceUuid}/${fileUuid}/${versionUuid}`;

/** Lifetime of presigned part PUT URLs; a client asks again for parts it has not sent by then. */
const PART_URL_TTL_SECONDS = 3600;
/** Lifetime of the download_url; a client calls download_init again for a longer download. */
export const DOWNLOAD_URL_TTL_SECONDS = 900;

/** A client may send an etag as S3 printed it, quoted (or weak); it is compared bare. */
const bareEtag = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

export async function presignPartUrls(
  store: ObjectStore,
  key: string,
  uploadId: string,
  partNumbers: number[],
) {
  const expiresAt = new Date(Date.now() + PART_URL_TTL_SECONDS * 1000).toISOString();
  return Promise.all(
    partNumbers.map(async (partNumber) => ({
      partNumber,
      url: await store.presignPartUrl(key, uploadId, partNumber, PART_URL_TTL_SECONDS),
      expiresAt,
    })),
  );
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
