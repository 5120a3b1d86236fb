// What a file version's row says about its bytes: the chunk layout it was written with, and what it holds in the pool.
import { CHUNK_OVERHEAD_BYTES, type ChunkLayout } from './crypto.js';
import type { VersionRow } from './rows.js';

export const layoutOfVersion = (
  version: Pick<VersionRow, 'plaintext_size_bytes' | 'chunk_size_bytes' | 'chunk_count'>,
): ChunkLayout => {
  const size = Number(version.plaintext_size_bytes);
  return {
    plaintextSizeBytes: size,
    chunkSizeBytes: version.chunk_size_bytes,
    chunkCount: version.chunk_count,
    ciphertextSizeBytes: size + version.chunk_count * CHUNK_OVERHEAD_BYTES,
  };
};

/**
 * The workspace pool bytes the versions hold: every version in staged, live or retired status holds its
 * plaintext size; an aborted one gave its bytes back when it was aborted.
 */
export const poolBytesHeld = (versions: Pick<VersionRow, 'status' | 'plaintext_size_bytes'>[]): number =>
  versions
    .filter((version) => version.status !== 'aborted')
    .reduce((sum, version) => sum + Number(version.plaintext_size_bytes), 0);
