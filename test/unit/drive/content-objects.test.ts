// The rules of Drive's objects that need no storage (domain/drive/content-objects.ts): where a version is kept, and
// which parts keep a chunked upload from completing (422 invalid_parts names them).
import { describe, expect, it } from 'vitest';
import { faultyParts, storageKey, type UploadedPart } from '../../../domain/drive/content-objects.js';
import { chunkLayout } from '../../../domain/drive/crypto.js';

const MiB = 1024 * 1024;
/** 12-byte nonce and 16-byte tag around each chunk (docs/drive-encryption.md). */
const OVERHEAD = 28;

/** Three chunks of 8 MiB plaintext: two full, the last of 1 MiB. */
const layout = chunkLayout(17 * MiB);
const stored: UploadedPart[] = [
  { part: 1, etag: 'e1', size: 8 * MiB + OVERHEAD },
  { part: 2, etag: 'e2', size: 8 * MiB + OVERHEAD },
  { part: 3, etag: 'e3', size: 1 * MiB + OVERHEAD },
];
const declared = (numbers: number[], etag = (n: number) => `e${n}`) =>
  numbers.map((number) => ({ part_number: number, etag: etag(number) }));

describe('storageKey', () => {
  it('keeps one object per version under its workspace and file', () => {
    expect(storageKey('w', 'f', 'v')).toBe('drive/w/f/v');
  });
});

describe('faultyParts', () => {
  it('finds nothing when every part is listed once with its stored etag and size', () => {
    expect(layout.chunkCount).toBe(3);
    expect(faultyParts(layout, declared([3, 1, 2]), stored)).toEqual([]);
  });

  it('accepts an etag as S3 prints it, quoted or weak', () => {
    expect(
      faultyParts(
        layout,
        declared([1, 2, 3], (n) => (n === 1 ? '"e1"' : `W/"e${n}"`)),
        stored,
      ),
    ).toEqual([]);
  });

  it('names a part the client left out, and one storage does not hold', () => {
    expect(faultyParts(layout, declared([1, 3]), stored)).toEqual([2]);
    expect(faultyParts(layout, declared([1, 2, 3]), stored.slice(0, 2))).toEqual([3]);
  });

  it('names a part listed twice, out of range, or with another etag', () => {
    expect(faultyParts(layout, [...declared([1, 2, 3]), ...declared([2])], stored)).toEqual([2]);
    expect(faultyParts(layout, declared([0, 1, 2, 3, 4]), stored)).toEqual([0, 4]);
    expect(
      faultyParts(
        layout,
        declared([1, 2, 3], (n) => (n === 3 ? 'other' : `e${n}`)),
        stored,
      ),
    ).toEqual([3]);
  });

  it("names a stored part whose size is not its chunk's ciphertext size", () => {
    const short = stored.map((part) => (part.part === 1 ? { ...part, size: part.size - 1 } : part));
    const padded = stored.map((part) => (part.part === 3 ? { ...part, size: 8 * MiB + OVERHEAD } : part));
    expect(faultyParts(layout, declared([1, 2, 3]), short)).toEqual([1]);
    expect(faultyParts(layout, declared([1, 2, 3]), padded)).toEqual([3]);
  });
});
