import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decodeSyncToken,
  deriveSyncTokenKey,
  encodeSyncToken,
  type FeedCursor,
} from '../../../domain/drive/sync-token.js';

const key = deriveSyncTokenKey(Buffer.alloc(32, 7));
const otherKey = deriveSyncTokenKey(Buffer.alloc(32, 8));

const delta: FeedCursor = {
  phase: 'delta',
  workspaceUuid: randomUUID(),
  userUuid: randomUUID(),
  seq: '9007199254740993',
};
const snapshotStart: FeedCursor = {
  phase: 'snapshot',
  workspaceUuid: randomUUID(),
  userUuid: randomUUID(),
  seq: '42',
  after: null,
};
const snapshotMiddle: FeedCursor = {
  ...snapshotStart,
  after: { depth: 3, parentUuid: randomUUID(), uuid: randomUUID() },
};
const snapshotAtRoot: FeedCursor = {
  ...snapshotStart,
  after: { depth: 0, parentUuid: null, uuid: randomUUID() },
};

/** A token as version 1 sealed it (before the parent joined the snapshot position): depth and uuid only. */
function versionOneToken(cursor: Extract<FeedCursor, { phase: 'snapshot' }>, depth: number): string {
  const bytes = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex');
  const body = Buffer.alloc(42 + 20);
  body.writeUInt8(1, 0);
  body.writeUInt8(1, 1);
  bytes(cursor.workspaceUuid).copy(body, 2);
  bytes(cursor.userUuid).copy(body, 18);
  body.writeBigInt64BE(BigInt(cursor.seq), 34);
  body.writeInt32BE(depth, 42);
  bytes(randomUUID()).copy(body, 46);
  const mac = createHmac('sha256', key).update(body).digest().subarray(0, 16);
  return Buffer.concat([body, mac]).toString('base64url');
}

describe('sync tokens', () => {
  it('round-trips delta and snapshot cursors, including seqs beyond 2^53', () => {
    for (const cursor of [delta, snapshotStart, snapshotMiddle, snapshotAtRoot]) {
      expect(decodeSyncToken(encodeSyncToken(cursor, key), key)).toEqual(cursor);
    }
  });

  it('resumes a version 1 snapshot token (depth, uuid) at the start of its depth, and a version 1 start at the start', () => {
    expect(decodeSyncToken(versionOneToken(snapshotStart, 2), key)).toEqual({
      ...snapshotStart,
      after: { depth: 2, parentUuid: null, uuid: '00000000-0000-0000-0000-000000000000' },
    });
    expect(decodeSyncToken(versionOneToken(snapshotStart, -1), key)).toEqual(snapshotStart);
    expect(decodeSyncToken(versionOneToken(snapshotStart, -2), key)).toBeUndefined();
  });

  it('is opaque: URL-safe characters only, with no uuid readable in it', () => {
    const token = encodeSyncToken(snapshotMiddle, key);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token).not.toContain(snapshotMiddle.workspaceUuid.replace(/-/g, ''));
  });

  it('refuses every single-bit change of the token', () => {
    const raw = Buffer.from(encodeSyncToken(snapshotMiddle, key), 'base64url');
    for (let byte = 0; byte < raw.length; byte += 1) {
      for (let bit = 0; bit < 8; bit += 1) {
        const tampered = Buffer.from(raw);
        tampered[byte]! ^= 1 << bit;
        expect(decodeSyncToken(tampered.toString('base64url'), key)).toBeUndefined();
      }
    }
  });

  it('refuses a token sealed with another master key', () => {
    expect(decodeSyncToken(encodeSyncToken(delta, otherKey), key)).toBeUndefined();
  });

  it('refuses malformed tokens: empty, not base64url, truncated, extended, non-canonical', () => {
    const token = encodeSyncToken(delta, key);
    for (const bad of [
      '',
      'not a token',
      '!!!!',
      token.slice(0, -1),
      token + 'A',
      token.slice(0, 10),
      `${token}==`,
    ]) {
      expect(decodeSyncToken(bad, key)).toBeUndefined();
    }
  });

  it('derives different keys for different master keys, and the same key for the same one', () => {
    expect(deriveSyncTokenKey(Buffer.alloc(32, 7)).equals(key)).toBe(true);
    expect(otherKey.equals(key)).toBe(false);
    expect(key.equals(Buffer.alloc(32, 7))).toBe(false);
  });
});
