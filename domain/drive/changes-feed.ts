// The Drive changes feed: a first-sync snapshot that flows into the live delta of the workspace change log,
// filtered to what the caller can see now. The rules and their limits are in docs/drive-sync.md.
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';
import type { ChangeType } from './change-log.js';
import { syncTokenInvalid } from './errors.js';
import { selectVisible } from './items.js';
import { seenBy, selectStoredItems, type StoredItem } from './page-view.js';
import type { ItemKind, ItemRow, VisibleItem } from './rows.js';
import { NIL_UUID, type FeedCursor, type SnapshotPosition } from './sync-token.js';

export const DEFAULT_PAGE_SIZE = 250;
export const MAX_PAGE_SIZE = 1000;

export type FeedEntry =
  | { type: 'create' | 'update'; resourceType: ItemKind; uuid: string; item: VisibleItem }
  | { type: 'delete'; resourceType: ItemKind; uuid: string; parentUuid: string | null };

type UpsertEntry = Extract<FeedEntry, { item: VisibleItem }>;

export interface FeedPage {
  entries: FeedEntry[];
  /** Where the next call resumes; the route seals it into the sync_token. */
  cursor: FeedCursor;
  hasMore: boolean;
  asOf: Date;
}

interface ChangeRow {
  seq: string;
  item_uuid: string;
  resource_type: ItemKind;
  change_type: ChangeType;
  parent_uuid: string | null;
  owner_uuid: string;
  ancestor_uuids: string[];
}

/**
 * One page of the feed. Without a cursor this starts the first sync: a snapshot of everything visible
 * taken at the current head of the change log, which then continues into the delta from that head.
 * Runs in one repeatable-read snapshot, so the page is consistent and a pruning that commits meanwhile
 * cannot hide rows from it.
 */
