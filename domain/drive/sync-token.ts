// The changes-feed cursor (sync_token): a fixed binary layout sealed with HMAC-SHA256, opaque to clients.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../uuid.js';

/**
 * The last row a snapshot page read, in snapshot order: (depth, parent, uuid), a Drive root's items under the nil
 * uuid (docs/drive-sync.md § First sync).
 */
export interface SnapshotPosition {
  depth: number;
  parentUuid: string | null;
  uuid: string;
}

/** Where a reader stands: inside the first-sync snapshot taken at change-log position `seq`, or in the delta after `seq`. */
export type FeedCursor =
  | {
      phase: 'snapshot';
      workspaceUuid: string;
      userUuid: string;
      seq: string;
      after: SnapshotPosition | null;
    }
  | { phase: 'delta'; workspaceUuid: string; userUuid: string; seq: string };

// Version 2 added the parent to the snapshot position; a delta token is the same in both.
const VERSION = 2;
const PHASES = { snapshot: 1, delta: 2 } as const;
const MAC_BYTES = 16;
// version, phase, workspace, user, seq; the snapshot adds the keyset position: depth, parent, uuid (version 1: depth,
// uuid).
const HEADER_BYTES = 1 + 1 + 16 + 16 + 8;
const POSITION_BYTES = 4 + 16 + 16;
const V1_POSITION_BYTES = 4 + 16;
/** Where a Drive root's items sort in the snapshot order: as if their parent were the nil uuid. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** HKDF-SHA256 of the master key for this one purpose, so a token MAC never reuses the key that wraps file keys. */
export function deriveSyncTokenKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'folio drive sync token', 32));
}

const uuidBytes = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex');
const uuidText = (bytes: Buffer) => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const mac = (key: Buffer, body: Buffer) =>
  createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

/** Seals the cursor with `key` (deriveSyncTokenKey of the master key). */
export function encodeSyncToken(cursor: FeedCursor, key: Buffer): string {
  for (const uuid of [cursor.workspaceUuid, cursor.userUuid])
    if (!isUuid(uuid)) throw new Error('sync token: not a uuid');
  const position = cursor.phase === 'snapshot' ? POSITION_BYTES : 0;
  const body = Buffer.alloc(HEADER_BYTES + position);
  body.writeUInt8(VERSION, 0);
  body.writeUInt8(PHASES[cursor.phase], 1);
  uuidBytes(cursor.workspaceUuid).copy(body, 2);
  uuidBytes(cursor.userUuid).copy(body, 18);
  body.writeBigInt64BE(BigInt(cursor.seq), 34);
  if (cursor.phase === 'snapshot') {
    // depth -1 marks "from the start"; the uuid bytes are then zero, as a root's parent is.
    body.writeInt32BE(cursor.after?.depth ?? -1, HEADER_BYTES);
    if (cursor.after) {
      uuidBytes(cursor.after.parentUuid ?? NIL_UUID).copy(body, HEADER_BYTES + 4);
      uuidBytes(cursor.after.uuid).copy(body, HEADER_BYTES + 20);
    }
  }
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/** The position just before the first item at `depth`: no item has the nil uuid. */
const startOfDepth = (depth: number): SnapshotPosition => ({ depth, parentUuid: null, uuid: NIL_UUID });

/** The cursor a token stands for, or undefined when it is malformed or its MAC does not verify. */
export function decodeSyncToken(token: string, key: Buffer): FeedCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  if (raw.toString('base64url') !== token) return undefined; // Non-canonical encodings are tampering too.
  if (![0, POSITION_BYTES, V1_POSITION_BYTES].includes(raw.length - HEADER_BYTES - MAC_BYTES))
    return undefined;
  const body = raw.subarray(0, raw.length - MAC_BYTES);
  if (!timingSafeEqual(raw.subarray(raw.length - MAC_BYTES), mac(key, body))) return undefined;
  const version = body.readUInt8(0);
  if (version !== VERSION && version !== 1) return undefined;
  const phase = body.readUInt8(1);
  const workspaceUuid = uuidText(body.subarray(2, 18));
  const userUuid = uuidText(body.subarray(18, 34));
  const seqValue = body.readBigInt64BE(34);
  if (seqValue < 0n) return undefined;
  const seq = seqValue.toString();
  if (phase === PHASES.delta && body.length === HEADER_BYTES)
    return { phase: 'delta', workspaceUuid, userUuid, seq };
  const positionBytes = version === 1 ? V1_POSITION_BYTES : POSITION_BYTES;
  if (phase === PHASES.snapshot && body.length === HEADER_BYTES + positionBytes) {
    const depth = body.readInt32BE(HEADER_BYTES);
    if (depth < -1) return undefined;
    if (depth === -1) return { phase: 'snapshot', workspaceUuid, userUuid, seq, after: null };
    // A token sealed before version 2 (a first sync in progress across an upgrade) holds a position in the old order,
    // (depth, uuid): it resumes at the start of its depth. What it had of that depth may come again, as the feed allows.
    if (version === 1) return { phase: 'snapshot', workspaceUuid, userUuid, seq, after: startOfDepth(depth) };
    const parent = uuidText(body.subarray(HEADER_BYTES + 4, HEADER_BYTES + 20));
    const after = {
      depth,
      parentUuid: parent === NIL_UUID ? null : parent,
      uuid: uuidText(body.subarray(HEADER_BYTES + 20, HEADER_BYTES + 36)),
    };
    return { phase: 'snapshot', workspaceUuid, userUuid, seq, after };
  }
  return undefined;
}
