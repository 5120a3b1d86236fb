// The object storage adapter: S3 (MinIO locally) calls on the one bucket Folio keeps its bytes in, built once by each
// process's composition root from its minio client and handed to domain code, which declares what it needs
// (domain/drive/content-objects.ts ObjectStore) and keeps the rules: key layout, part checks, lifetimes of URLs.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client as MinioClient } from 'minio';

/** A part S3 holds for a multipart upload, its etag without quotes. */
interface StoredPart {
  part: number;
  etag: string;
  size: number;
}

/** Keys one DeleteObjects request may name (the S3 limit). */
const REMOVE_OBJECTS_PER_REQUEST = 1000;
/** The lifetime of the presigned PUT a whole-object write goes through, used at once. */
const WHOLE_OBJECT_PUT_TTL_SECONDS = 3600;

const errorCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;
const isNoSuchUpload = (error: unknown) => errorCode(error) === 'NoSuchUpload';
const isNotFound = (error: unknown) =>
  ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes(errorCode(error) ?? '');
/** S3 quotes etags on the wire (and a weak one carries W/); they are compared bare. */
const bareEtag = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

export class S3ObjectStore {
  constructor(
    private readonly client: MinioClient,
    private readonly bucket: string,
  ) {}

  async startMultipart(key: string): Promise<string> {
    return this.client.initiateNewMultipartUpload(this.bucket, key, {
      'Content-Type': 'application/octet-stream',
    });
  }

  async presignPartUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    ttlSeconds: number,
  ): Promise<string> {
    return this.client.presignedUrl('PUT', this.bucket, key, ttlSeconds, {
      partNumber: String(partNumber),
      uploadId,
    });
  }

  async presignGetUrl(key: string, ttlSeconds: number): Promise<string> {
    return this.client.presignedGetObject(this.bucket, key, ttlSeconds);
  }

  /** Every part S3 holds for the upload (ListParts, which minio declares protected), or undefined once it is closed. */
  async listParts(key: string, uploadId: string): Promise<StoredPart[] | undefined> {
    const client = this.client as unknown as {
      listParts(bucket: string, key: string, uploadId: string): Promise<StoredPart[]>;
    };
    try {
      const parts = await client.listParts(this.bucket, key, uploadId);
      return parts.map((part) => ({ part: part.part, etag: bareEtag(part.etag), size: Number(part.size) }));
    } catch (error) {
      if (isNoSuchUpload(error)) return undefined;
      throw error;
    }
  }

  async completeMultipart(
    key: string,
    uploadId: string,
    parts: { part: number; etag: string }[],
  ): Promise<void> {
    // S3 refuses a list out of ascending order.
    const ordered = [...parts]
      .sort((a, b) => a.part - b.part)
      .map((part) => ({ part: part.part, etag: part.etag }));
    await this.client.completeMultipartUpload(this.bucket, key, uploadId, ordered);
  }

  /**
   * Writes a whole object from a stream of known size. Through a presigned PUT rather than minio's putObject:
   * over plain HTTP that one hashes every byte twice (MD5 and the SHA-256 payload signature) and buffers 64 MiB
   * parts, which halves the simple upload's throughput; a presigned PUT is signed with UNSIGNED-PAYLOAD.
   */
  async putStream(key: string, body: Readable | Buffer[], size: number): Promise<void> {
    const url = await this.client.presignedPutObject(this.bucket, key, WHOLE_OBJECT_PUT_TTL_SECONDS);
    await this.putThroughUrl(new URL(url), body, size);
  }

  /** Writes one part of a multipart upload the server fills itself (a streamed simple upload), as putStream does. */
  async putPart(key: string, uploadId: string, partNumber: number, body: Buffer[]): Promise<string> {
    const url = await this.presignPartUrl(key, uploadId, partNumber, WHOLE_OBJECT_PUT_TTL_SECONDS);
    const size = body.reduce((total, piece) => total + piece.length, 0);
    return bareEtag(await this.putThroughUrl(new URL(url), body, size));
  }

  /** `length` bytes of the object from `offset`. */
  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for await (const piece of await this.client.getPartialObject(this.bucket, key, offset, length))
      pieces.push(piece as Buffer);
    return Buffer.concat(pieces);
  }

  /**
   * A presigned PUT of `size` bytes; answers the ETag storage gave them. Bytes already in memory are written as they
   * are: the request goes out with its headers in one write, without a stream pipeline (whose set-up costs a small
   * upload more than its bytes do).
   */
  private async putThroughUrl(url: URL, body: Readable | Buffer[], size: number): Promise<string> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<string>((resolve, reject) => {
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
              ? resolve(String(res.headers.etag ?? ''))
              : reject(new Error(`storage PUT answered ${res.statusCode}: ${answer.slice(0, 300)}`)),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body instanceof Readable) {
        pipeline(body, req).catch(reject);
        return;
      }
      for (const piece of body) req.write(piece);
      req.end();
    });
  }

  /** Writes a small object held in memory (a thumbnail, a raw message). */
  async put(key: string, data: Buffer): Promise<void> {
    await this.client.putObject(this.bucket, key, data, data.length, {
      'Content-Type': 'application/octet-stream',
    });
  }

  async get(key: string): Promise<Readable> {
    return this.client.getObject(this.bucket, key);
  }

  /** The object's size in bytes, or undefined when there is none. */
  async size(key: string): Promise<number | undefined> {
    try {
      return (await this.client.statObject(this.bucket, key)).size;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, key);
  }

  /** Removes the objects; a key already gone is not a failure, any other refusal throws. */
  async removeMany(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += REMOVE_OBJECTS_PER_REQUEST) {
      const results = await this.client.removeObjects(
        this.bucket,
        keys.slice(start, start + REMOVE_OBJECTS_PER_REQUEST),
      );
      const failures = results.filter((result) => {
        const code =
          (result as { Code?: string; Error?: { Code?: string } } | null)?.Code ?? result?.Error?.Code;
        return code !== undefined && code !== 'NoSuchKey';
      });
      if (failures.length) throw new Error(`object storage refused to remove ${failures.length} objects`);
    }
  }

  /**
   * Removes whatever storage holds at a key: its multipart upload (the known id and any other left by a crashed
   * writer for the same key) and its object. Idempotent: what is gone stays gone.
   */
  async discard(key: string, uploadId: string | null): Promise<void> {
    if (uploadId) await this.abortQuietly(key, uploadId);
    for (let round = 0; round < 100; round++) {
      const stray = await this.client.findUploadId(this.bucket, key);
      if (!stray) break;
      await this.abortQuietly(key, stray);
    }
    await this.client.removeObject(this.bucket, key);
  }

  private async abortQuietly(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.abortMultipartUpload(this.bucket, key, uploadId);
    } catch (error) {
      if (!isNoSuchUpload(error)) throw error;
    }
  }
}
