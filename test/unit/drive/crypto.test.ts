import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ContentIntegrityError,
  DEFAULT_CHUNK_SIZE_BYTES,
  MAX_CHUNKED_FILE_BYTES,
  MiB,
  base64Length,
  base64Stream,
  chunkAad,
  chunkCiphertextOffset,
  chunkCiphertextSize,
  chunkLayout,
  decryptChunk,
  decryptChunks,
  encodeDataKey,
  encryptChunk,
  encryptChunks,
  generateDataKey,
  openSecret,
  rewrapDataKey,
  sealChunkInto,
  sealSecret,
  unwrapDataKey,
  wrapDataKey,
  wrappedKeyId,
  type ChunkLayout,
  type MasterKey,
} from '../../../domain/drive/crypto.js';

/** What platform/config.ts builds from FOLIO_MASTER_KEY, FOLIO_MASTER_KEY_ID and FOLIO_PREVIOUS_MASTER_KEYS. */
const ring = (id: number, key: Buffer, previous: [number, Buffer][] = []): MasterKey =>
  Object.assign(Buffer.from(key), { keyId: id, previousKeys: new Map(previous) });

const SMALL = { baseChunkSizeBytes: 16 };

async function* pieces(buffer: Buffer, size: number) {
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const piece of source) out.push(piece);
  return Buffer.concat(out);
}

function encryptAll(key: Buffer, versionUuid: string, layout: ChunkLayout, plaintext: Buffer): Buffer[] {
  return [...encryptChunks(key, versionUuid, layout, plaintext)];
}

describe('chunk layout', () => {
  it('uses 8 MiB chunks, every chunk full but the last', () => {
    expect(chunkLayout(8 * MiB)).toEqual({
      plaintextSizeBytes: 8 * MiB,
      chunkSizeBytes: 8 * MiB,
      chunkCount: 1,
      ciphertextSizeBytes: 8 * MiB + 28,
    });
    expect(chunkLayout(8 * MiB + 1)).toEqual({
      plaintextSizeBytes: 8 * MiB + 1,
      chunkSizeBytes: 8 * MiB,
      chunkCount: 2,
      ciphertextSizeBytes: 8 * MiB + 1 + 56,
    });
    const layout = chunkLayout(20 * MiB);
    expect([
      chunkCiphertextSize(layout, 0),
      chunkCiphertextSize(layout, 1),
      chunkCiphertextSize(layout, 2),
    ]).toEqual([8 * MiB + 28, 8 * MiB + 28, 4 * MiB + 28]);
    expect(chunkCiphertextOffset(layout, 2)).toBe(2 * (8 * MiB + 28));
  });

  it('makes an empty file one chunk of empty plaintext (28 bytes of ciphertext)', () => {
    expect(chunkLayout(0)).toEqual({
      plaintextSizeBytes: 0,
      chunkSizeBytes: DEFAULT_CHUNK_SIZE_BYTES,
      chunkCount: 1,
      ciphertextSizeBytes: 28,
    });
  });

  it('grows the chunk size in whole MiB once a file would need more than 10,000 chunks', () => {
    expect(chunkLayout(10_000 * 8 * MiB)).toMatchObject({ chunkSizeBytes: 8 * MiB, chunkCount: 10_000 });
    expect(chunkLayout(10_000 * 8 * MiB + 1)).toMatchObject({ chunkSizeBytes: 9 * MiB, chunkCount: 8_889 });
    const largest = chunkLayout(MAX_CHUNKED_FILE_BYTES);
    expect(largest.chunkSizeBytes).toBe(105 * MiB);
    expect(largest.chunkCount).toBeLessThanOrEqual(10_000);
    for (const size of [80 * 1024 * MiB + 7, 300 * 1024 * MiB - 1, MAX_CHUNKED_FILE_BYTES - 1]) {
      const layout = chunkLayout(size);
      expect(layout.chunkSizeBytes % MiB).toBe(0);
      expect(layout.chunkCount).toBeLessThanOrEqual(10_000);
      expect((layout.chunkCount - 1) * layout.chunkSizeBytes).toBeLessThan(size);
      expect(layout.chunkCount * layout.chunkSizeBytes).toBeGreaterThanOrEqual(size);
    }
  });

  it('rejects a negative or fractional size', () => {
    expect(() => chunkLayout(-1)).toThrow(RangeError);
    expect(() => chunkLayout(1.5)).toThrow(RangeError);
  });
});

