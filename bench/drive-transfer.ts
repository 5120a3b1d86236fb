// Drive transfer benchmark: simple upload/download of a 100 MB file and chunked upload/download of a 1 GB file,
// each next to a direct MinIO PUT/GET of the same bytes, and a byte-for-byte check of the 1 GB round trip.
//
//   node --import tsx bench/drive-transfer.ts
//
// Starts its own stack (PostgreSQL, Temporal, MinIO, worker, API) like test/setup/global.ts, unless
// FOLIO_BENCH_API_URL and FOLIO_BENCH_TOKEN name a running API (FOLIO_S3_* then reach its MinIO).
// FOLIO_BENCH_SIMPLE_BYTES (default 100000000) and FOLIO_BENCH_CHUNKED_BYTES (default 1000000000) set the sizes,
// FOLIO_BENCH_CONCURRENCY (default 4) the chunks in flight; FOLIO_BENCH_KEEP=1 keeps the stack's logs.
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { Readable } from 'node:stream';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { SCOPES } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { createDb } from '../platform/database.js';
import { createStorage } from '../platform/storage.js';
import { downloadChunked, uploadChunked } from '../test/support/folio-client.js';
import { say } from './support.js';

const SIMPLE_BYTES = Number(process.env.FOLIO_BENCH_SIMPLE_BYTES ?? 100_000_000);
const CHUNKED_BYTES = Number(process.env.FOLIO_BENCH_CHUNKED_BYTES ?? 1_000_000_000);
const CONCURRENCY = Number(process.env.FOLIO_BENCH_CONCURRENCY ?? 4);
const PART = 8 * 1024 * 1024;

interface Target {
  apiUrl: string;
  token: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  stop(): Promise<void>;
}

/** Pseudo-random bytes readable at any 16-byte-aligned offset (AES-CTR keystream), so 1 GB never sits in memory. */
const SEED = randomBytes(16);
function sourceBytes(offset: number, length: number): Buffer {
  const block = offset / 16;
  if (!Number.isInteger(block)) throw new Error('offsets are 16-byte aligned');
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(block), 8);
  return createCipheriv('aes-128-ctr', SEED, iv).update(Buffer.alloc(length));
}

async function startStack(): Promise<Target> {
  const stack = await startEphemeralStack({ label: 'bench', keep: Boolean(process.env.FOLIO_BENCH_KEEP), env: { FOLIO_LOG_LEVEL: process.env.FOLIO_LOG_LEVEL ?? 'warn' } });
  const knex = createDb(stack.databaseUrl);
  try {
    const workspace = await createWorkspace(knex, { name: 'bench', storageLimitBytes: 64 * 1024 ** 3 });
    const user = await createUser(knex, { workspaceUuid: workspace.uuid, email: `bench-${randomUUID()}@example.test` });
    const { access_token } = await issueAccessToken(knex, { workspaceUuid: workspace.uuid, userUuid: user.uuid, scopes: [...SCOPES], expiresInMs: 86_400_000 });
    const s3 = { endpoint: stack.env.FOLIO_S3_ENDPOINT!, accessKey: stack.env.FOLIO_S3_ACCESS_KEY!, secretKey: stack.env.FOLIO_S3_SECRET_KEY!, bucket: stack.env.FOLIO_S3_BUCKET!, region: 'us-east-1' };
    return { apiUrl: stack.apiUrl, token: access_token, s3, stop: stack.stop };
  } catch (error) {
    await stack.stop();
    throw error;
  } finally {
    await knex.destroy();
  }
}

function runningTarget(): Target {
  return {
    apiUrl: process.env.FOLIO_BENCH_API_URL!,
    token: process.env.FOLIO_BENCH_TOKEN!,
    s3: {
      endpoint: process.env.FOLIO_S3_ENDPOINT ?? 'http://127.0.0.1:9000',
      accessKey: process.env.FOLIO_S3_ACCESS_KEY ?? 'folio-dev',
      secretKey: process.env.FOLIO_S3_SECRET_KEY ?? 'folio-dev-secret',
      bucket: process.env.FOLIO_S3_BUCKET ?? 'folio',
      region: process.env.FOLIO_S3_REGION ?? 'us-east-1',
    },
    stop: async () => undefined,
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { seconds: (performance.now() - started) / 1000, value };
}

const rate = (bytes: number, seconds: number) => `${(bytes / 1e6 / seconds).toFixed(1).padStart(7)} MB/s  (${seconds.toFixed(2)} s)`;

async function pool(count: number, limit: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) await task(next++);
  }));
}

