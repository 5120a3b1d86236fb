// The content hash (docs/extensions.md § Content hash; Dropbox's content_hash), in both implementations: the
// server's (domain/drive/content-hash.ts, node:crypto) and @folio/client's (WebCrypto), against vectors computed
// outside either of them.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  ContentHashBuilder,
  contentHash as clientContentHash,
} from '../../../clients/typescript/src/index.js';
import { ContentHasher, contentHash } from '../../../domain/drive/content-hash.js';

const MiB = 1024 * 1024;

/** The vectors' plaintext: byte i is i mod 251 (a prime, so no block repeats another). */
const plaintext = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => i % 251));

/**
 * Computed with coreutils and OpenSSL, not with this code: `head -c N` of the pattern, `split -b 4194304`, each
 * block through `openssl dgst -sha256 -binary`, the digests concatenated through `sha256sum`.
 */
const VECTORS: [string, number, string][] = [
  [
    '0 bytes (no block: the SHA-256 of nothing)',
    0,
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  ],
  ['1 byte', 1, '1406e05881e299367766d313e26c05564ec91bf721d31726bd6e46e60689539a'],
  [
    'exactly 4 MiB (one block, no empty one after it)',
    4 * MiB,
    'b9654428408015906b44a00935b70af33830aa344b780b0eabd535a133150d04',
  ],
  [
    '4 MiB + 1 (a second block of one byte)',
    4 * MiB + 1,
    '4a6cc0a344febaa07772e7c974834b2fb1d24594d4ba15f27c97a54699709f44',
  ],
];

describe('content hash', () => {
  describe.each(VECTORS)('%s', (_label, size, expected) => {
    const data = plaintext(size);

    it('the server computes it whole and in pieces of any size', () => {
      expect(contentHash(data)).toBe(expected);
      const hasher = new ContentHasher();
      for (let at = 0; at < data.length; at += 1_000_003) hasher.update(data.subarray(at, at + 1_000_003));
      expect(hasher.digest()).toBe(expected);
    });

    it('the client computes it from bytes, a Node stream and a web stream', async () => {
      expect(await clientContentHash(data)).toBe(expected);
      expect(
        await clientContentHash(Readable.from(data.length ? [data.subarray(0, 7), data.subarray(7)] : [])),
      ).toBe(expected);
      expect(
        await clientContentHash(Readable.toWeb(Readable.from([data])) as ReadableStream<Uint8Array>),
      ).toBe(expected);
    });
  });

  it('the client builds it from chunks added out of order, none aligned with a 4 MiB block', async () => {
    const data = plaintext(11 * MiB + 5);
    const chunk = 3 * MiB + 17;
    const builder = new ContentHashBuilder(data.length);
    const offsets = Array.from({ length: Math.ceil(data.length / chunk) }, (_, i) => i * chunk).reverse();
    await Promise.all(offsets.map((offset) => builder.add(offset, data.subarray(offset, offset + chunk))));
    expect(await builder.digest()).toBe(contentHash(data));
  });

  it('the client refuses to answer before every byte was added, and a block added twice', async () => {
    const data = plaintext(5 * MiB);
    const builder = new ContentHashBuilder(data.length);
    await builder.add(0, data.subarray(0, 4 * MiB));
    await expect(builder.digest()).rejects.toThrow('block 1 of the content hash is incomplete');
    await expect(builder.add(0, data.subarray(0, 4 * MiB))).rejects.toThrow('added twice');
    expect(() => builder.add(5 * MiB - 1, data.subarray(0, 2))).toThrow(RangeError);
  });

  it('an empty file needs nothing added', async () => {
    expect(await new ContentHashBuilder(0).digest()).toBe(VECTORS[0]![2]);
  });
});
