// The feed never skips a change: writers whose transactions commit out of the order they took their place in the log,
// or began in, while a reader follows the feed page by page. Every change-log row must reach the reader on the page
// that covers it. The interleavings are forced, never left to timing: the test holds writers' transactions open and
// moves on only once a later writer is seen waiting on the change-log lock (or has committed, where nothing held it).
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import type { Caller as DriveCaller } from '../../../domain/caller.js';
import { createFolder, findVisibleItem, updateItemMetadata } from '../../../domain/drive/items.js';
import { db } from '../../../platform/database.js';
import { call, makeUser, type TestUser } from '../../support/api.js';
import { waitUntil } from '../../support/cascades.js';
import { decodeSyncToken } from '../../support/sync-token.js';

const ROUNDS = 8;
const PAGE_SIZE = 2;

interface ReadPage {
  /** Change-log positions this page covers: (from, to]; a snapshot page covers nothing of the log. */
  from: bigint;
  to: bigint;
  snapshot: boolean;
  entries: any[];
}

/** One writer's items: each change creates a folder (at the root or inside one of its own) or renames one of them. */
function writer(me: DriveCaller, name: string) {
  const mine: string[] = [];
  let n = 0;
  return async (tx: Knex.Transaction): Promise<void> => {
    n += 1;
    if (mine.length < 2 || n % 2 === 0) {
      const parent = mine.length && n % 3 === 0 ? mine[n % mine.length]! : null;
      mine.push(
        await createFolder(tx, me, { name: `${name}-${n}-${randomUUID().slice(0, 6)}`, parentUuid: parent }),
      );
    } else {
      const item = await findVisibleItem(tx, me, mine[n % mine.length]!, { forUpdate: true });
      await updateItemMetadata(tx, me, item, { name: `${name}-${n}-renamed-${randomUUID().slice(0, 6)}` });
    }
  };
}

/**
 * Runs `change` in a transaction of its own, and answers once that transaction waits on the change-log lock (an
 * advisory lock) or has committed, whichever comes first; `committed` settles with the commit.
 */
async function writeBehind(
  change: (tx: Knex.Transaction) => Promise<void>,
): Promise<{ committed: Promise<void> }> {
  let backendPid!: (pid: number) => void;
  const pid = new Promise<number>((resolve) => (backendPid = resolve));
  let ended = false;
  const committed = db().transaction(async (tx) => {
    backendPid((await tx.raw('select pg_backend_pid() as pid')).rows[0].pid);
    await change(tx);
  });
  committed.then(
    () => (ended = true),
    () => (ended = true),
  );
  const writerPid = await Promise.race([pid, committed.then(() => -1)]);
  await waitUntil(
    async () =>
      ended ||
      (
        await db().raw(`select 1 from pg_stat_activity where pid = ? and wait_event = 'advisory'`, [
          writerPid,
        ])
      ).rows.length > 0,
  );
  return { committed };
}

/** Follows the feed until it has nothing more, recording each page and what it covers. */
function feedReader(owner: TestUser) {
  const pages: ReadPage[] = [];
  let token: string | undefined;
  let position = -1n; // Unknown until the first token tells where the snapshot was taken.
  const follow = async () => {
    for (;;) {
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
      if (!response.body.has_more) return;
    }
  };
  return { pages, follow };
}

describe('Drive changes feed under concurrent writers', () => {
  it('delivers every committed change to a reader polling with since, on the page that covers it', async () => {
    const owner = await makeUser();
    const me = { userUuid: owner.uuid, workspaceUuid: owner.workspaceUuid };
    const early = writer(me, 'early');
    const logged = writer(me, 'logged');
    const behind = writer(me, 'behind');
    const reader = feedReader(owner);
    await reader.follow();

    for (let round = 0; round < ROUNDS; round += 1) {
      const earlyTx = await db().transaction();
      const loggedTx = await db().transaction();
      try {
        // Begun first (it holds a transaction id); it logs its change only once the two below have committed.
        await earlyTx.raw('select txid_current()');
        // Logged, its seq taken, not yet committed, when a later writer logs a change of its own.
        await logged(loggedTx);
        const behindWrite = await writeBehind(behind);
        await reader.follow();
        await loggedTx.commit();
        await behindWrite.committed;
        await reader.follow();
        await early(earlyTx);
        await reader.follow();
        await earlyTx.commit();
        await reader.follow();
      } finally {
        for (const tx of [loggedTx, earlyTx]) if (!tx.isCompleted()) await tx.rollback();
      }
    }

    const { pages } = reader;
    const rows = (await db()('drive_changes')
      .where({ workspace_uuid: owner.workspaceUuid })
      .orderBy('seq')) as {
      seq: string;
      item_uuid: string;
      item_version: number;
    }[];
    expect(rows.length).toBeGreaterThanOrEqual(3 * ROUNDS);
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