describe('chunk framing', () => {
  it('frames a chunk as 12-byte nonce, ciphertext, 16-byte tag, with the documented AAD', async () => {
    const key = generateDataKey();
    const version = randomUUID();
    const frame = encryptChunk(key, version, 3, 7, Buffer.from('hello'));
    expect(frame.length).toBe(12 + 5 + 16);
    // Decrypt with WebCrypto from the documented layout alone, as a client would.
    const subtleKey = await crypto.subtle.importKey(
      'raw',
      Buffer.from(encodeDataKey(key), 'base64'),
      'AES-GCM',
      false,
      ['decrypt'],
    );
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: frame.subarray(0, 12),
        additionalData: Buffer.from(`folio-drive-chunk-v1:${version}:3:7`),
        tagLength: 128,
      },
      subtleKey,
      frame.subarray(12),
    );
    expect(Buffer.from(plain).toString()).toBe('hello');
    expect(chunkAad(version.toUpperCase(), 3, 7).toString()).toBe(`folio-drive-chunk-v1:${version}:3:7`);
  });

  it('round-trips files of every shape through the streaming decryptor, whatever the piece sizes', async () => {
    const key = generateDataKey();
    const version = randomUUID();
    for (const size of [0, 1, 15, 16, 17, 31, 32, 33, 100]) {
      const plaintext = randomBytes(size);
      const layout = chunkLayout(size, SMALL);
      const ciphertext = Buffer.concat(encryptAll(key, version, layout, plaintext));
      expect(ciphertext.length).toBe(layout.ciphertextSizeBytes);
      for (const pieceSize of [1, 7, 44, 1000]) {
        expect(await collect(decryptChunks(pieces(ciphertext, pieceSize), key, version, layout))).toEqual(
          plaintext,
        );
      }
    }
  });

  it('seals a chunk into a reused frame that decrypts as encryptChunk framed it', () => {
    const key = generateDataKey();
    const version = randomUUID();
    const frame = Buffer.alloc(300_000, 0xaa);
    for (const size of [0, 1, 65_536, 200_001]) {
      const plaintext = randomBytes(size);
      const sealed = sealChunkInto(frame, key, version, 2, 5, plaintext);
      expect(sealed.length).toBe(size + 12 + 16);
      expect(sealed.buffer).toBe(frame.buffer);
      expect(decryptChunk(key, version, 2, 5, Buffer.from(sealed))).toEqual(plaintext);
      expect(() => decryptChunk(key, version, 2, 6, Buffer.from(sealed))).toThrow(ContentIntegrityError);
    }
    expect(() => sealChunkInto(Buffer.alloc(27 + 5), key, version, 0, 1, randomBytes(5))).toThrow(RangeError);
  });

  it('refuses a tampered nonce, ciphertext byte or tag', () => {
    const key = generateDataKey();
    const version = randomUUID();
    const frame = encryptChunk(key, version, 0, 1, Buffer.from('sixteen bytes!!!'));
    for (const position of [0, 11, 12, 20, frame.length - 16, frame.length - 1]) {
      const tampered = Buffer.from(frame);
      tampered[position]! ^= 0x01;
      expect(() => decryptChunk(key, version, 0, 1, tampered)).toThrow(ContentIntegrityError);
    }
    expect(() => decryptChunk(generateDataKey(), version, 0, 1, frame)).toThrow(ContentIntegrityError);
    expect(() => decryptChunk(key, version, 0, 1, frame.subarray(0, 27))).toThrow(ContentIntegrityError);
  });

  it('refuses chunks in another order', async () => {
    const key = generateDataKey();
    const version = randomUUID();
    const layout = chunkLayout(48, SMALL);
    const [a, b, c] = encryptAll(key, version, layout, randomBytes(48));
    await expect(
      collect(decryptChunks(pieces(Buffer.concat([b!, a!, c!]), 1000), key, version, layout)),
    ).rejects.toThrow(ContentIntegrityError);
  });

  it('refuses a chunk swapped in from another version or file, even under the same key', async () => {
    const key = generateDataKey();
    const [one, two] = [randomUUID(), randomUUID()];
    const layout = chunkLayout(32, SMALL);
    const first = encryptAll(key, one, layout, randomBytes(32));
    const second = encryptAll(key, two, layout, randomBytes(32));
    const mixed = Buffer.concat([first[0]!, second[1]!]);
    await expect(collect(decryptChunks(pieces(mixed, 1000), key, one, layout))).rejects.toThrow(
      ContentIntegrityError,
    );
  });

  it('refuses a truncated file, whether the stream ends early or claims fewer chunks', async () => {
    const key = generateDataKey();
    const version = randomUUID();
    const layout = chunkLayout(40, SMALL);
    const chunks = encryptAll(key, version, layout, randomBytes(40));
    const shortened = Buffer.concat(chunks.slice(0, 2));
    await expect(collect(decryptChunks(pieces(shortened, 1000), key, version, layout))).rejects.toThrow(
      /ends after 2 of 3/,
    );
    // Someone who drops the last chunk and declares 2 chunks of a 32-byte file: the count is in the AAD.
    const claimed = chunkLayout(32, SMALL);
    await expect(collect(decryptChunks(pieces(shortened, 1000), key, version, claimed))).rejects.toThrow(
      ContentIntegrityError,
    );
    // Cutting the last chunk short fails too.
    const cut = Buffer.concat([...chunks.slice(0, 2), chunks[2]!.subarray(0, chunks[2]!.length - 1)]);
    await expect(collect(decryptChunks(pieces(cut, 1000), key, version, layout))).rejects.toThrow(
      ContentIntegrityError,
    );
  });

  it('refuses ciphertext that runs past its last chunk', async () => {
    const key = generateDataKey();
    const version = randomUUID();
    const layout = chunkLayout(10, SMALL);
    const ciphertext = Buffer.concat([
      ...encryptAll(key, version, layout, randomBytes(10)),
      Buffer.from([0]),
    ]);
    await expect(collect(decryptChunks(pieces(ciphertext, 1000), key, version, layout))).rejects.toThrow(
      /runs past/,
    );
  });
});

