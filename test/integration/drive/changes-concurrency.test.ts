// The feed never skips a change: concurrent writers whose transactions commit out of start order, while a
// reader follows the feed page by page. Every change-log row must reach the reader on the page that covers it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Caller as DriveCaller } from '../../../domain/caller.js';
import { createFolder, findVisibleItem, updateItemMetadata } from '../../../domain/drive/items.js';
import { db } from '../../../platform/database.js';
import { call, makeUser } from '../../support/api.js';
import { decodeSyncToken } from '../../support/sync-token.js';

const WRITERS = 8;
const OPERATIONS_PER_WRITER = 30;
const PAGE_SIZE = 7;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomMs = (max: number) => Math.floor(Math.random() * max);

interface ReadPage {
  /** Change-log positions this page covers: (from, to]; a snapshot page covers nothing of the log. */
  from: bigint;
  to: bigint;
  snapshot: boolean;
  entries: any[];
}

/** One writer: creates folders (at the root or inside its own) and renames them, sleeping inside each transaction. */
async function writer(me: DriveCaller, index: number): Promise<void> {
  const mine: string[] = [];
  for (let n = 0; n < OPERATIONS_PER_WRITER; n += 1) {
    await db().transaction(async (tx) => {
      await sleep(randomMs(15)); // Started, not yet logged: later transactions may log and commit first.
      if (mine.length < 3 || Math.random() < 0.5) {
        const parent = mine.length && Math.random() < 0.5 ? mine[randomMs(mine.length)]! : null;
        mine.push(
          await createFolder(tx, me, {
            name: `w${index}-${n}-${randomUUID().slice(0, 6)}`,
            parentUuid: parent,
          }),
        );
      } else {
        const item = await findVisibleItem(tx, me, mine[randomMs(mine.length)]!, { forUpdate: true });
        await updateItemMetadata(tx, me, item, {
          name: `w${index}-${n}-renamed-${randomUUID().slice(0, 6)}`,
        });
      }
      await sleep(randomMs(4)); // Logged, seq taken, not yet committed.
    });
  }
}

describe('Drive changes feed under concurrent writers', () => {
  it('delivers every committed change to a reader polling with since, on the page that covers it', async () => {
    const owner = await makeUser();
    const me = { userUuid: owner.uuid, workspaceUuid: owner.workspaceUuid };
    let writing = true;
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, index) => writer(me, index))).finally(
      () => {
        writing = false;
      },
    );

    const pages: ReadPage[] = [];
    let token: string | undefined;
    let position = -1n; // Unknown until the first token tells where the snapshot was taken.
    for (;;) {
      const stillWriting = writing;
      const response = await call(
        'GET',
        `/v1/drive/changes?limit=${PAGE_SIZE}${token ? `&since=${token}` : ''}`,
        { token: owner.token },
      );
      expect(response.status).toBe(200);
      const cursor = decodeSyncToken(response.body.sync_token)!;
      expect(cursor).toBeDefined();
      const to = BigInt(cursor.seq);
      const snapshot = token === undefined || decodeSyncToken(token)!.phase === 'snapshot';
      pages.push({ from: snapshot ? to : position, to, snapshot, entries: response.body.changes });
      position = to;
      token = response.body.sync_token;
      // Stop only after a page that started after the writers were done and had nothing more.
      if (!stillWriting && !response.body.has_more) break;
      if (!response.body.has_more) await sleep(randomMs(10));
    }
    await writers;

    const rows = (await db()('drive_changes')
      .where({ workspace_uuid: owner.workspaceUuid })
      .orderBy('seq')) as {
      seq: string;
      item_uuid: string;
      item_version: number;
    }[];
    expect(rows.length).toBeGreaterThanOrEqual(WRITERS * OPERATIONS_PER_WRITER);
    const snapshotSeq = pages[0]!.to;
    const sawInSnapshot = (uuid: string, version: number) =>
      pages.some(
        (page) =>
          page.snapshot &&
          page.entries.some((entry) => entry.uuid === uuid && entry.resource.version >= version),
      );
    const missed = rows.filter((row) => {
      const seq = BigInt(row.seq);
      if (seq <= snapshotSeq) return !sawInSnapshot(row.item_uuid, row.item_version);
      const page = pages.find(
        (candidate) => !candidate.snapshot && candidate.from < seq && seq <= candidate.to,
      );
      return !page?.entries.some(
        (entry) => entry.uuid === row.item_uuid && entry.resource.version >= row.item_version,
      );
    });
    expect(missed).toEqual([]);

    // And the state the reader holds is the final state, every version included.
    const held = new Map<string, any>();
    for (const entry of pages.flatMap((page) => page.entries)) held.set(entry.uuid, entry.resource);
    const finalRows = await db()('drive_items')
      .where({ workspace_uuid: owner.workspaceUuid })
      .select('uuid', 'name', 'version', 'parent_uuid');
    expect(held.size).toBe(finalRows.length);
    for (const row of finalRows) {
      expect(held.get(row.uuid)).toMatchObject({
        name: row.name,
        version: row.version,
        parent_uuid: row.parent_uuid,
      });
    }
    expect(pages.filter((page) => !page.snapshot && page.entries.length > 0).length).toBeGreaterThan(10);
  });
});
