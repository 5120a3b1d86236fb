// The content hash Folio records for every file version it can vouch for (docs/extensions.md § Content hash), as
// Dropbox computes its content_hash: SHA-256 over the concatenated SHA-256 digests of each 4 MiB block of the
// plaintext (the last block shorter; an empty file has none, so its hash is the SHA-256 of nothing), lower-case hex.
// Digests go through WebCrypto, on libuv's thread pool, like the chunks' AES-GCM.
import { webcrypto } from 'node:crypto';

/** Dropbox's block size: 4 MiB. */
export const CONTENT_HASH_BLOCK_BYTES = 4 * 1024 * 1024;

const DIGEST_BYTES = 32;

const sha256 = async (bytes: Uint8Array): Promise<Uint8Array> =>
  new Uint8Array(await webcrypto.subtle.digest('SHA-256', bytes));

const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** Bytes in memory, or a stream of them (a Node Readable, a web ReadableStream, any async iterable of pieces). */
export type HashSource = Uint8Array | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/**
 * The content hash of `source`, read once in order: compare it with a drive_file's `content_hash` to tell whether a
 * local file already holds a version's contents without downloading it.
 */
export async function contentHash(source: HashSource): Promise<string> {
  if (source instanceof Uint8Array) {
    const digests: Uint8Array[] = [];
    for (let start = 0; start < source.length; start += CONTENT_HASH_BLOCK_BYTES)
      digests.push(await sha256(source.subarray(start, start + CONTENT_HASH_BLOCK_BYTES)));
    return hex(await sha256(concat(digests)));
  }
  const digests: Uint8Array[] = [];
  const block = new Uint8Array(CONTENT_HASH_BLOCK_BYTES);
  let filled = 0;
  for await (const piece of source as AsyncIterable<Uint8Array>) {
    for (let offset = 0; offset < piece.length;) {
      const take = Math.min(CONTENT_HASH_BLOCK_BYTES - filled, piece.length - offset);
      block.set(piece.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === CONTENT_HASH_BLOCK_BYTES) {
        digests.push(await sha256(block));
        filled = 0;
      }
    }
  }
  if (filled > 0) digests.push(await sha256(block.subarray(0, filled)));
  return hex(await sha256(concat(digests)));
}

function concat(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/**
 * The content hash of a file of known size, fed its plaintext in pieces at any offsets and in any order (a chunked
 * upload reads its chunks ahead, a window at a time, and chunks need not line up with 4 MiB blocks). A block is
 * digested as soon as all its bytes are in; only the pieces of blocks still incomplete are held.
 */
export class ContentHashBuilder {
  private readonly digests: Uint8Array;
  private readonly done: boolean[];
  private readonly partial = new Map<number, { start: number; bytes: Uint8Array }[]>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly size: number) {
    const blocks = Math.ceil(size / CONTENT_HASH_BLOCK_BYTES);
    this.digests = new Uint8Array(blocks * DIGEST_BYTES);
    this.done = new Array<boolean>(blocks).fill(false);
  }

  /** Adds the plaintext at [offset, offset + bytes.length); resolves once the blocks it completes are digested. */
  add(offset: number, bytes: Uint8Array): Promise<void> {
    if (offset < 0 || offset + bytes.length > this.size)
      throw new RangeError(`bytes ${offset}..${offset + bytes.length} are outside the file`);
    const work: Promise<void>[] = [];
    for (
      let block = Math.floor(offset / CONTENT_HASH_BLOCK_BYTES);
      block * CONTENT_HASH_BLOCK_BYTES < offset + bytes.length;
      block++
    ) {
      const blockStart = block * CONTENT_HASH_BLOCK_BYTES;
      const blockLength = Math.min(CONTENT_HASH_BLOCK_BYTES, this.size - blockStart);
      const from = Math.max(offset, blockStart);
      const to = Math.min(offset + bytes.length, blockStart + blockLength);
      const piece = bytes.subarray(from - offset, to - offset);
      if (from === blockStart && to === blockStart + blockLength) {
        work.push(this.digestBlock(block, piece));
        continue;
      }
      // Part of a block: kept (copied, the caller may reuse its buffer) until the rest arrives.
      const pieces = this.partial.get(block) ?? [];
      pieces.push({ start: from - blockStart, bytes: piece.slice() });
      this.partial.set(block, pieces);
      if (pieces.reduce((sum, p) => sum + p.bytes.length, 0) === blockLength) {
        this.partial.delete(block);
        const whole = new Uint8Array(blockLength);
        for (const p of pieces) whole.set(p.bytes, p.start);
        work.push(this.digestBlock(block, whole));
      }
    }
    const all = Promise.all(work).then(() => undefined);
    this.pending.add(all);
    void all.finally(() => this.pending.delete(all)).catch(() => undefined);
    return all;
  }

  /** The hash, once every byte was added exactly once. */
  async digest(): Promise<string> {
    await Promise.all(this.pending);
    const missing = this.done.indexOf(false);
    if (missing >= 0) throw new Error(`block ${missing} of the content hash is incomplete`);
    return hex(await sha256(this.digests));
  }

  private async digestBlock(block: number, bytes: Uint8Array): Promise<void> {
    if (this.done[block]) throw new Error(`block ${block} of the content hash was added twice`);
    this.done[block] = true;
    this.digests.set(await sha256(bytes), block * DIGEST_BYTES);
  }
}