export async function readChanges(
  knex: Knex,
  caller: Caller,
  cursor: FeedCursor | null,
  limit: number,
): Promise<FeedPage> {
  return knex.transaction(
    async (tx) => {
      const bounds = await logBounds(tx, caller.workspaceUuid);
      if (cursor) {
        if (cursor.workspaceUuid !== caller.workspaceUuid || cursor.userUuid !== caller.userUuid)
          throw syncTokenInvalid();
        // Behind the pruning floor some changes are gone; beyond the head the token is from another history.
        if (BigInt(cursor.seq) < bounds.floor || BigInt(cursor.seq) > bounds.head) throw syncTokenInvalid();
      }
      const start: FeedCursor = cursor ?? {
        phase: 'snapshot',
        workspaceUuid: caller.workspaceUuid,
        userUuid: caller.userUuid,
        seq: bounds.head.toString(),
        after: null,
      };
      return start.phase === 'snapshot'
        ? snapshotPage(tx, caller, start, limit, bounds.asOf)
        : deltaPage(tx, caller, start, limit, bounds.asOf);
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/**
 * An empty page whose cursor is the head of the log (an extension, Graph's `token=latest`): a client that needs no
 * snapshot starts following changes from now.
 */
export async function latestChanges(knex: Knex, caller: Caller): Promise<FeedPage> {
  return knex.transaction(
    async (tx) => {
      const { head, asOf } = await logBounds(tx, caller.workspaceUuid);
      const cursor: FeedCursor = {
        phase: 'delta',
        workspaceUuid: caller.workspaceUuid,
        userUuid: caller.userUuid,
        seq: head.toString(),
      };
      return { entries: [], cursor, hasMore: false, asOf };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/**
 * Where the reader's transaction stands, in one statement: the pruning floor and the newest seq of the workspace's log
 * (at least the floor; 0 for an empty log), and the time the page is as of. It also turns JIT off for the transaction:
 * the ancestors' recursive query (page-view.ts) is estimated at ten times its rows, and compiling it took 280 ms where
 * running it takes 3 ms.
 */
async function logBounds(
  knex: Knex,
  workspaceUuid: string,
): Promise<{ floor: bigint; head: bigint; asOf: Date }> {
  const { rows } = await knex.raw(
    `select (select pruned_through_seq from drive_change_log_floors where workspace_uuid = ?) as floor,
            (select max(seq) from drive_changes where workspace_uuid = ?) as head,
            now() as as_of,
            set_config('jit', 'off', true)`,
    [workspaceUuid, workspaceUuid],
  );
  const row = rows[0] as { floor: string | null; head: string | null; as_of: Date };
  const floor = BigInt(row.floor ?? 0);
  const head = BigInt(row.head ?? 0);
  return { floor, head: head > floor ? head : floor, asOf: row.as_of };
}

async function changedAfter(knex: Knex, workspaceUuid: string, seq: string): Promise<boolean> {
  return Boolean(
    await knex('drive_changes').where({ workspace_uuid: workspaceUuid }).where('seq', '>', seq).first('seq'),
  );
}

const upsert = (item: VisibleItem, type: 'create' | 'update'): UpsertEntry => ({
  type,
  resourceType: item.kind,
  uuid: item.uuid,
  item,
});

/** Snapshot: the items the caller sees, a page at a time (snapshotRows), then the delta from the snapshot's head. */
async function snapshotPage(
  tx: Knex.Transaction,
  caller: Caller,
  cursor: Extract<FeedCursor, { phase: 'snapshot' }>,
  limit: number,
  asOf: Date,
): Promise<FeedPage> {
  let take = limit;
  for (;;) {
    const { items: loaded, scannedTo } = await snapshotRows(tx, caller, cursor.after, take + 1);
    const more = loaded.length > take || scannedTo !== null;
    const page = loaded.slice(0, take);
    const entries = page.map((item) => upsert(item, 'create'));
    // Items that moved after the snapshot position may have a parent the reader has not met yet.
    const ordered = await withParentsFirst(tx, caller, entries, cursor.seq);
    if (ordered.length > limit && take > 1) {
      take = Math.max(1, take - (ordered.length - limit));
      continue;
    }
    // Past the rows this page read: its last item, or the last row it read when it stopped at the scan limit.
    const lastItem = page.at(-1);
    const last = scannedTo ?? (lastItem && positionOf(lastItem));
    if (more && last)
      return {
        entries: ordered,
        cursor: { ...cursor, after: last },
        hasMore: true,
        asOf,
      };
    return {
      entries: ordered,
      cursor: {
        phase: 'delta',
        workspaceUuid: cursor.workspaceUuid,
        userUuid: cursor.userUuid,
        seq: cursor.seq,
      },
      hasMore: await changedAfter(tx, caller.workspaceUuid, cursor.seq),
      asOf,
    };
  }
}

/**
 * Snapshot order: (depth, parent, uuid), a Drive root's items under the nil uuid. Parents come before children, and a
 * page's items share a few folders, so page-view.ts reads few chains. The index drive_items_snapshot_by_parent
 * (migration 030) has exactly this expression.
 */
const SNAPSHOT_PARENT_KEY = `coalesce(i.parent_uuid, '${NIL_UUID}'::uuid)`;
const positionOf = (item: ItemRow): SnapshotPosition => ({
  depth: item.depth,
  parentUuid: item.parent_uuid,
  uuid: item.uuid,
});

/** The most rows one snapshot page reads to find what the caller sees (docs/drive-sync.md § First sync). */
const SNAPSHOT_SCAN_LIMIT = 10 * MAX_PAGE_SIZE;

/**
 * The next `wanted` items of the snapshot the caller sees (trashed included, uploading files withheld), in snapshot
 * order. Each is the item exactly as GET shows it: the effective `trashed` with the presented version, which moves
 * whenever that state does (rule 4; docs/drive-trash.md § Versions). The rows are read in batches and judged a batch at
 * a time (page-view.ts); after SNAPSHOT_SCAN_LIMIT rows without `wanted` visible ones it stops and returns where it got
 * to (`scannedTo`), so a caller who sees little of a large workspace gets short pages rather than one unbounded
 * request.
 */
async function snapshotRows(
  tx: Knex.Transaction,
  caller: Caller,
  after: SnapshotPosition | null,
  wanted: number,
): Promise<{ items: VisibleItem[]; scannedTo: SnapshotPosition | null }> {
  const items: VisibleItem[] = [];
  let position = after;
  for (let scanned = 0; ;) {
    const query = selectStoredItems(tx, caller)
      .whereRaw(`i.upload_status is distinct from 'uploading'`)
      .orderByRaw(`i.depth, ${SNAPSHOT_PARENT_KEY}, i.uuid`)
      .limit(wanted);
    if (position)
      query.whereRaw(`(i.depth, ${SNAPSHOT_PARENT_KEY}, i.uuid) > (?, ?::uuid, ?::uuid)`, [
        position.depth,
        position.parentUuid ?? NIL_UUID,
        position.uuid,
      ]);
    const rows = (await query) as StoredItem[];
    items.push(...(await seenBy(tx, caller, rows)));
    scanned += rows.length;
    if (items.length >= wanted || rows.length < wanted)
      return { items: items.slice(0, wanted), scannedTo: null };
    position = positionOf(rows.at(-1)!);
    if (scanned >= SNAPSHOT_SCAN_LIMIT) return { items, scannedTo: position };
  }
}

/** Delta: change-log rows after the cursor in seq (= commit) order, one entry per item, current state. */
async function deltaPage(
  tx: Knex.Transaction,
  caller: Caller,
  cursor: Extract<FeedCursor, { phase: 'delta' }>,
  limit: number,
  asOf: Date,
): Promise<FeedPage> {
  let take = limit;
  for (;;) {
    const rows = (await tx('drive_changes')
      .select(
        'seq',
        'item_uuid',
        'resource_type',
        'change_type',
        'parent_uuid',
        'owner_uuid',
        'ancestor_uuids',
      )
      .where('workspace_uuid', caller.workspaceUuid)
      .where('seq', '>', cursor.seq)
      .orderBy('seq')
      .limit(take)) as ChangeRow[];
    const last = rows.at(-1);
    if (!last) return { entries: [], cursor, hasMore: false, asOf };
    const pageEnd = String(last.seq);
    const entries = await withParentsFirst(tx, caller, await entriesFor(tx, caller, rows), pageEnd);
    if (entries.length > limit && take > 1) {
      take = Math.max(1, take - (entries.length - limit));
      continue;
    }
    return {
      entries,
      cursor: { ...cursor, seq: pageEnd },
      hasMore: await changedAfter(tx, caller.workspaceUuid, pageEnd),
      asOf,
    };
  }
}

/**
 * Turns change rows into entries, one per item at the position of its last row. What an entry says comes
 * from the item's current state: visible → create/update with the resource; gone or no longer visible →
 * delete, but only to a reader who could have seen it (see docs/drive-sync.md § Who sees a delete).
 */
async function entriesFor(tx: Knex.Transaction, caller: Caller, rows: ChangeRow[]): Promise<FeedEntry[]> {
  const rowsByItem = new Map<string, ChangeRow[]>();
  const lastIndex = new Map<string, number>();
  rows.forEach((row, index) => {
    rowsByItem.set(row.item_uuid, [...(rowsByItem.get(row.item_uuid) ?? []), row]);
    lastIndex.set(row.item_uuid, index);
  });
  const uuids = [...rowsByItem.keys()];

  // Every row of the page's items that still exists, judged as the caller sees it now (page-view.ts).
  const stored = (await selectStoredItems(tx, caller).whereIn('i.uuid', uuids)) as StoredItem[];
  const stateOf = new Map(stored.map((row) => [row.uuid, row]));
  const seen = await seenBy(tx, caller, stored);
  const visibleNow = new Set(seen.map((item) => item.uuid));
  const items = seen.filter((item) => item.upload_status !== 'uploading');
  const itemOf = new Map(items.map((item) => [item.uuid, item]));

  // Readers who could have seen an item that is now gone or hidden from them: its owner, anyone ever
  // given access on it or on an ancestor it had, and anyone who still sees one of those ancestors or a
  // folder it lived in before (an item moved out of a shared folder). Its earlier parents come from its
  // rows in this page and its last row before it.
  const lostOrGone = uuids.filter((uuid) => !visibleNow.has(uuid));
  const earlierParent = new Map<string, string | null>();
  const hidden = lostOrGone.filter((uuid) => stateOf.has(uuid));
  if (hidden.length) {
    const previous = (await tx('drive_changes')
      .distinctOn('item_uuid')
      .select('item_uuid', 'parent_uuid')
      .whereIn('item_uuid', hidden)
      .where('seq', '<', rows[0]!.seq)
      .orderBy([{ column: 'item_uuid' }, { column: 'seq', order: 'desc' }])) as {
      item_uuid: string;
      parent_uuid: string | null;
    }[];
    for (const row of previous) earlierParent.set(row.item_uuid, row.parent_uuid);
  }
  const formerParentsOf = (uuid: string) =>
    [earlierParent.get(uuid), ...rowsByItem.get(uuid)!.map((row) => row.parent_uuid)].filter(
      (parent): parent is string => typeof parent === 'string',
    );
  const chainOf = (uuid: string) => [
    uuid,
    ...formerParentsOf(uuid),
    ...rowsByItem.get(uuid)!.flatMap((row) => row.ancestor_uuids),
  ];
  const candidates = [...new Set(lostOrGone.flatMap(chainOf))];
  const audience = new Set<string>();
  const stillSeen = new Set<string>();
  if (candidates.length) {
    const hits = await tx('drive_share_audience')
      .select('item_uuid')
      .whereIn('item_uuid', candidates)
      .where((q) =>
        q
          .where({ principal_type: 'user', principal_uuid: caller.userUuid })
          .orWhere({ principal_type: 'workspace', principal_uuid: caller.workspaceUuid }),
      );
    for (const hit of hits) audience.add(hit.item_uuid);
    const chainRows = (await selectStoredItems(tx, caller).whereIn('i.uuid', candidates)) as StoredItem[];
    for (const item of await seenBy(tx, caller, chainRows)) stillSeen.add(item.uuid);
  }

  const entries: { index: number; entry: FeedEntry }[] = [];
  for (const [uuid, itemRows] of rowsByItem) {
    const index = lastIndex.get(uuid)!;
    const item = itemOf.get(uuid);
    if (item) {
      entries.push({
        index,
        entry: upsert(item, itemRows.some((row) => row.change_type === 'create') ? 'create' : 'update'),
      });
      continue;
    }
    if (visibleNow.has(uuid)) continue; // An upload in progress: withheld until it completes.
    const state = stateOf.get(uuid);
    const deleteRow = itemRows.find((row) => row.change_type === 'delete');
    if (!state && !deleteRow) continue; // Gone since; its own delete row speaks for it.
    const chain = chainOf(uuid);
    const couldSee =
      itemRows.some((row) => row.owner_uuid === caller.userUuid) ||
      chain.some((link) => audience.has(link) || stillSeen.has(link));
    if (!couldSee) continue;
    // Where it lived as this reader knew it: as recorded with a delete; for an item that moved out of their
    // view, the folder they still see; else its place now.
    const parentUuid = deleteRow
      ? deleteRow.parent_uuid
      : (formerParentsOf(uuid).find((parent) => stillSeen.has(parent)) ?? state!.parent_uuid);
    entries.push({
      index,
      entry: { type: 'delete', resourceType: itemRows[0]!.resource_type, uuid, parentUuid },
    });
  }
  return entries.sort((a, b) => a.index - b.index).map(({ entry }) => entry);
}

/**
 * Orders a page so a parent precedes its children, and pulls a parent forward into the page when the
 * reader may not hold it yet: when it changes again after `laterThan`, it could be a folder created (or
 * moved, or shared) after the reader's position. Pulled parents appear again at their own changes.
 */
async function withParentsFirst(
  tx: Knex.Transaction,
  caller: Caller,
  entries: FeedEntry[],
  laterThan: string,
): Promise<FeedEntry[]> {
  const present = new Set(entries.filter((entry) => entry.type !== 'delete').map((entry) => entry.uuid));
  const parentsOf = (list: VisibleItem[]) => [
    ...new Set(
      list
        .map((item) => item.parent_uuid)
        .filter((uuid): uuid is string => uuid !== null && !present.has(uuid)),
    ),
  ];
  const pulled: UpsertEntry[] = [];
  let missing = parentsOf(entries.flatMap((entry) => ('item' in entry ? [entry.item] : [])));
  while (missing.length) {
    // The workspace's changes after the position are usually few: its (workspace, seq) index finds them at once.
    const later = await tx('drive_changes')
      .distinct('item_uuid')
      .where('workspace_uuid', caller.workspaceUuid)
      .where('seq', '>', laterThan)
      .whereIn('item_uuid', missing);
    if (!later.length) break;
    const parents = (await selectVisible(tx, caller)
      .whereIn(
        'i.uuid',
        later.map((row) => row.item_uuid),
      )
      .orderBy([{ column: 'i.depth' }, { column: 'i.uuid' }])) as VisibleItem[];
    for (const parent of parents) {
      present.add(parent.uuid);
      pulled.push(upsert(parent, 'update'));
    }
    missing = parentsOf(parents);
  }
  return parentsBeforeChildren([...pulled.reverse(), ...entries]);
}

/** Stable reorder: each entry keeps its place unless a parent in the page must come before it. */
function parentsBeforeChildren(entries: FeedEntry[]): FeedEntry[] {
  const byUuid = new Map(entries.flatMap((entry) => ('item' in entry ? [[entry.uuid, entry] as const] : [])));
  const placed = new Set<FeedEntry>();
  const ordered: FeedEntry[] = [];
  const place = (entry: FeedEntry) => {
    if (placed.has(entry)) return;
    placed.add(entry);
    const parent = 'item' in entry && entry.item.parent_uuid ? byUuid.get(entry.item.parent_uuid) : undefined;
    if (parent) place(parent);
    ordered.push(entry);
  };
  entries.forEach(place);
  return ordered;
}
