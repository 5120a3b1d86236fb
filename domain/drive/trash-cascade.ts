// The trash, restore and permanent-delete cascades over a folder's subtree: one bounded batch per call, one
// transaction per batch, idempotent by construction (workflows/drive-trash.ts runs them; trash.ts records the
// operation they carry out). The design and what readers see meanwhile: docs/drive-trash.md.
import type { Knex } from 'knex';
import type { DriveCascadeKind } from '../unit-of-work.js';
import { appendChanges } from './change-log.js';
import type { ObjectStore, StoredContent } from './content-objects.js';
import { thumbnailKeysOfFiles } from './thumbnails.js';
import { ancestorUuids, isNameTaken, nameKeys } from './items.js';
import type { ItemRow, TrashOperationRow, VersionRow } from './rows.js';
import { poolBytesHeld } from './versions.js';
import { releaseStorage } from '../storage-pool.js';

/** Items one cascade batch changes in one transaction (with their change-log entries). */
const CASCADE_BATCH_SIZE = 500;

// Each batch picks items of the subtree not yet in the target state, so a batch retried after its commit picks
// the next ones.

type CascadeBatchState = 'continue' | 'done' | 'superseded' | 'abandoned';

export interface CascadeBatchResult {
  state: CascadeBatchState;
  changed: number;
}

type Guarded =
  | { go: true; operation: TrashOperationRow; root: ItemRow }
  | { go: false; state: Exclude<CascadeBatchState, 'continue'> };

/**
 * Whether this operation may still change the subtree. Takes the root's row lock (shared) for the batch, so
 * an API call on the root waits for the batch in flight and every batch sees the root as the API left it.
 * Only the latest operation on a root cascades: a restore supersedes a trash still running, and so on.
 */
async function guard(
  tx: Knex.Transaction,
  kind: DriveCascadeKind,
  operationUuid: string,
  rootUuid: string,
): Promise<Guarded> {
  const root = (await tx('drive_items').where({ uuid: rootUuid }).forShare().first()) as ItemRow | undefined;
  // A separate statement: after waiting for a request's lock on the root, its fresh snapshot sees what committed.
  const operation = (await tx('drive_trash_operations').where({ uuid: operationUuid }).first()) as
    TrashOperationRow | undefined;
  // The outbox starts a cascade only after its operation committed; none means a start by hand with a wrong id.
  if (!operation) return { go: false, state: 'abandoned' };
  if (operation.kind !== kind || operation.root_uuid !== rootUuid)
    throw new Error(`operation ${operationUuid} is not a ${kind} of ${rootUuid}`);
  if (!root) return { go: false, state: kind === 'delete' ? 'done' : 'superseded' };
  const latest = await tx('drive_trash_operations')
    .where({ root_uuid: rootUuid })
    .orderBy('seq', 'desc')
    .first('uuid');
  const rootAsLeft =
    kind === 'trash'
      ? root.trashed && root.trashed_with === root.uuid && root.deleted_at === null
      : kind === 'restore'
        ? !root.trashed && root.deleted_at === null
        : root.deleted_at !== null;
  if (latest?.uuid !== operationUuid || !rootAsLeft) return { go: false, state: 'superseded' };
  return { go: true, operation, root };
}

export interface CascadeBatchInput {
  operationUuid: string;
  rootUuid: string;
}

/**
 * Trashes the next live items of the subtree, top-down: live children of the root or of a folder already
 * trashed with it. Items trashed before (another trashed_with) are neither touched nor entered.
 */
export async function trashCascadeBatch(
  knex: Knex,
  input: CascadeBatchInput,
  limit = CASCADE_BATCH_SIZE,
): Promise<CascadeBatchResult> {
  return knex.transaction(async (tx) => {
    const guarded = await guard(tx, 'trash', input.operationUuid, input.rootUuid);
    if (!guarded.go) return { state: guarded.state, changed: 0 };
    const { root } = guarded;
    const changed: ItemRow[] = [];
    let exhausted = false;
    while (changed.length < limit) {
      // The folders trashed with the root are exactly its subtree's trashed part: no walk needed. Ordering each
      // folder's live children by name lets the live-name index find them without visiting trashed ones.
      const { rows: candidates } = (await tx.raw(
        `select c.uuid from (select ?::uuid as uuid
                             union all
                             select f.uuid from drive_items f
                              where f.trashed_with = ? and f.kind = 'folder' and f.trashed and f.deleted_at is null) folders
         cross join lateral (select c.uuid from drive_items c
                              where c.parent_uuid = folders.uuid and not c.trashed and c.deleted_at is null
                              order by drive_name_key(c.name)
                              limit ?) c
         limit ?`,
        [root.uuid, root.uuid, limit - changed.length, limit - changed.length],
      )) as { rows: { uuid: string }[] };
      if (!candidates.length) {
        exhausted = true;
        break;
      }
      const rows = (await tx('drive_items')
        .whereIn(
          'uuid',
          candidates.map((row) => row.uuid),
        )
        .where({ trashed: false })
        .whereNull('deleted_at')
        .update({
          trashed: true,
          trashed_at: root.trashed_at,
          trashed_with: root.uuid,
          version: tx.raw('version + 1'),
          updated_at: tx.fn.now(),
        })
        .returning('*')) as ItemRow[];
      changed.push(...rows);
    }
    await countChanged(tx, input.operationUuid, changed.length);
    await appendChanges(tx, 'update', changed);
    return { state: exhausted ? 'done' : 'continue', changed: changed.length };
  });
}

