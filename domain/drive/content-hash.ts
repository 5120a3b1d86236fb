// The content hash of a file version's plaintext, as Dropbox computes its `content_hash`: the SHA-256 of the
// concatenated SHA-256 digests of each 4 MiB block (the last one shorter), in lower-case hex. An empty file has no
// block, so its hash is the SHA-256 of nothing. docs/extensions.md § Content hash.
import { createHash, type Hash } from 'node:crypto';

/** Dropbox's block size: 4 MiB. */
const CONTENT_HASH_BLOCK_BYTES = 4 * 1024 * 1024;

/** What a content hash looks like on the wire (and in the database): 64 lower-case hex digits. */
export const CONTENT_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** Fed the plaintext in pieces of any size, in order; `digest()` answers the hash once. */
export class ContentHasher {
  private readonly overall = createHash('sha256');
  private block: Hash = createHash('sha256');
  private blockBytes = 0;

  update(piece: Uint8Array): this {
    let offset = 0;
    while (offset < piece.length) {
      const take = Math.min(CONTENT_HASH_BLOCK_BYTES - this.blockBytes, piece.length - offset);
      this.block.update(piece.subarray(offset, offset + take));
      this.blockBytes += take;
      offset += take;
      if (this.blockBytes === CONTENT_HASH_BLOCK_BYTES) this.endBlock();
    }
    return this;
  }

  digest(): string {
    if (this.blockBytes > 0) this.endBlock();
    return this.overall.digest('hex');
  }

  private endBlock(): void {
    this.overall.update(this.block.digest());
    this.block = createHash('sha256');
    this.blockBytes = 0;
  }
}

export const contentHash = (plaintext: Uint8Array): string => new ContentHasher().update(plaintext).digest();
