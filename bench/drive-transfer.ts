// Drive transfer benchmark: simple upload/download of a 100 MB file, each next to a direct MinIO PUT/GET of the same
// bytes, and the chunked transfer through @folio/client (clients/typescript) next to a direct MinIO multipart PUT
// and ranged GETs of the same parts with the same concurrency (issue 12: ≥ 0.9×), with the round trip checked
// byte for byte. Then what verifying a content_hash costs at complete (docs/extensions.md § Content hash): the same
// upload completed with and without one, the verification's rate beside a direct MinIO GET of the object.
//
//   node --import tsx bench/drive-transfer.ts
//
// Starts its own stack (PostgreSQL, Temporal, MinIO, worker, API) like test/setup/global.ts, unless
// FOLIO_BENCH_API_URL and FOLIO_BENCH_TOKEN name a running API (FOLIO_S3_* then reach its MinIO).
// FOLIO_BENCH_SIMPLE_BYTES (default 100000000) and FOLIO_BENCH_CHUNKED_BYTES (default 300000000; 1000000000 for
// the 1 GB run) set the sizes, FOLIO_BENCH_CONCURRENCY (default 4) the chunks in flight; FOLIO_BENCH_KEEP=1 keeps
// the stack's logs.
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { Readable } from 'node:stream';
import { FolioClient, type UploadState } from '../clients/typescript/src/index.js';
import { createStorage } from '../platform/storage.js';
import { chunkLayout, decryptChunks, encryptChunks, generateDataKey } from '../domain/drive/crypto.js';
import { benchTarget } from './stack.js';
import { say } from './support.js';

const SIMPLE_BYTES = Number(process.env.FOLIO_BENCH_SIMPLE_BYTES ?? 100_000_000);
const CHUNKED_BYTES = Number(process.env.FOLIO_BENCH_CHUNKED_BYTES ?? 300_000_000);
const CONCURRENCY = Number(process.env.FOLIO_BENCH_CONCURRENCY ?? 4);
const PART = 8 * 1024 * 1024;

/** Pseudo-random bytes readable at any 16-byte-aligned offset (AES-CTR keystream), so 1 GB never sits in memory. */
const SEED = randomBytes(16);
function sourceBytes(offset: number, length: number): Buffer {
  const block = offset / 16;
  if (!Number.isInteger(block)) throw new Error('offsets are 16-byte aligned');
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(block), 8);
  return createCipheriv('aes-128-ctr', SEED, iv).update(Buffer.alloc(length));
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { seconds: (performance.now() - started) / 1000, value };
}

const rate = (bytes: number, seconds: number) =>
  `${(bytes / 1e6 / seconds).toFixed(1).padStart(7)} MB/s  (${seconds.toFixed(2)} s)`;

