// @folio/client's openChunkStream against frames sealed by the service's own framing (domain/drive/crypto.ts): a
// chunk opened piece by piece as it arrives, whatever the pieces' sizes, and refused when it is not what was stored;
// and its sealChunkFrame, whose frames the service opens.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHUNK_OVERHEAD, openChunkStream, sealChunkFrame } from '../../../clients/typescript/src/chunks.js';
import {
  ContentIntegrityError,
  chunkLayout,
  decryptChunk,
  encryptChunks,
  generateDataKey,
} from '../../../domain/drive/crypto.js';

async function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  if (bytes.length === 0) yield bytes;
}

/** A stored object of `plaintext`: its frames, one per chunk, as the service writes them. */
function sealed(plaintext: Buffer) {
  const key = generateDataKey();
  const version = randomUUID();
  const layout = chunkLayout(plaintext.length);
  return { key, version, layout, frames: [...encryptChunks(key, version, layout, plaintext)] };
}

describe('openChunkStream', () => {
  it.each([1, 5, 12, 13, 27, 28, 1000, 65_536, 1 << 30])(
    'opens a chunk that arrives in pieces of %i bytes to its plaintext',
    async (size) => {
      const plaintext = randomBytes(100_003);
      const { key, version, layout, frames } = sealed(plaintext);
      const frame = frames[0]!;
      const opened = await openChunkStream(
        key,
        version,
        0,
        layout.chunkCount,
        frame.length,
        pieces(frame, size),
      );
      expect(opened.equals(plaintext)).toBe(true);
    },
  );

  it('gathers every chunk into one reused buffer larger than its frames, and answers plaintext of its own', async () => {
    const plaintext = randomBytes(3 * 4 * 1024 ** 2 + 5);
    const { key, version, layout, frames } = sealed(plaintext);
    expect(layout.chunkCount).toBeGreaterThan(1);
    const frame = Buffer.alloc(layout.chunkSizeBytes + 28, 0xa5);
    const opened: Buffer[] = [];
    for (const [index, sealedFrame] of frames.entries())
      opened.push(
        await openChunkStream(
          key,
          version,
          index,
          layout.chunkCount,
          sealedFrame.length,
          pieces(sealedFrame, 65_536),
          frame,
        ),
      );
    expect(Buffer.concat(opened).equals(plaintext)).toBe(true);
  });

  it('opens the empty chunk of an empty file', async () => {
    const { key, version, frames } = sealed(Buffer.alloc(0));
    expect(frames[0]!.length).toBe(28);
    const opened = await openChunkStream(key, version, 0, 1, 28, pieces(frames[0]!, 5));
    expect(opened.length).toBe(0);
  });

  it('refuses a frame with a flipped bit, under another index or version, or of another length', async () => {
    const { key, version, frames } = sealed(randomBytes(5000));
    const frame = frames[0]!;
    for (const at of [0, 11, 12, 2000, frame.length - 16, frame.length - 1]) {
      const tampered = Buffer.from(frame);
      tampered[at]! ^= 1;
      await expect(openChunkStream(key, version, 0, 1, frame.length, pieces(tampered, 700))).rejects.toThrow(
        'chunk 0 failed authentication',
      );
    }
    await expect(openChunkStream(key, version, 1, 2, frame.length, pieces(frame, 700))).rejects.toThrow(
      'failed authentication',
    );
    await expect(openChunkStream(key, randomUUID(), 0, 1, frame.length, pieces(frame, 700))).rejects.toThrow(
      'failed authentication',
    );
    await expect(
      openChunkStream(key, version, 0, 1, frame.length, pieces(frame.subarray(0, -1), 700)),
    ).rejects.toThrow(`chunk 0: ${frame.length - 1} bytes, not ${frame.length}`);
    await expect(openChunkStream(key, version, 0, 1, frame.length - 1, pieces(frame, 700))).rejects.toThrow(
      `chunk 0: more than ${frame.length - 1} bytes`,
    );
  });
});

describe('sealChunkFrame', () => {
  it("seals frames the service opens (domain/drive/crypto.ts decryptChunk), bound to the chunk's place", () => {
    const key = generateDataKey();
    const version = randomUUID();
    for (const size of [0, 1, 65_535, 65_536, 65_537, 200_003]) {
      const plaintext = randomBytes(size);
      const frame = sealChunkFrame(key, version, 3, 7, plaintext);
      expect(frame.length).toBe(size + CHUNK_OVERHEAD);
      expect(decryptChunk(key, version, 3, 7, frame).equals(plaintext)).toBe(true);
      expect(() => decryptChunk(key, version, 4, 7, frame)).toThrow(ContentIntegrityError);
      expect(() => decryptChunk(key, version, 3, 8, frame)).toThrow(ContentIntegrityError);
    }
  });

  it('seals into a buffer it is given, the frame its start, as many times as it is reused', () => {
    const key = generateDataKey();
    const version = randomUUID();
    const buffer = Buffer.alloc(200_003 + CHUNK_OVERHEAD, 0xee);
    for (const size of [200_003, 65_536, 1, 0]) {
      const plaintext = randomBytes(size);
      const frame = sealChunkFrame(key, version, 2, 5, plaintext, buffer);
      expect(frame.buffer).toBe(buffer.buffer);
      expect(frame.byteOffset).toBe(buffer.byteOffset);
      expect(frame.length).toBe(size + CHUNK_OVERHEAD);
      expect(decryptChunk(key, version, 2, 5, frame).equals(plaintext)).toBe(true);
    }
    expect(() => sealChunkFrame(key, version, 0, 1, randomBytes(200_004), buffer)).toThrow(RangeError);
  });

  it('draws a fresh nonce for every frame', () => {
    const key = generateDataKey();
    const version = randomUUID();
    const plaintext = randomBytes(100);
    const nonces = new Set(
      Array.from({ length: 50 }, () =>
        sealChunkFrame(key, version, 0, 1, plaintext).subarray(0, 12).toString('hex'),
      ),
    );
    expect(nonces.size).toBe(50);
  });
});