// Planner statistics lag far behind a cascade (a whole subtree changes state within seconds), so the walks
// below probe child by parent through lateral subqueries that cannot be flattened (limit/offset), whatever the
// estimates: a flattened join once scanned the whole table per batch.

/** The live folders of a subtree (the restored part of it, root included): live(uuid). */
const LIVE_FOLDERS_OF_SUBTREE = `with recursive live(uuid) as (
    select ?::uuid
    union all
    select c.uuid from live p
    cross join lateral (select c.uuid from drive_items c
                         where c.parent_uuid = p.uuid and c.kind = 'folder' and not c.trashed and c.deleted_at is null
                         offset 0) c
  )`;

/** Every folder of a subtree with its path (itself, then its ancestors up to the Drive root): sub(uuid, path). */
const FOLDERS_OF_SUBTREE = `with recursive sub(uuid, path) as (
    select ?::uuid, ?::uuid[]
    union all
    select c.uuid, array[c.uuid] || p.path from sub p
    cross join lateral (select c.uuid from drive_items c where c.parent_uuid = p.uuid and c.kind = 'folder' offset 0) c
  )`;

/**
 * Restores the next items trashed with the operation's group, top-down: those whose folder is the root or a
 * live folder of its subtree. A name taken meanwhile by a live sibling gets a " (n)" suffix rather than
 * leaving the cascade stuck (the item the caller named got 422 name_taken instead).
 */
export async function restoreCascadeBatch(
  knex: Knex,
  input: CascadeBatchInput,
  limit = CASCADE_BATCH_SIZE,
): Promise<CascadeBatchResult> {
  return knex.transaction(async (tx) => {
    const guarded = await guard(tx, 'restore', input.operationUuid, input.rootUuid);
    if (!guarded.go) return { state: guarded.state, changed: 0 };
    const { root, operation } = guarded;
    const group = operation.trashed_with!;
    const changed: ItemRow[] = [];
    let exhausted = false;
    while (changed.length < limit) {
      const { rows: picked } = (await tx.raw(
        `${LIVE_FOLDERS_OF_SUBTREE}
         select c.uuid from live l
         cross join lateral (select c.uuid from drive_items c
                              where c.trashed_with = ? and c.parent_uuid = l.uuid and c.trashed and c.deleted_at is null
                              limit ?) c
         limit ?`,
        [root.uuid, group, limit - changed.length, limit - changed.length],
      )) as { rows: { uuid: string }[] };
      if (!picked.length) {
        exhausted = true;
        break;
      }
      const candidates = (await tx('drive_items')
        .whereIn(
          'uuid',
          picked.map((row) => row.uuid),
        )
        .where({ trashed: true, trashed_with: group })
        .whereNull('deleted_at')
        .forUpdate()
        .select('uuid', 'parent_uuid', 'name')) as { uuid: string; parent_uuid: string; name: string }[];
      await renameClashes(tx, candidates);
      const rows = (await tx('drive_items')
        .whereIn(
          'uuid',
          candidates.map((row) => row.uuid),
        )
        .where({ trashed: true, trashed_with: group })
        .whereNull('deleted_at')
        .update({
          trashed: false,
          trashed_at: null,
          trashed_with: null,
          version: tx.raw('version + 1'),
          updated_at: tx.fn.now(),
        })
        .returning('*')) as ItemRow[];
      changed.push(...rows);
    }
    await countChanged(tx, input.operationUuid, changed.length);
    await appendChanges(tx, 'update', changed);
    return { state: exhausted ? 'done' : 'continue', changed: changed.length };
  });
}