async function main() {
  const target = process.env.FOLIO_BENCH_API_URL && process.env.FOLIO_BENCH_TOKEN ? runningTarget() : await startStack();
  const storage = createStorage({ endpoint: target.s3.endpoint, region: target.s3.region, accessKey: target.s3.accessKey, secretKey: target.s3.secretKey, bucket: target.s3.bucket });
  const client = { baseUrl: target.apiUrl, token: target.token, concurrency: CONCURRENCY };
  const auth = { authorization: `Bearer ${target.token}` };
  const rows: [string, string][] = [];
  try {
    say(`Folio Drive transfer benchmark — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
    say(`simple ${SIMPLE_BYTES} bytes, chunked ${CHUNKED_BYTES} bytes, ${CONCURRENCY} chunks in flight\n`);

    // --- Simple, 100 MB -----------------------------------------------------------------------------------
    const simpleData = sourceBytes(0, SIMPLE_BYTES);
    const body = Buffer.from(JSON.stringify({ name: `simple-${randomUUID()}.bin`, content_type: 'application/octet-stream', data: simpleData.toString('base64') }));
    const upload = await timed(async () => {
      const response = await fetch(`${target.apiUrl}/v1/drive/files`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body });
      if (response.status !== 201) throw new Error(`simple upload answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { uuid: string };
    });
    rows.push(['simple upload (POST /v1/drive/files, base64 JSON)', rate(SIMPLE_BYTES, upload.seconds)]);
    const download = await timed(async () => {
      const response = await fetch(`${target.apiUrl}/v1/drive/files/${upload.value.uuid}/download`, { headers: auth });
      return response.text();
    });
    rows.push(['simple download (GET …/download, base64 JSON)', rate(SIMPLE_BYTES, download.seconds)]);
    if (!Buffer.from(JSON.parse(download.value).data, 'base64').equals(simpleData)) throw new Error('simple download differs');

    const directKey = `bench/${randomUUID()}`;
    const directPut = await timed(async () => {
      const url = await storage.presignedPutObject(target.s3.bucket, directKey, 3600);
      const response = await fetch(url, { method: 'PUT', body: simpleData });
      if (!response.ok) throw new Error(`direct PUT answered ${response.status}`);
    });
    rows.push(['  direct MinIO PUT, same bytes (one presigned PUT)', rate(SIMPLE_BYTES, directPut.seconds)]);
    const directGet = await timed(async () => {
      const url = await storage.presignedGetObject(target.s3.bucket, directKey, 3600);
      return Buffer.from(await (await fetch(url)).arrayBuffer());
    });
    rows.push(['  direct MinIO GET, same bytes (one presigned GET)', rate(SIMPLE_BYTES, directGet.seconds)]);
    await storage.removeObject(target.s3.bucket, directKey);

    // --- Chunked, 1 GB ------------------------------------------------------------------------------------
    const chunked = await timed(() =>
      uploadChunked(client, { name: `chunked-${randomUUID()}.bin`, contentType: 'application/octet-stream', size: CHUNKED_BYTES, source: sourceBytes }),
    );
    rows.push(['chunked upload (client AES-GCM, presigned part PUTs)', rate(CHUNKED_BYTES, chunked.seconds)]);
    let mismatches = 0;
    let received = 0;
    const chunkedDown = await timed(() =>
      downloadChunked(client, chunked.value.uuid, (plaintext, index) => {
        if (!plaintext.equals(sourceBytes(index * PART, plaintext.length))) mismatches++;
        received += plaintext.length;
      }),
    );
    rows.push(['chunked download (ranged GETs, client AES-GCM)', rate(CHUNKED_BYTES, chunkedDown.seconds)]);
    if (mismatches || received !== CHUNKED_BYTES) throw new Error(`1 GB round trip differs: ${mismatches} chunks, ${received} bytes`);

    const multipartKey = `bench/${randomUUID()}`;
    const parts = Math.ceil(CHUNKED_BYTES / PART);
    const partLength = (i: number) => Math.min(PART, CHUNKED_BYTES - i * PART);
    const directMultipart = await timed(async () => {
      const uploadId = await storage.initiateNewMultipartUpload(target.s3.bucket, multipartKey, {});
      const etags: { part: number; etag: string }[] = [];
      await pool(parts, CONCURRENCY, async (i) => {
        const url = await storage.presignedUrl('PUT', target.s3.bucket, multipartKey, 3600, { partNumber: String(i + 1), uploadId });
        const response = await fetch(url, { method: 'PUT', body: sourceBytes(i * PART, partLength(i)) });
        await response.arrayBuffer();
        etags.push({ part: i + 1, etag: response.headers.get('etag')!.replace(/"/g, '') });
      });
      await storage.completeMultipartUpload(target.s3.bucket, multipartKey, uploadId, etags.sort((a, b) => a.part - b.part));
    });
    rows.push(['  direct MinIO multipart PUT, same bytes and parts', rate(CHUNKED_BYTES, directMultipart.seconds)]);
    const directRanged = await timed(async () => {
      const url = await storage.presignedGetObject(target.s3.bucket, multipartKey, 3600);
      await pool(parts, CONCURRENCY, async (i) => {
        const response = await fetch(url, { headers: { range: `bytes=${i * PART}-${i * PART + partLength(i) - 1}` } });
        await response.arrayBuffer();
      });
    });
    rows.push(['  direct MinIO ranged GETs, same bytes and ranges', rate(CHUNKED_BYTES, directRanged.seconds)]);
    const directStream = await timed(async () => {
      const url = await storage.presignedGetObject(target.s3.bucket, multipartKey, 3600);
      const response = await fetch(url);
      for await (const piece of Readable.fromWeb(response.body as never)) void piece;
    });
    rows.push(['  direct MinIO GET, one stream', rate(CHUNKED_BYTES, directStream.seconds)]);
    await storage.removeObject(target.s3.bucket, multipartKey);

    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) say(`${label.padEnd(width)}  ${value}`);
    say(`\n1 GB chunked round trip: ${received} bytes downloaded, identical to the upload (${Math.ceil(CHUNKED_BYTES / PART)} chunks checked).`);
  } finally {
    await target.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
