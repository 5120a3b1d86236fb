// Drive transfer benchmark: simple upload/download of a 100 MB file, each next to a direct MinIO PUT/GET of the same
// bytes and the route's in-process limit, with the API process's RSS growth during the upload (issue 24: < 100 MB);
// then the chunked transfer through @folio/client (clients/typescript) WITHOUT content_hash, the spec's complete,
// next to a direct MinIO multipart PUT and ranged GETs of the same parts with the same concurrency (issue 24:
// ≥ 0.9×), Folio and direct MinIO alternated for FOLIO_BENCH_ROUNDS rounds (default 4: each side first in two) after a
// warm-up round of both, with the order swapped each round, medians reported, the round trip checked byte for byte.
// The download is also set beside ranged GETs that read each part into one buffer of its own (the cheapest way to hand
// a part over whole, as the client hands each chunk), and for every transfer the CPU time per GB of this process (the
// client), MinIO and the API is printed: on two saturated cores the ratio cannot pass (MinIO + client CPU of the direct
// side) ÷ (MinIO + client + API CPU of Folio's). Then what verifying a content_hash costs (docs/extensions.md § Content
// hash): the same upload completed with and without one, as rows of their own.
//
//   node --import tsx bench/drive-transfer.ts
//
// Starts its own stack (PostgreSQL, Temporal, MinIO, worker, API) like test/setup/global.ts, unless
// FOLIO_BENCH_API_URL and FOLIO_BENCH_TOKEN name a running API (FOLIO_S3_* then reach its MinIO; no RSS figure).
// FOLIO_BENCH_SIMPLE_BYTES (default 100000000) and FOLIO_BENCH_CHUNKED_BYTES (default 128 MiB; 1 GB with
// FOLIO_BENCH_FULL=1) set the sizes, FOLIO_BENCH_CONCURRENCY (default 4) the chunks in flight; FOLIO_BENCH_KEEP=1
// keeps the stack's logs; FOLIO_BENCH_SIMPLE_ONLY=1 stops after the simple rows; FOLIO_BENCH_CHUNKED_SOURCE (below)
// where the chunked rounds read their bytes.
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  FolioClient,
  fileSource,
  type ByteSource,
  type UploadState,
} from '../clients/typescript/src/index.js';
import { CHUNK_OVERHEAD, sealChunkFrame } from '../clients/typescript/src/chunks.js';
import { UNCLONED } from '../clients/typescript/src/http.js';
import { createStorage } from '../platform/storage.js';
import { chunkLayout, decryptChunks, encryptChunks, generateDataKey } from '../domain/drive/crypto.js';
import { benchTarget, type BenchTarget } from './stack.js';
import { say } from './support.js';
import { processCpuMs } from './yardstick.js';

const SIMPLE_BYTES = Number(process.env.FOLIO_BENCH_SIMPLE_BYTES ?? 100_000_000);
const CHUNKED_BYTES = Number(
  process.env.FOLIO_BENCH_CHUNKED_BYTES ??
    (process.env.FOLIO_BENCH_FULL === '1' ? 1_000_000_000 : 128 * 1024 ** 2),
);
const ROUNDS = Number(process.env.FOLIO_BENCH_ROUNDS ?? 4);
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

/**
 * Where the chunked rounds read their plaintext, the same for both sides: `generated` (the default) sourceBytes made as
 * each part is asked for, on this process's event loop (≈ 1.8 CPU s/GB of either client's 4–6); `file`, a file of
 * sourceBytes written before the rounds and read a part at a time through @folio/client's fileSource, as `folio drive
 * put` and `folio drive sync` upload (docs/benchmarks.md § 2026-11-29 (session 24)).
 */
const CHUNKED_SOURCE = process.env.FOLIO_BENCH_CHUNKED_SOURCE ?? 'generated';

