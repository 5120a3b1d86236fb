// Chunked transfer (docs/drive-encryption.md §§ 3–4): each part sealed as its PUT goes out, a sliding window of
// parts on the wire, each PUT or ranged GET retried on its own, and the upload's progress kept in a resume file.
import { open, rename, rm, writeFile, readFile } from 'node:fs/promises';
import { ApiError, bytesBody, failure, Retryable, UNCLONED, withRetry, type Http } from './http.js';
import {
  CHUNK_OVERHEAD,
  chunkOffset,
  openChunkStream,
  sealChunkFrame,
  plainLength,
  type Layout,
} from './chunks.js';
import { ContentHashBuilder } from './content-hash.js';
import type {
  CompletedPart,
  DownloadInit,
  PartUrl,
  PartUrls,
  PartUrlsRequest,
  Progress,
  UploadState,
} from './types.js';

/** Plaintext bytes [offset, offset + length) of what is sent: a buffer, or a reader (a file, a generator). */
export type ByteSource = Uint8Array | ((offset: number, length: number) => Uint8Array | Promise<Uint8Array>);

/** A reader over a file on disk, opened per read so a resumed upload needs nothing but the path. */
export function fileSource(path: string): ByteSource {
  return async (offset, length) => {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buffer, done, length - done, offset + done);
        if (!bytesRead) throw new Error(`${path} is shorter than the upload declared`);
        done += bytesRead;
      }
      return buffer;
    } finally {
      await handle.close();
    }
  };
}

const read = async (source: ByteSource, offset: number, length: number): Promise<Uint8Array> =>
  typeof source === 'function' ? source(offset, length) : source.subarray(offset, offset + length);

export interface TransferOptions {
  /** Parts on the wire at once (default 4). */
  window?: number;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Called once a part is stored and recorded in the resume file: a hook to stop an upload at a known point. */
  onPartStored?: (partNumber: number) => void;
  /** Where to keep the upload's resume file; without it the upload cannot be resumed. */
  stateFile?: string;
}

const DEFAULT_WINDOW = 4;
/** part_urls takes at most 1,000 numbers per request; asking a few windows ahead keeps URLs fresh for long uploads. */
const URL_BATCH = 256;
/** Ask again for a URL this close to its expiry. */
const URL_MARGIN_MS = 60_000;

const layoutOf = (
  state: Pick<UploadState, 'chunk_size_bytes' | 'chunk_count' | 'plaintext_size_bytes'>,
): Layout => ({
  chunkSizeBytes: state.chunk_size_bytes,
  chunkCount: state.chunk_count,
  plaintextSizeBytes: state.plaintext_size_bytes,
});

export async function readState(path: string): Promise<UploadState> {
  const state = JSON.parse(await readFile(path, 'utf8')) as UploadState;
  if (state.format !== 'folio-upload-state-v1') throw new Error(`${path} is not a Folio upload state file`);
  return state;
}

/**
 * Keeps the resume file current: written whole to a temporary name and renamed, so a crash leaves the old file or
 * the new one. Owner-only (0600): it holds the version's data key (README § Resuming says why).
 */
class StateWriter {
  private chain = Promise.resolve();

  constructor(
    private readonly path: string | undefined,
    readonly state: UploadState,
  ) {}

  save(): Promise<void> {
    if (!this.path) return Promise.resolve();
    const path = this.path;
    const text = JSON.stringify(this.state);
    this.chain = this.chain.then(async () => {
      await writeFile(`${path}.tmp`, text, { mode: 0o600 });
      await rename(`${path}.tmp`, path);
    });
    return this.chain;
  }

  async remove(): Promise<void> {
    await this.chain;
    if (this.path) await rm(this.path, { force: true });
  }
}