async function pool(count: number, limit: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function main() {
  const target = await benchTarget('bench');
  const storage = createStorage({
    endpoint: target.s3.endpoint,
    region: target.s3.region,
    accessKey: target.s3.accessKey,
    secretKey: target.s3.secretKey,
    bucket: target.s3.bucket,
  });
  const client = new FolioClient({ baseUrl: target.apiUrl, token: target.token, window: CONCURRENCY });
  const auth = { authorization: `Bearer ${target.token}` };
  const rows: [string, string][] = [];
  try {
    say(
      `Folio Drive transfer benchmark — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
    );
    say(`simple ${SIMPLE_BYTES} bytes, chunked ${CHUNKED_BYTES} bytes, ${CONCURRENCY} chunks in flight\n`);

    // --- Simple, 100 MB -----------------------------------------------------------------------------------
    const simpleData = sourceBytes(0, SIMPLE_BYTES);
    const body = Buffer.from(
      JSON.stringify({
        name: `simple-${randomUUID()}.bin`,
        content_type: 'application/octet-stream',
        data: simpleData.toString('base64'),
      }),
    );
    const upload = await timed(async () => {
      const response = await fetch(`${target.apiUrl}/v1/drive/files`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body,
      });
      if (response.status !== 201)
        throw new Error(`simple upload answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { uuid: string };
    });
    rows.push(['simple upload (POST /v1/drive/files, base64 JSON)', rate(SIMPLE_BYTES, upload.seconds)]);
    const download = await timed(async () => {
      const response = await fetch(`${target.apiUrl}/v1/drive/files/${upload.value.uuid}/download`, {
        headers: auth,
      });
      return response.text();
    });
    rows.push(['simple download (GET …/download, base64 JSON)', rate(SIMPLE_BYTES, download.seconds)]);
    if (!Buffer.from(JSON.parse(download.value).data, 'base64').equals(simpleData))
      throw new Error('simple download differs');

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

    // The limit of each simple route on this machine, in this run: its unavoidable work done in one process with no
    // HTTP to the API or database in between — JSON, base64 and AES-GCM in the at-rest layout — plus the direct MinIO
    // transfer of the same bytes.
    const layout = chunkLayout(SIMPLE_BYTES);
    const dataKey = generateDataKey();
    const uploadWork = await timed(async () => {
      const data = Buffer.from((JSON.parse(body.toString('utf8')) as { data: string }).data, 'base64');
      return [...encryptChunks(dataKey, randomUUID(), layout, data)];
    });
    const versionUuid = randomUUID();
    const ciphertext = [...encryptChunks(dataKey, versionUuid, layout, simpleData)];
    const downloadWork = await timed(async () => {
      const pieces: Buffer[] = [];
      for await (const piece of decryptChunks(
        (async function* () {
          yield* ciphertext;
        })(),
        dataKey,
        versionUuid,
        layout,
      ))
        pieces.push(piece);
      return JSON.stringify({ data: Buffer.concat(pieces).toString('base64') }).length;
    });
    const uploadLimit = uploadWork.seconds + directPut.seconds;
    const downloadLimit = downloadWork.seconds + directGet.seconds;
    rows.push([
      '  limit: parse + decode + encrypt in-process, then the direct PUT',
      `${rate(SIMPLE_BYTES, uploadLimit)}  → upload at ${(uploadLimit / upload.seconds).toFixed(2)}× it (target ≥ 0.5×)`,
    ]);
    rows.push([
      '  limit: the direct GET, then decrypt + encode in-process',
      `${rate(SIMPLE_BYTES, downloadLimit)}  → download at ${(downloadLimit / download.seconds).toFixed(2)}× it (target ≥ 0.5×)`,
    ]);

    // --- Chunked, through @folio/client --------------------------------------------------------------------
    const chunked = await timed(() =>
      client.upload({
        name: `chunked-${randomUUID()}.bin`,
        contentType: 'application/octet-stream',
        size: CHUNKED_BYTES,
        source: sourceBytes,
      }),
    );
    rows.push([
      'chunked upload (@folio/client: AES-GCM, presigned part PUTs)',
      rate(CHUNKED_BYTES, chunked.seconds),
    ]);
    // Timed with a sink that only counts (AES-GCM already authenticates every chunk); compared byte for byte after.
    let received = 0;
    const chunkedDown = await timed(() =>
      client.downloadTo(chunked.value.uuid, (plaintext) => void (received += plaintext.length)),
    );
    rows.push([
      'chunked download (@folio/client: ranged GETs, AES-GCM)',
      rate(CHUNKED_BYTES, chunkedDown.seconds),
    ]);
    let mismatches = 0;
    await client.downloadTo(chunked.value.uuid, (plaintext, index) => {
      if (!plaintext.equals(sourceBytes(index * PART, plaintext.length))) mismatches++;
    });
    if (mismatches || received !== CHUNKED_BYTES)
      throw new Error(`chunked round trip differs: ${mismatches} chunks, ${received} bytes`);

    const multipartKey = `bench/${randomUUID()}`;
    const parts = Math.ceil(CHUNKED_BYTES / PART);
    const partLength = (i: number) => Math.min(PART, CHUNKED_BYTES - i * PART);
    const directMultipart = await timed(async () => {
      const uploadId = await storage.initiateNewMultipartUpload(target.s3.bucket, multipartKey, {});
      const etags: { part: number; etag: string }[] = [];
      await pool(parts, CONCURRENCY, async (i) => {
        const url = await storage.presignedUrl('PUT', target.s3.bucket, multipartKey, 3600, {
          partNumber: String(i + 1),
          uploadId,
        });
        const response = await fetch(url, { method: 'PUT', body: sourceBytes(i * PART, partLength(i)) });
        await response.arrayBuffer();
        etags.push({ part: i + 1, etag: response.headers.get('etag')!.replace(/"/g, '') });
      });
      await storage.completeMultipartUpload(
        target.s3.bucket,
        multipartKey,
        uploadId,
        etags.sort((a, b) => a.part - b.part),
      );
    });
    rows.push([
      '  direct MinIO multipart PUT, same bytes, parts and concurrency',
      rate(CHUNKED_BYTES, directMultipart.seconds),
    ]);
    const directRanged = await timed(async () => {
      const url = await storage.presignedGetObject(target.s3.bucket, multipartKey, 3600);
      await pool(parts, CONCURRENCY, async (i) => {
        const response = await fetch(url, {
          headers: { range: `bytes=${i * PART}-${i * PART + partLength(i) - 1}` },
        });
        await response.arrayBuffer();
      });
    });
    rows.push([
      '  direct MinIO ranged GETs, same bytes, ranges and concurrency',
      rate(CHUNKED_BYTES, directRanged.seconds),
    ]);
    const directStream = await timed(async () => {
      const url = await storage.presignedGetObject(target.s3.bucket, multipartKey, 3600);
      const response = await fetch(url);
      for await (const piece of Readable.fromWeb(response.body as never)) void piece;
    });
    rows.push(['  direct MinIO GET, one stream', rate(CHUNKED_BYTES, directStream.seconds)]);
    await storage.removeObject(target.s3.bucket, multipartKey);

    // --- Content hash: complete with and without one ---------------------------------------------------------
    const completeTimes: number[] = [];
    for (const withHash of [false, true]) {
      const initiate = await client.initiateUpload({
        name: `hash-${randomUUID()}.bin`,
        contentType: 'application/octet-stream',
        size: CHUNKED_BYTES,
      });
      const state: UploadState = {
        format: 'folio-upload-state-v1',
        kind: 'upload',
        file_uuid: initiate.file_uuid,
        version_uuid: initiate.file_uuid,
        data_key: initiate.data_key,
        chunk_size_bytes: initiate.chunk_size_bytes,
        chunk_count: initiate.chunk_count,
        plaintext_size_bytes: CHUNKED_BYTES,
        parts: {},
      };
      const { parts: sent, contentHash } = await client.sendParts(state, sourceBytes);
      const complete = await timed(() => client.complete(state, sent, withHash ? contentHash : undefined));
      if ((complete.value.content_hash === contentHash) !== withHash)
        throw new Error(
          `complete ${withHash ? 'with' : 'without'} content_hash answered ${complete.value.content_hash}`,
        );
      completeTimes.push(complete.seconds);
    }
    const verify = completeTimes[1]! - completeTimes[0]!;
    rows.push([
      "complete without content_hash (the spec's: parts checked, object assembled)",
      `${completeTimes[0]!.toFixed(2)} s`,
    ]);
    rows.push([
      'complete with content_hash (also reads, decrypts and hashes the object)',
      `${completeTimes[1]!.toFixed(2)} s`,
    ]);
    rows.push([
      '  the verification alone (the difference)',
      `${rate(CHUNKED_BYTES, verify)}  → ${(directStream.seconds / verify).toFixed(2)}× the direct MinIO GET's rate`,
    ]);

    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) say(`${label.padEnd(width)}  ${value}`);
    say(
      `\nchunked vs direct MinIO, same run (target ≥ 0.9×): upload ${(directMultipart.seconds / chunked.seconds).toFixed(2)}×, download ${(directRanged.seconds / chunkedDown.seconds).toFixed(2)}×`,
    );
    say(
      `chunked round trip: ${received} bytes downloaded, identical to the upload (${Math.ceil(CHUNKED_BYTES / PART)} chunks checked).`,
    );
  } finally {
    await target.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