describe('key wrapping', () => {
  it('wraps a data key under the master key, bound to its version', () => {
    const master = randomBytes(32);
    const dataKey = generateDataKey();
    const version = randomUUID();
    const wrapped = wrapDataKey(master, version, dataKey);
    expect(wrapped.length).toBe(61);
    expect(wrapped[0]).toBe(1);
    expect(wrapped.includes(dataKey)).toBe(false);
    expect(unwrapDataKey(master, version, wrapped)).toEqual(dataKey);
    expect(() => unwrapDataKey(randomBytes(32), version, wrapped)).toThrow(ContentIntegrityError);
    expect(() => unwrapDataKey(master, randomUUID(), wrapped)).toThrow(ContentIntegrityError);
  });

  it('encodes data_key as standard base64 of the 32 key bytes', () => {
    const key = generateDataKey();
    const encoded = encodeDataKey(key);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(encoded, 'base64')).toEqual(key);
  });
});

describe('streaming base64', () => {
  it('matches one-shot base64 for any split of the input', async () => {
    const data = randomBytes(1000);
    for (const pieceSize of [1, 2, 3, 4, 5, 333, 1000]) {
      let text = '';
      for await (const part of base64Stream(pieces(data, pieceSize))) text += part;
      expect(text).toBe(data.toString('base64'));
      expect(text.length).toBe(base64Length(data.length));
    }
  });
});