/** Runs task(0..count-1), at most `limit` at once, stopping at the first failure or when the signal fires. */
async function pool(
  count: number,
  limit: number,
  task: (index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count && !failed) {
        signal?.throwIfAborted();
        try {
          await task(next++);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
}

/** Presigned part URLs, asked for in batches of the parts still missing and renewed before they expire. */
class PartUrlCache {
  private readonly urls = new Map<number, PartUrl>();
  private pending?: Promise<void>;

  constructor(
    private readonly http: Http,
    private readonly path: string,
    private readonly order: number[],
    private readonly signal?: AbortSignal,
  ) {}

  async get(partNumber: number): Promise<string> {
    for (let asked = false; ;) {
      if (this.fresh(partNumber)) return this.urls.get(partNumber)!.url;
      if (asked) throw new Error(`part_urls answered no URL for part ${partNumber}`);
      // One request at a time: a part asking while another batch is on its way waits for that batch first.
      if (this.pending) {
        await this.pending;
        continue;
      }
      asked = true;
      this.pending = this.fetchFor(partNumber).finally(() => (this.pending = undefined));
      await this.pending;
    }
  }

  forget(partNumber: number): void {
    this.urls.delete(partNumber);
  }

  private fresh(partNumber: number): boolean {
    const known = this.urls.get(partNumber);
    return known !== undefined && Date.parse(known.expires_at) - Date.now() > URL_MARGIN_MS;
  }

  /** The part asked for and the next parts (in sending order) without a fresh URL, up to a batch. */
  private async fetchFor(partNumber: number): Promise<void> {
    const numbers = [partNumber, ...this.order.filter((n) => n !== partNumber && !this.fresh(n))].slice(
      0,
      URL_BATCH,
    );
    const body: PartUrlsRequest = { part_numbers: numbers };
    const answer = await this.http.request<PartUrls>('POST', this.path, body, {
      retry: true,
      signal: this.signal,
    });
    for (const part of answer.part_urls) this.urls.set(part.part_number, part);
  }
}

/**
 * Sends every part the state does not hold yet and records each in the state (and its file) as it is stored.
 * `partUrlsPath` is …/uploads/{uuid}/part_urls or …/files/{uuid}/replace/part_urls. Answers the parts for complete
 * and (unless `hashing` is false) the content hash of the whole source: each chunk sent is hashed as it is encrypted,
 * and the chunks a resumed transfer stored before are read again to be hashed, so the hash describes the source as
 * it is now.
 */
export async function sendParts(
  http: Http,
  partUrlsPath: string,
  writer: StateWriter,
  source: ByteSource,
  options: TransferOptions,
  hashing = true,
): Promise<{ parts: CompletedPart[]; contentHash?: string }> {
  const { state } = writer;
  const layout = layoutOf(state);
  const hasher = hashing ? new ContentHashBuilder(state.plaintext_size_bytes) : undefined;
  const dataKey = Buffer.from(state.data_key, 'base64');
  const missing = Array.from({ length: state.chunk_count }, (_, i) => i + 1).filter(
    (n) => !(String(n) in state.parts),
  );
  const window = options.window ?? DEFAULT_WINDOW;
  const urls = new PartUrlCache(http, partUrlsPath, missing, options.signal);
  const progress: Progress = {
    bytesDone: 0,
    bytesTotal: state.plaintext_size_bytes,
    partsDone: 0,
    partsTotal: state.chunk_count,
  };
  for (const n of Object.keys(state.parts)) {
    progress.bytesDone += plainLength(layout, Number(n) - 1);
    progress.partsDone++;
  }
  options.onProgress?.({ ...progress });

  // A part is read and sealed when its slot frees, just before its PUT, so fetch copies the frame while it is still
  // in the CPU's cache: frames sealed a window ahead were read back from memory, which cost the client more than the
  // sealing itself (docs/benchmarks.md § 2026-11-28 (session 20)). A frame whose part is stored is sealed into again
  // (sealChunkFrame's `into`): at most `window` of them live.
  const spareFrames: Buffer[] = [];
  await pool(
    missing.length,
    window,
    async (k) => {
      const partNumber = missing[k]!;
      const index = partNumber - 1;
      const offset = index * layout.chunkSizeBytes;
      const plaintext = await read(source, offset, plainLength(layout, index));
      const hashed = hasher?.add(offset, plaintext);
      const buffer = spareFrames.pop() ?? Buffer.allocUnsafe(layout.chunkSizeBytes + CHUNK_OVERHEAD);
      const frame = sealChunkFrame(dataKey, state.version_uuid, index, state.chunk_count, plaintext, buffer);
      await hashed;
      const etag = await withRetry(
        http.retryPolicy,
        async () => {
          const response = await http.fetch(await urls.get(partNumber), {
            method: 'PUT',
            body: bytesBody(frame),
            ...UNCLONED,
            signal: options.signal,
          });
          const text = await response.text();
          if (response.status === 403) urls.forget(partNumber); // An expired URL: the retry asks for a new one.
          if (response.ok) return response.headers.get('etag')!;
          const error = new ApiError(response.status, text, `PUT part ${partNumber}`, response.headers);
          throw response.status === 403 ? new Retryable(error) : failure(response, error);
        },
        options.signal,
      );
      // Stored, and its answer read: nothing reads the frame any more.
      spareFrames.push(buffer);
      state.parts[String(partNumber)] = etag;
      await writer.save();
      progress.bytesDone += plainLength(layout, partNumber - 1);
      progress.partsDone++;
      options.onProgress?.({ ...progress });
      options.onPartStored?.(partNumber);
    },
    options.signal,
  );
  // A resumed transfer's earlier parts: read again only to be hashed (a source changed since then makes the hash
  // differ from what storage holds, and the service refuses the complete rather than keep mixed contents).
  const sentBefore = hasher
    ? Array.from({ length: state.chunk_count }, (_, i) => i).filter((index) => !missing.includes(index + 1))
    : [];
  await pool(
    sentBefore.length,
    window,
    async (k) => {
      const offset = sentBefore[k]! * layout.chunkSizeBytes;
      await hasher!.add(offset, await read(source, offset, plainLength(layout, sentBefore[k]!)));
    },
    options.signal,
  );
  const parts = Object.entries(state.parts)
    .map(([n, etag]) => ({ part_number: Number(n), etag }))
    .sort((a, b) => a.part_number - b.part_number);
  return { parts, contentHash: await hasher?.digest() };
}

export { StateWriter };

export interface DownloadOptions {
  window?: number;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/** A body's pieces as they arrive; a consumer that stops early (a frame too long) cancels the rest. */
async function* pieces(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      yield next.value;
    }
    done = true;
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

/**
 * download_init, then ranged GETs `window` at a time, decrypted as they arrive and handed to `sink` in order. A
 * GET refused with 403 (the URL's 15 minutes ran out) asks download_init again; if the file was replaced
 * meanwhile the download stops rather than mixing versions. The total is checked against the declared size.
 */
export async function downloadChunks(
  http: Http,
  fileUuid: string,
  sink: (plaintext: Buffer, index: number) => void | Promise<void>,
  options: DownloadOptions = {},
): Promise<{ bytes: number; init: DownloadInit }> {
  const initPath = `/v1/drive/files/${fileUuid}/download_init`;
  let init = await http.request<DownloadInit>('GET', initPath, undefined, {
    retry: true,
    signal: options.signal,
  });
  const versionUuid = init.version_uuid;
  const layout: Layout = {
    chunkSizeBytes: init.chunk_size_bytes,
    chunkCount: init.chunk_count,
    plaintextSizeBytes: init.ciphertext_size_bytes - CHUNK_OVERHEAD * init.chunk_count,
  };
  const dataKey = Buffer.from(init.data_key, 'base64');
  const window = options.window ?? DEFAULT_WINDOW;
  const progress: Progress = {
    bytesDone: 0,
    bytesTotal: layout.plaintextSizeBytes,
    partsDone: 0,
    partsTotal: layout.chunkCount,
  };
  options.onProgress?.({ ...progress });

  // The buffers frames are gathered in, one per GET in flight, reused from chunk to chunk.
  const frames: Buffer[] = [];
  const fetchChunk = (index: number) =>
    withRetry(
      http.retryPolicy,
      async () => {
        const start = chunkOffset(layout, index);
        const end = start + plainLength(layout, index) + CHUNK_OVERHEAD - 1;
        const response = await http.fetch(init.download_url, {
          headers: { range: `bytes=${start}-${end}` },
          signal: options.signal,
        });
        if (response.status === 206 && response.body) {
          const frame = frames.pop() ?? Buffer.allocUnsafe(layout.chunkSizeBytes + CHUNK_OVERHEAD);
          try {
            return await openChunkStream(
              dataKey,
              versionUuid,
              index,
              layout.chunkCount,
              end - start + 1,
              pieces(response.body),
              frame,
            );
          } finally {
            frames.push(frame);
          }
        }
        const error = new ApiError(
          response.status,
          await response.text(),
          `GET chunk ${index}`,
          response.headers,
        );
        if (response.status === 403) {
          init = await http.request<DownloadInit>('GET', initPath, undefined, {
            retry: true,
            signal: options.signal,
          });
          if (init.version_uuid !== versionUuid)
            throw new Error(`file ${fileUuid} was replaced during the download`);
          throw new Retryable(error);
        }
        throw failure(response, error);
      },
      options.signal,
    );

  // A sliding window: whenever a GET finishes the next chunk is requested, whatever order they finish in, and the
  // sink takes chunks in order. At most 2 × window chunks are held, so one slow chunk cannot let memory grow.
  const started = new Map<number, Promise<Buffer>>();
  let inFlight = 0;
  let nextToStart = 0;
  let delivered = 0;
  let stopped = false;
  const launch = () => {
    while (
      !stopped &&
      inFlight < window &&
      nextToStart < layout.chunkCount &&
      nextToStart < delivered + 2 * window
    ) {
      const chunk = fetchChunk(nextToStart);
      inFlight++;
      chunk
        .catch(() => undefined)
        .finally(() => {
          inFlight--;
          launch();
        });
      started.set(nextToStart++, chunk);
    }
  };
  launch();
  try {
    for (let index = 0; index < layout.chunkCount; index++) {
      const plaintext = await started.get(index)!;
      started.delete(index);
      delivered++;
      launch();
      if (plaintext.length !== plainLength(layout, index))
        throw new Error(`chunk ${index} has ${plaintext.length} bytes, not ${plainLength(layout, index)}`);
      await sink(plaintext, index);
      progress.bytesDone += plaintext.length;
      progress.partsDone++;
      options.onProgress?.({ ...progress });
    }
  } finally {
    stopped = true; // A failed chunk or sink stops further GETs.
  }
  return { bytes: progress.bytesDone, init };
}