/** A file of sourceBytes' first `length` bytes, written a part at a time. */
function writeSourceFile(length: number): string {
  const path = join(tmpdir(), `folio-bench-${randomUUID()}.bin`);
  const fd = openSync(path, 'w');
  try {
    for (let offset = 0; offset < length; offset += PART)
      writeSync(fd, sourceBytes(offset, Math.min(PART, length - offset)));
  } finally {
    closeSync(fd);
  }
  return path;
}

/** CPU seconds this process spends sealing `parts` parts of the chunked benchmark's source, as the client does. */
function sealingCpuSeconds(parts: number, partLength: (i: number) => number): number {
  const key = generateDataKey();
  const version = randomUUID();
  const frame = Buffer.allocUnsafe(PART + CHUNK_OVERHEAD);
  const sources = [0, 1].map((i) => sourceBytes(i * PART, PART));
  sealChunkFrame(key, version, 0, parts, sources[0]!, frame); // warm-up
  const started = process.cpuUsage();
  for (let i = 0; i < parts; i++)
    sealChunkFrame(key, version, i, parts, sources[i % 2]!.subarray(0, partLength(i)), frame);
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1e6;
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { seconds: (performance.now() - started) / 1000, value };
}

/** The middle value; of an even count (the default rounds) the mean of the two middle ones. */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/** A field of /proc/<pid>/status in kB (VmRSS: resident now; VmHWM: the peak since start or the last reset). */
function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? NaN);
}

/**
 * The process's peak RSS during `work`, in kB, beside its RSS before: the kernel's high-water mark, reset first
 * (clear_refs 5), so a peak between two samples still counts; sampled every 10 ms as well in case the reset is refused.
 */
async function rssDuring<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ beforeKb: number; peakKb: number; value: T }> {
  const beforeKb = statusKb(pid, 'VmRSS');
  let reset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  let sampledKb = beforeKb;
  const sampler = setInterval(() => (sampledKb = Math.max(sampledKb, statusKb(pid, 'VmRSS'))), 10);
  try {
    const value = await work();
    const peakKb = Math.max(sampledKb, reset ? statusKb(pid, 'VmHWM') : 0);
    return { beforeKb, peakKb, value };
  } finally {
    clearInterval(sampler);
  }
}

const rate = (bytes: number, seconds: number) =>
  `${(bytes / 1e6 / seconds).toFixed(1).padStart(7)} MB/s  (${seconds.toFixed(2)} s)`;

/** CPU time, in ms, of the client (this process, its thread pool included), MinIO and the API. */
interface Cpu {
  client: number;
  minio: number;
  api: number;
}

function cpuNow(target: BenchTarget): Cpu {
  const own = process.cpuUsage();
  return {
    client: (own.user + own.system) / 1000,
    minio: target.minioPid ? processCpuMs(target.minioPid) : NaN,
    api: target.apiPid ? processCpuMs(target.apiPid) : NaN,
  };
}