describe('master-key rotation', () => {
  it('wraps under a key id other than 0 in format 0x02, the id in the second byte', () => {
    const master = ring(7, randomBytes(32));
    const version = randomUUID();
    const dataKey = generateDataKey();
    const wrapped = wrapDataKey(master, version, dataKey);
    expect(wrapped.length).toBe(62);
    expect([wrapped[0], wrapped[1]]).toEqual([2, 7]);
    expect(wrappedKeyId(wrapped)).toBe(7);
    expect(unwrapDataKey(master, version, wrapped)).toEqual(dataKey);
    // The id picks the key: under another id the same bytes meet another key (or none) and do not open.
    const relabelled = Buffer.from(wrapped);
    relabelled[1] = 8;
    expect(() => unwrapDataKey(ring(7, master, [[8, randomBytes(32)]]), version, relabelled)).toThrow(
      ContentIntegrityError,
    );
    expect(() => unwrapDataKey(master, version, relabelled)).toThrow(
      /master key id 8, which is not configured/,
    );
  });

  it('unwraps under a previous key, rewraps under the current one, and leaves a current one alone', () => {
    const oldKey = randomBytes(32);
    const version = randomUUID();
    const dataKey = generateDataKey();
    const before = wrapDataKey(oldKey, version, dataKey);
    expect(wrappedKeyId(before)).toBe(0);

    const rotating = ring(1, randomBytes(32), [[0, oldKey]]);
    expect(unwrapDataKey(rotating, version, before)).toEqual(dataKey);
    const after = rewrapDataKey(rotating, version, before)!;
    expect(wrappedKeyId(after)).toBe(1);
    expect(rewrapDataKey(rotating, version, after)).toBeNull();

    // The old key gone: what was rewrapped opens, what was not is refused by name.
    const rotated = ring(1, rotating);
    expect(unwrapDataKey(rotated, version, after)).toEqual(dataKey);
    expect(() => unwrapDataKey(rotated, version, before)).toThrow(/master key id 0, which is not configured/);
  });

  it('refuses bytes of no known format', () => {
    expect(wrappedKeyId(Buffer.alloc(61, 3))).toBeUndefined();
    expect(wrappedKeyId(Buffer.alloc(62, 1))).toBeUndefined();
    expect(() => unwrapDataKey(randomBytes(32), randomUUID(), Buffer.alloc(40))).toThrow(
      /unknown wrapped key format/,
    );
  });
});

describe('sealed secrets (public-link and device tokens at rest)', () => {
  it('opens to the plaintext, which the stored bytes do not contain', () => {
    const master = randomBytes(32);
    const row = randomUUID();
    const token = 'Hy3kq0mGf1d3Z9Yw2vTtQ1a8LxC5nB7R';
    const secret = sealSecret(master, 'public link token', row, Buffer.from(token));
    expect(openSecret(master, 'public link token', row, secret).toString()).toBe(token);
    for (const stored of [secret.keyWrapped, secret.sealed]) {
      expect(stored.includes(Buffer.from(token))).toBe(false);
      expect(stored.toString('base64url')).not.toContain(token);
    }
    // Sealed twice, never the same bytes.
    expect(
      sealSecret(master, 'public link token', row, Buffer.from(token)).sealed.equals(secret.sealed),
    ).toBe(false);
  });

  it('does not open under another row, another purpose, another master key, or with a byte changed', () => {
    const master = randomBytes(32);
    const row = randomUUID();
    const secret = sealSecret(master, 'device token', row, Buffer.from('a1'.repeat(32)));
    expect(() => openSecret(master, 'device token', randomUUID(), secret)).toThrow(ContentIntegrityError);
    expect(() => openSecret(master, 'public link token', row, secret)).toThrow(ContentIntegrityError);
    expect(() => openSecret(randomBytes(32), 'device token', row, secret)).toThrow(ContentIntegrityError);
    const tampered = Buffer.from(secret.sealed);
    tampered[20]! ^= 1;
    expect(() => openSecret(master, 'device token', row, { ...secret, sealed: tampered })).toThrow(
      ContentIntegrityError,
    );
  });

  it('keeps opening after a rotation rewraps only its key', () => {
    const oldKey = randomBytes(32);
    const row = randomUUID();
    const secret = sealSecret(oldKey, 'device token', row, Buffer.from('b2'.repeat(32)));
    const rotating = ring(1, randomBytes(32), [[0, oldKey]]);
    const rewrapped = { ...secret, keyWrapped: rewrapDataKey(rotating, row, secret.keyWrapped)! };
    expect(wrappedKeyId(rewrapped.keyWrapped)).toBe(1);
    expect(openSecret(ring(1, rotating), 'device token', row, rewrapped).toString()).toBe('b2'.repeat(32));
    expect(() => openSecret(ring(1, rotating), 'device token', row, secret)).toThrow(
      /master key id 0, which is not configured/,
    );
  });
});