/** Gives a free " (n)" name to each candidate whose name a live sibling (or an earlier candidate) holds. */
async function renameClashes(
  tx: Knex.Transaction,
  candidates: { uuid: string; parent_uuid: string; name: string }[],
): Promise<void> {
  const { rows: clashing } = (await tx.raw(
    `select c.uuid from drive_items c
      where c.uuid = any(?::uuid[])
        and exists (select 1 from drive_items s
                     where s.parent_uuid = c.parent_uuid and drive_name_key(s.name) = drive_name_key(c.name)
                       and not s.trashed and s.deleted_at is null and s.uuid <> c.uuid)`,
    [candidates.map((row) => row.uuid)],
  )) as { rows: { uuid: string }[] };
  const clashes = new Set(clashing.map((row) => row.uuid));
  // Keyed by drive_name_key, as the live-name indexes compare: computed in SQL, never in JS.
  const keys = await nameKeys(
    tx,
    candidates.map((row) => row.name),
  );
  const claimed = new Set<string>();
  for (const [index, candidate] of candidates.entries()) {
    const key = `${candidate.parent_uuid}/${keys[index]}`;
    if (!clashes.has(candidate.uuid) && !claimed.has(key)) {
      claimed.add(key);
      continue;
    }
    const free = await freeName(tx, candidate.parent_uuid, candidate.name, claimed);
    claimed.add(`${candidate.parent_uuid}/${free.key}`);
    await tx('drive_items').where({ uuid: candidate.uuid }).update({ name: free.name });
  }
}

async function freeName(
  tx: Knex.Transaction,
  parentUuid: string,
  name: string,
  claimed: Set<string>,
): Promise<{ name: string; key: string }> {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const suffix = ` (${n})${extension}`;
    const candidate = stem.slice(0, 255 - suffix.length) + suffix;
    const [key] = await nameKeys(tx, [candidate]);
    if (claimed.has(`${parentUuid}/${key}`)) continue;
    if (!(await isNameTaken(tx, { folderUuid: parentUuid }, candidate)))
      return { name: candidate, key: key! };
  }
}

type DoomedRow = ItemRow & { ancestor_uuids: string[] };

/**
 * Removes the next items of a deleted subtree, leaves first: files (with every stored object of every version
 * and their pool bytes), then folders deepest first, the root last. Each removed item gets its delete change
 * with its ancestors, except roots of a delete (their change was appended when the delete was asked for).
 */
export async function deleteCascadeBatch(
  deps: StoredContent,
  input: CascadeBatchInput,
  limit = CASCADE_BATCH_SIZE,
  onProgress: () => void = () => {},
): Promise<CascadeBatchResult> {
  const store = deps.objects;
  return deps.db.transaction(async (tx) => {
    const guarded = await guard(tx, 'delete', input.operationUuid, input.rootUuid);
    if (!guarded.go) return { state: guarded.state, changed: 0 };
    const { root } = guarded;
    const rootPath = [root.uuid, ...(await ancestorUuids(tx, root.parent_uuid))];
    if (root.kind === 'file') {
      await countChanged(tx, input.operationUuid, 1);
      await removeFiles(tx, store, [{ ...root, ancestor_uuids: rootPath.slice(1) }], onProgress);
      return { state: 'done', changed: 1 };
    }
    const { rows: picked } = (await tx.raw(
      `${FOLDERS_OF_SUBTREE}
       select c.uuid, p.path from sub p
       cross join lateral (select c.uuid from drive_items c where c.parent_uuid = p.uuid and c.kind = 'file' limit ?) c
       limit ?`,
      [root.uuid, rootPath, limit, limit],
    )) as { rows: { uuid: string; path: string[] }[] };
    const pathOf = new Map(picked.map((row) => [row.uuid, row.path]));
    const files = (
      (await tx('drive_items')
        .whereIn('uuid', [...pathOf.keys()])
        .forUpdate()
        .select('*')) as ItemRow[]
    ).map((row) => ({
      ...row,
      ancestor_uuids: pathOf.get(row.uuid)!,
    }));
    if (files.length) {
      await countChanged(tx, input.operationUuid, files.length);
      await removeFiles(tx, store, files, onProgress);
      return { state: 'continue', changed: files.length };
    }
    const { rows: deepest } = (await tx.raw(
      `${FOLDERS_OF_SUBTREE}
       select c.*, p.path[2:] as ancestor_uuids from drive_items c join sub p on p.uuid = c.uuid
        order by c.depth desc
        limit ?
        for update of c`,
      [root.uuid, rootPath, limit],
    )) as { rows: DoomedRow[] };
    const folders = await closedUnderChildren(tx, deepest);
    if (!folders.length)
      throw new Error(
        `delete ${input.operationUuid}: no removable folder among the ${deepest.length} deepest`,
      );
    await tx('drive_items')
      .whereIn(
        'uuid',
        folders.map((row) => row.uuid),
      )
      .delete();
    await countChanged(tx, input.operationUuid, folders.length);
    await appendDeleteChanges(tx, folders);
    const rootRemoved = folders.some((row) => row.uuid === root.uuid);
    return { state: rootRemoved ? 'done' : 'continue', changed: folders.length };
  });
}