/** `work`'s wall time in seconds and the CPU each process spent meanwhile. */
async function timedCpu(
  target: BenchTarget,
  work: () => Promise<unknown>,
): Promise<{ seconds: number; cpu: Cpu }> {
  const before = cpuNow(target);
  const { seconds } = await timed(work);
  const after = cpuNow(target);
  return {
    seconds,
    cpu: {
      client: after.client - before.client,
      minio: after.minio - before.minio,
      api: after.api - before.api,
    },
  };
}

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
  /** The chunked rounds' source file, removed at the end (FOLIO_BENCH_CHUNKED_SOURCE=file). */
  let sourceFile: string | undefined;
  try {
    say(
      `Folio Drive transfer benchmark — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
    );
    say(
      `simple ${SIMPLE_BYTES} bytes, chunked ${CHUNKED_BYTES} bytes, ${CONCURRENCY} chunks in flight, ${ROUNDS} rounds; load average ${load()}\n`,
    );

    // --- Simple, 100 MB -----------------------------------------------------------------------------------
    const simpleData = sourceBytes(0, SIMPLE_BYTES);
    const body = Buffer.from(
      JSON.stringify({
        name: `simple-${randomUUID()}.bin`,
        content_type: 'application/octet-stream',
        data: simpleData.toString('base64'),
      }),
    );
    const postSimple = () =>
      timed(async () => {
        const response = await fetch(`${target.apiUrl}/v1/drive/files`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body,
        });
        if (response.status !== 201)
          throw new Error(`simple upload answered ${response.status}: ${await response.text()}`);
        return (await response.json()) as { uuid: string };
      });
    const measuredUpload = target.apiPid ? await rssDuring(target.apiPid, postSimple) : undefined;
    const upload = measuredUpload?.value ?? (await postSimple());
    rows.push(['simple upload (POST /v1/drive/files, base64 JSON)', rate(SIMPLE_BYTES, upload.seconds)]);
    if (measuredUpload) {
      const growthMb = ((measuredUpload.peakKb - measuredUpload.beforeKb) * 1024) / 1e6;
      rows.push([
        "  the API process's RSS during it (peak − before)",
        `${growthMb.toFixed(0)} MB growth (${(measuredUpload.beforeKb / 1024).toFixed(0)} → ${(measuredUpload.peakKb / 1024).toFixed(0)} MiB; target < 100 MB: ${growthMb < 100 ? 'met' : 'not met'})`,
      ]);
    }
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
      const response = await fetch(url, { method: 'PUT', body: simpleData, ...UNCLONED });
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

    if (process.env.FOLIO_BENCH_SIMPLE_ONLY === '1') {
      const width = Math.max(...rows.map(([label]) => label.length));
      for (const [label, value] of rows) say(`${label.padEnd(width)}  ${value}`);
      say(`load average at end ${load()}`);
      return;
    }

    // --- Chunked, through @folio/client, without content_hash, alternated with direct MinIO ------------------
    // The spec's complete (no content_hash: docs/extensions.md § Content hash) asks the service to check the parts and
    // assemble the object, which is what the direct multipart PUT's complete does too; the hashed complete, which also
    // reads the whole object back, is measured on its own below.
    const parts = Math.ceil(CHUNKED_BYTES / PART);
    const partLength = (i: number) => Math.min(PART, CHUNKED_BYTES - i * PART);
    sourceFile = CHUNKED_SOURCE === 'file' ? writeSourceFile(CHUNKED_BYTES) : undefined;
    const chunkedSource: ByteSource = sourceFile ? fileSource(sourceFile) : sourceBytes;
    const partBytes = async (i: number) =>
      (chunkedSource as Exclude<ByteSource, Uint8Array>)(i * PART, partLength(i));
    say(
      `chunked source: ${sourceFile ? `a file (${sourceFile}), read a part at a time by both sides` : 'generated as each part is read'}`,
    );
    const directMultipartPut = async (key: string) => {
      const uploadId = await storage.initiateNewMultipartUpload(target.s3.bucket, key, {});
      const etags: { part: number; etag: string }[] = [];
      await pool(parts, CONCURRENCY, async (i) => {
        const url = await storage.presignedUrl('PUT', target.s3.bucket, key, 3600, {
          partNumber: String(i + 1),
          uploadId,
        });
        // Sent as the client sends its parts (UNCLONED: fetch copies the body once, not twice).
        const response = await fetch(url, {
          method: 'PUT',
          body: await partBytes(i),
          ...UNCLONED,
        });
        await response.arrayBuffer();
        etags.push({ part: i + 1, etag: response.headers.get('etag')!.replace(/"/g, '') });
      });
      await storage.completeMultipartUpload(
        target.s3.bucket,
        key,
        uploadId,
        etags.sort((a, b) => a.part - b.part),
      );
    };
    const directRangedGet = async (key: string) => {
      const url = await storage.presignedGetObject(target.s3.bucket, key, 3600);
      await pool(parts, CONCURRENCY, async (i) => {
        const response = await fetch(url, {
          headers: { range: `bytes=${i * PART}-${i * PART + partLength(i) - 1}` },
        });
        await response.arrayBuffer();
      });
    };
    // The same GETs with each body read piece by piece into one buffer of the part's size: arrayBuffer() costs more
    // CPU than this on Node 20 (undici gathers the pieces, then copies them), so this is the stronger peer.
    const directRangedGetIntoBuffers = async (key: string) => {
      const url = await storage.presignedGetObject(target.s3.bucket, key, 3600);
      await pool(parts, CONCURRENCY, async (i) => {
        const response = await fetch(url, {
          headers: { range: `bytes=${i * PART}-${i * PART + partLength(i) - 1}` },
        });
        const part = Buffer.allocUnsafe(partLength(i));
        let at = 0;
        const reader = response.body!.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) {
          part.set(next.value, at);
          at += next.value.length;
        }
        if (at !== part.length) throw new Error(`direct part ${i + 1} has ${at} bytes`);
      });
    };
    const unhashed = new FolioClient({
      baseUrl: target.apiUrl,
      token: target.token,
      window: CONCURRENCY,
      contentHashMaxBytes: 0,
    });
    const chunkedUp: number[] = [];
    const directUp: number[] = [];
    const chunkedDown: number[] = [];
    const directDown: number[] = [];
    const bufferedDown: number[] = [];
    const downCpu: Record<'folio' | 'direct' | 'buffered', Cpu[]> = { folio: [], direct: [], buffered: [] };
    const upCpu: Record<'folio' | 'direct', Cpu[]> = { folio: [], direct: [] };
    let lastFile = '';
    let received = 0;
    // Round 0 warms both sides up and is not counted: a first gigabyte into a fresh MinIO went in 1.3–1.7× as fast as
    // the next ones (2026-11-29: the direct PUT 282–328 MB/s in a first round, 191–213 after), which flattered
    // whichever side went first (docs/benchmarks.md § 2026-11-29 (session 23)).
    for (let round = 0; round <= ROUNDS; round++) {
      const warmUp = round === 0;
      const folioFirst = round % 2 === 0;
      const directKey = `bench/${randomUUID()}`;
      const folioUpload = async () => {
        let created: Awaited<ReturnType<typeof unhashed.upload>> | undefined;
        const { seconds, cpu } = await timedCpu(target, async () => {
          created = await unhashed.upload({
            name: `chunked-${randomUUID()}.bin`,
            contentType: 'application/octet-stream',
            size: CHUNKED_BYTES,
            source: chunkedSource,
          });
        });
        if (created!.content_hash !== null)
          throw new Error(`a complete without content_hash recorded ${created!.content_hash}`);
        chunkedUp.push(seconds);
        upCpu.folio.push(cpu);
        lastFile = created!.uuid;
      };
      const directUpload = async () => {
        const { seconds, cpu } = await timedCpu(target, () => directMultipartPut(directKey));
        directUp.push(seconds);
        upCpu.direct.push(cpu);
      };
      // Timed with a sink that only counts (AES-GCM already authenticates every chunk); compared byte for byte after.
      const folioDownload = async () => {
        received = 0;
        const { seconds, cpu } = await timedCpu(target, () =>
          unhashed.downloadTo(lastFile, (plaintext) => void (received += plaintext.length)),
        );
        chunkedDown.push(seconds);
        downCpu.folio.push(cpu);
      };
      const directDownload = async () => {
        const { seconds, cpu } = await timedCpu(target, () => directRangedGet(directKey));
        directDown.push(seconds);
        downCpu.direct.push(cpu);
      };
      const bufferedDownload = async () => {
        const { seconds, cpu } = await timedCpu(target, () => directRangedGetIntoBuffers(directKey));
        bufferedDown.push(seconds);
        downCpu.buffered.push(cpu);
      };
      for (const step of folioFirst ? [folioUpload, directUpload] : [directUpload, folioUpload]) await step();
      for (const step of folioFirst
        ? [folioDownload, directDownload, bufferedDownload]
        : [bufferedDownload, directDownload, folioDownload])
        await step();
      await storage.removeObject(target.s3.bucket, directKey);
      say(
        `  ${warmUp ? 'warm-up round' : `round ${round}`} (${folioFirst ? 'Folio first' : 'direct first'}): upload ${rate(CHUNKED_BYTES, chunkedUp.at(-1)!)} vs direct ${rate(CHUNKED_BYTES, directUp.at(-1)!)}; ` +
          `download ${rate(CHUNKED_BYTES, chunkedDown.at(-1)!)} vs direct ${rate(CHUNKED_BYTES, directDown.at(-1)!)}, ` +
          `into buffers ${rate(CHUNKED_BYTES, bufferedDown.at(-1)!)}`,
      );
      if (warmUp)
        for (const list of [
          chunkedUp,
          directUp,
          chunkedDown,
          directDown,
          bufferedDown,
          ...Object.values(upCpu),
          ...Object.values(downCpu),
        ])
          list.length = 0;
    }
    let mismatches = 0;
    await unhashed.downloadTo(lastFile, (plaintext, index) => {
      if (!plaintext.equals(sourceBytes(index * PART, plaintext.length))) mismatches++;
    });
    if (mismatches || received !== CHUNKED_BYTES)
      throw new Error(`chunked round trip differs: ${mismatches} chunks, ${received} bytes`);
    const rounds = (seconds: number[]) =>
      `rounds ${seconds.map((s) => (CHUNKED_BYTES / 1e6 / s).toFixed(1)).join(', ')}`;
    rows.push([
      `chunked upload without content_hash (@folio/client: AES-GCM, presigned part PUTs), median of ${ROUNDS}`,
      `${rate(CHUNKED_BYTES, median(chunkedUp))}  ${rounds(chunkedUp)}`,
    ]);
    rows.push([
      '  direct MinIO multipart PUT, same bytes, parts and concurrency, alternated',
      `${rate(CHUNKED_BYTES, median(directUp))}  ${rounds(directUp)}`,
    ]);
    rows.push([
      `chunked download (@folio/client: ranged GETs, AES-GCM), median of ${ROUNDS}`,
      `${rate(CHUNKED_BYTES, median(chunkedDown))}  ${rounds(chunkedDown)}`,
    ]);
    rows.push([
      '  direct MinIO ranged GETs, same bytes, ranges and concurrency, alternated',
      `${rate(CHUNKED_BYTES, median(directDown))}  ${rounds(directDown)}`,
    ]);
    rows.push([
      '  the same, each part read into one buffer of its own (the stronger peer)',
      `${rate(CHUNKED_BYTES, median(bufferedDown))}  ${rounds(bufferedDown)}`,
    ]);
    // CPU seconds per GB moved, the median of the rounds for each process; and the bound it puts on the ratio.
    const perGb = (cpu: Cpu[], process: keyof Cpu) =>
      median(cpu.map((entry) => entry[process])) / 1000 / (CHUNKED_BYTES / 1e9);
    const cpuLine = (cpu: Cpu[]) =>
      `client ${perGb(cpu, 'client').toFixed(2)}, MinIO ${perGb(cpu, 'minio').toFixed(2)}, API ${perGb(cpu, 'api').toFixed(2)} CPU s/GB`;
    const total = (cpu: Cpu[]) => perGb(cpu, 'client') + perGb(cpu, 'minio') + perGb(cpu, 'api');
    for (const [label, cpu] of [
      ['  CPU of the chunked upload', upCpu.folio],
      ['  CPU of the direct multipart PUT', upCpu.direct],
      ['  CPU of the chunked download', downCpu.folio],
      ['  CPU of the direct ranged GETs', downCpu.direct],
      ['  CPU of the direct GETs into buffers', downCpu.buffered],
    ] as const)
      rows.push([label, cpuLine(cpu)]);
    rows.push([
      '  upload bound on 2 saturated cores: direct CPU ÷ Folio CPU',
      `${(total(upCpu.direct) / total(upCpu.folio)).toFixed(2)}×`,
    ]);
    // What the spec's encryption alone adds: every part sealed (AES-256-GCM, the client's own sealChunkFrame into one
    // reused frame) with nothing sent, timed in this process after the rounds. Folio's upload does the direct PUT's work
    // plus this, so on two saturated cores its ratio cannot pass direct ÷ (direct + sealing).
    const sealing = sealingCpuSeconds(parts, partLength) / (CHUNKED_BYTES / 1e9);
    rows.push([
      '  sealing alone (AES-256-GCM, client): the bound if Folio added only that',
      `${sealing.toFixed(2)} CPU s/GB: ${(total(upCpu.direct) / (total(upCpu.direct) + sealing)).toFixed(2)}×`,
    ]);
    rows.push([
      '  download bound on 2 saturated cores: direct CPU ÷ Folio CPU',
      `${(total(downCpu.direct) / total(downCpu.folio)).toFixed(2)}× (into buffers: ${(total(downCpu.buffered) / total(downCpu.folio)).toFixed(2)}×)`,
    ]);
    const streamKey = `bench/${randomUUID()}`;
    await directMultipartPut(streamKey);
    const directStream = await timed(async () => {
      const url = await storage.presignedGetObject(target.s3.bucket, streamKey, 3600);
      const response = await fetch(url);
      for await (const piece of Readable.fromWeb(response.body as never)) void piece;
    });
    rows.push(['  direct MinIO GET, one stream', rate(CHUNKED_BYTES, directStream.seconds)]);
    await storage.removeObject(target.s3.bucket, streamKey);

    // --- Content hash: the same upload completed with and without one ------------------------------------------
    const completeTimes: number[] = [];
    const uploadTimes: number[] = [];
    for (const withHash of [false, true]) {
      const started = performance.now();
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
      uploadTimes.push((performance.now() - started) / 1000);
    }
    const verify = completeTimes[1]! - completeTimes[0]!;
    rows.push([
      'chunked upload with content_hash (the client hashes as it sends; complete reads the object back)',
      `${rate(CHUNKED_BYTES, uploadTimes[1]!)}  → ${(median(directUp) / uploadTimes[1]!).toFixed(2)}× the direct multipart PUT (one run)`,
    ]);
    rows.push([
      "  complete without content_hash (the spec's: parts checked, object assembled)",
      `${completeTimes[0]!.toFixed(2)} s`,
    ]);
    rows.push([
      '  complete with content_hash (also reads, decrypts and hashes the object)',
      `${completeTimes[1]!.toFixed(2)} s`,
    ]);
    rows.push([
      '  the verification alone (the difference)',
      `${rate(CHUNKED_BYTES, verify)}  → ${(directStream.seconds / verify).toFixed(2)}× the direct MinIO GET's rate`,
    ]);

    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) say(`${label.padEnd(width)}  ${value}`);
    const upRatio = median(directUp) / median(chunkedUp);
    const downRatio = median(directDown) / median(chunkedDown);
    const bufferedRatio = median(bufferedDown) / median(chunkedDown);
    say(
      `\nchunked without content_hash vs direct MinIO, medians of ${ROUNDS} alternated rounds (target ≥ 0.9×): ` +
        `upload ${upRatio.toFixed(2)}× (${upRatio >= 0.9 ? 'met' : 'not met'}), download ${downRatio.toFixed(2)}× (${downRatio >= 0.9 ? 'met' : 'not met'}); ` +
        `download beside the GETs into buffers ${bufferedRatio.toFixed(2)}×`,
    );
    say(
      `chunked round trip: ${received} bytes downloaded, identical to the upload (${parts} chunks checked).`,
    );
    say(`load average at end ${load()}`);
  } finally {
    if (sourceFile) rmSync(sourceFile, { force: true });
    await target.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