/**
 * The rows that can go in one statement: none may keep a child outside the set. Depth order makes that true
 * already; this guards against a child that arrived meanwhile (it is taken by the next batch).
 */
async function closedUnderChildren(tx: Knex.Transaction, rows: DoomedRow[]): Promise<DoomedRow[]> {
  let kept = rows;
  for (;;) {
    if (!kept.length) return kept;
    const ids = new Set(kept.map((row) => row.uuid));
    const children = (await tx('drive_items')
      .whereIn('parent_uuid', [...ids])
      .select('uuid', 'parent_uuid')) as { uuid: string; parent_uuid: string }[];
    const blocked = new Set(
      children.filter((child) => !ids.has(child.uuid)).map((child) => child.parent_uuid),
    );
    if (!blocked.size) return kept;
    kept = kept.filter((row) => !blocked.has(row.uuid));
  }
}

type VersionObject = Pick<
  VersionRow,
  'status' | 'storage_key' | 'storage_upload_id' | 'plaintext_size_bytes'
>;

/** Discards the files' stored objects, then their rows (versions, grants and links go by FK cascade). */
async function removeFiles(
  tx: Knex.Transaction,
  store: ObjectStore,
  files: DoomedRow[],
  onProgress: () => void,
): Promise<void> {
  const uuids = files.map((file) => file.uuid);
  const versions = (await tx('drive_file_versions')
    .whereIn('file_uuid', uuids)
    .select('status', 'storage_key', 'storage_upload_id', 'plaintext_size_bytes')) as VersionObject[];
  // Thumbnails are objects of their versions, removed with them.
  const thumbnails = (await thumbnailKeysOfFiles(tx, uuids)).map((key) => ({
    status: 'live' as const,
    storage_key: key,
    storage_upload_id: null,
    plaintext_size_bytes: 0,
  }));
  // Objects go before the rows: a crash in between leaves rows (invisible, still marked for deletion) that the
  // retried batch removes; the other order would leave objects nothing points to.
  await discardObjects(store, [...versions, ...thumbnails], onProgress);
  await tx('drive_items').whereIn('uuid', uuids).delete();
  await releaseStorage(tx, files[0]!.workspace_uuid, poolBytesHeld(versions));
  await appendDeleteChanges(tx, files);
}

/** Objects removed between two signs of progress (a heartbeat of the cascade's activity). */
const REMOVE_OBJECTS_PER_PROGRESS = 1000;

async function discardObjects(
  store: ObjectStore,
  versions: VersionObject[],
  onProgress: () => void,
): Promise<void> {
  // An upload in flight also has a multipart upload (and maybe strays from a crashed writer) to abort.
  for (const version of versions.filter((row) => row.status === 'staged')) {
    await store.discard(version.storage_key, version.storage_upload_id);
    onProgress();
  }
  const keys = versions.filter((row) => row.status !== 'staged').map((row) => row.storage_key);
  for (let start = 0; start < keys.length; start += REMOVE_OBJECTS_PER_PROGRESS) {
    await store.removeMany(keys.slice(start, start + REMOVE_OBJECTS_PER_PROGRESS));
    onProgress();
  }
}

async function appendDeleteChanges(tx: Knex.Transaction, rows: DoomedRow[]): Promise<void> {
  // A delete carries a version above the item's last update, so a client skipping held versions applies it.
  const announced = rows
    .filter((row) => row.deleted_at === null)
    .map((row) => ({ ...row, version: row.version + 1 }));
  const ancestors = new Map(rows.map((row) => [row.uuid, row.ancestor_uuids]));
  await appendChanges(tx, 'delete', announced, (item) => ancestors.get(item.uuid) ?? []);
}

/** The operation's tally, kept in the batch's transaction so that a batch whose result was lost still counts. */
async function countChanged(tx: Knex.Transaction, operationUuid: string, changed: number): Promise<void> {
  if (changed > 0)
    await tx('drive_trash_operations').where({ uuid: operationUuid }).increment('items_changed', changed);
}

/**
 * Records how an operation ended and answers how many items its cascade changed; a retry after the first
 * record changes nothing.
 */
export async function finishTrashOperation(
  knex: Knex,
  input: { operationUuid: string; outcome: 'completed' | 'superseded' },
): Promise<number> {
  await knex('drive_trash_operations')
    .where({ uuid: input.operationUuid, status: 'running' })
    .update({ status: input.outcome, completed_at: knex.fn.now() });
  const operation = await knex('drive_trash_operations')
    .where({ uuid: input.operationUuid })
    .first('items_changed');
  return operation?.items_changed ?? 0;
}
