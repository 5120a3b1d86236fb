// Trash, restore and permanent delete of Drive items: the change to the item the caller named, made in the
// API's transaction, and the bounded batches in which the cascade workflows (workflows/drive-trash.ts) carry
// it over a folder's subtree. The design and what readers see meanwhile: docs/drive-trash.md.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { config } from '../../platform/config.js';
import { db } from '../../platform/database.js';
import { temporalClient } from '../../platform/temporal.js';
import { FOLIO_RESOURCE_ID, FOLIO_WORKSPACE_ID } from '../../workflows/client.js';
import type { DriveCascadeInput, DriveCascadeResult } from '../../workflows/drive-trash.js';
import { driveCascadeWorkflowId, type DriveCascadeKind } from '../../workflows/ids.js';
import { appendChange, appendChanges } from './changes.js';
import { discardStoredObject, type ContentStore } from './content-objects.js';
import { notAuthorized } from './errors.js';
import { ancestorUuids, findVisibleItem, type DriveCaller, type ItemKind, type ItemRow, type VisibleItem } from './items.js';
import { NEEDS } from './roles.js';
import { releaseStorage } from '../storage-pool.js';

/** Items one cascade batch changes in one transaction (with their change-log entries). */
export const CASCADE_BATCH_SIZE = 500;

const CASCADE_WORKFLOWS: Record<DriveCascadeKind, string> = {
  trash: 'trashCascadeWorkflow',
  restore: 'restoreCascadeWorkflow',
  delete: 'deleteCascadeWorkflow',
};

/** An item row with the permanent-delete mark this change adds (db/migrations/004_drive_trash.ts). */
type TrashRow = ItemRow & { deleted_at: Date | null };

export interface TrashOperationRow {
  uuid: string;
  seq: string;
  workspace_uuid: string;
  root_uuid: string;
  kind: DriveCascadeKind;
  trashed_with: string | null;
  actor_uuid: string;
  status: 'running' | 'completed' | 'superseded';
  items_changed: number;
  created_at: Date;
  completed_at: Date | null;
}

// ---------------------------------------------------------------------------------------------------------
// The synchronous part: the item the caller named, in one transaction with its change and its cascade start.

/**
 * Moves an item to the trash (editor or above). A folder's descendants follow in the trash cascade. Trashing
 * an item already in the trash changes nothing.
 */
export async function trashItem(me: DriveCaller, uuid: string, kind?: ItemKind): Promise<VisibleItem> {
  return db().transaction(async (tx) => {
    const item = await findVisibleItem(tx, me, uuid, { kind, needs: NEEDS.trash, forUpdate: true });
    if (item.trashed) return item;
    const [trashed] = (await tx('drive_items')
      .where({ uuid: item.uuid })
      .update({ trashed: true, trashed_at: tx.fn.now(), trashed_with: item.uuid, version: tx.raw('version + 1'), updated_at: tx.fn.now() })
      .returning('*')) as ItemRow[];
    if (item.kind === 'folder') await beginCascade(tx, 'trash', me, trashed!);
    const answer = await findVisibleItem(tx, me, item.uuid);
    await appendChange(tx, 'update', trashed!);
    return answer;
  });
}

/**
 * Brings an item back from the trash (editor or above) with exactly what was trashed with it: the
 * descendants whose trashed_with is the item's own trashed_with. A live item with the same name in the
 * destination gives 422 name_taken and changes nothing. When the item's folder is still in the trash (and is
 * not itself being restored), the item comes back at its owner's Drive root; only the owner may do that.
 */
export async function restoreItem(me: DriveCaller, uuid: string, kind?: ItemKind): Promise<VisibleItem> {
  return db().transaction(async (tx) => {
    const item = await findVisibleItem(tx, me, uuid, { kind, needs: NEEDS.trash, forUpdate: true });
    if (!item.trashed) return item;
    const group = item.trashed_with ?? item.uuid;
    const toOwnersRoot = await parentStaysInTrash(tx, item, group);
    if (toOwnersRoot && item.owner_uuid !== me.userUuid) {
      throw notAuthorized('The folder this item was in is in the trash; only the owner can restore it, to their Drive root.');
    }
    const patch: Record<string, unknown> = { trashed: false, trashed_at: null, trashed_with: null, version: tx.raw('version + 1'), updated_at: tx.fn.now() };
    if (toOwnersRoot) Object.assign(patch, { parent_uuid: null, depth: 0 });
    // The live-name indexes refuse a taken name here: 422 name_taken (db/constraint-errors.ts), nothing changed.
    const [restored] = (await tx('drive_items').where({ uuid: item.uuid }).update(patch).returning('*')) as ItemRow[];
    if (toOwnersRoot && item.kind === 'folder' && item.depth !== 0) await shiftSubtreeDepth(tx, item.uuid, -item.depth);
    if (item.kind === 'folder') await beginCascade(tx, 'restore', me, restored!, group);
    const answer = await findVisibleItem(tx, me, item.uuid);
    await appendChange(tx, 'update', restored!);
    return answer;
  });
}

/**
 * Permanently deletes an item and, for a folder, its whole subtree (manager or above). The item disappears for
 * every reader at once and its delete change is appended now; the delete cascade then removes the rows, their
 * stored bytes and their pool accounting, with a delete change for every descendant.
 */
export async function deleteItem(me: DriveCaller, uuid: string, kind?: ItemKind): Promise<void> {
  await db().transaction(async (tx) => {
    const item = await findVisibleItem(tx, me, uuid, { kind, needs: NEEDS.delete, forUpdate: true });
    const [marked] = (await tx('drive_items')
      .where({ uuid: item.uuid })
      .update({ deleted_at: tx.fn.now(), version: tx.raw('version + 1'), updated_at: tx.fn.now() })
      .returning('*')) as ItemRow[];
    const ancestors = await ancestorUuids(tx, item.parent_uuid);
    await beginCascade(tx, 'delete', me, marked!);
    await appendChange(tx, 'delete', marked!, ancestors);
  });
}

/** True when the item's folder is in the trash and will not come back with it. */
async function parentStaysInTrash(tx: Knex.Transaction, item: ItemRow, group: string): Promise<boolean> {
  if (!item.parent_uuid) return false;
  const parent = await tx('drive_items').where({ uuid: item.parent_uuid }).forShare().first('trashed', 'trashed_with');
  if (!parent?.trashed) return false;
  // The parent went to the trash with this item and that trash is being restored: its cascade brings the
  // parent back too, so the item stays where it is.
  if (parent.trashed_with !== group) return true;
  const groupRoot = await tx('drive_items').where({ uuid: group }).first('trashed', 'deleted_at');
  return !groupRoot || groupRoot.trashed || groupRoot.deleted_at !== null;
}

async function shiftSubtreeDepth(tx: Knex.Transaction, folderUuid: string, delta: number): Promise<void> {
  await tx.raw(
    `with recursive sub as (
       select uuid from drive_items where parent_uuid = ?
       union all select d.uuid from drive_items d join sub on d.parent_uuid = sub.uuid
     ) update drive_items set depth = depth + ? where uuid in (select uuid from sub)`,
    [folderUuid, delta],
  );
}

/**
 * Records the operation and starts its cascade workflow inside the caller's transaction, before commit: a
 * crash after the commit cannot lose the cascade, and if the transaction rolls back the workflow's first
 * batch (which waits on the root's row lock) finds no operation and ends as abandoned.
 */
async function beginCascade(
  tx: Knex.Transaction,
  kind: DriveCascadeKind,
  me: DriveCaller,
  root: ItemRow,
  trashedWith?: string,
): Promise<void> {
  const operationUuid = randomUUID();
  await tx('drive_trash_operations').insert({
    uuid: operationUuid,
    workspace_uuid: root.workspace_uuid,
    root_uuid: root.uuid,
    kind,
    trashed_with: trashedWith ?? null,
    actor_uuid: me.userUuid,
  });
  const client = await temporalClient();
  await client.workflow.start<(input: DriveCascadeInput) => Promise<DriveCascadeResult>>(CASCADE_WORKFLOWS[kind], {
    workflowId: driveCascadeWorkflowId(kind, root.uuid, operationUuid),
    taskQueue: config().temporal.taskQueue,
    args: [{ operationUuid, rootUuid: root.uuid, workspaceUuid: root.workspace_uuid }],
    typedSearchAttributes: [
      { key: FOLIO_WORKSPACE_ID, value: root.workspace_uuid },
      { key: FOLIO_RESOURCE_ID, value: root.uuid },
    ],
  });
}

// ---------------------------------------------------------------------------------------------------------
// The cascades: one batch per call, one transaction per batch, idempotent by construction. Each batch picks
// items of the subtree not yet in the target state, so a batch retried after its commit picks the next ones.

export type CascadeBatchState = 'continue' | 'done' | 'superseded' | 'abandoned';

export interface CascadeBatchResult {
  state: CascadeBatchState;
  changed: number;
}

type Guarded = { go: true; operation: TrashOperationRow; root: TrashRow } | { go: false; state: Exclude<CascadeBatchState, 'continue'> };

/**
 * Whether this operation may still change the subtree. Takes the root's row lock (shared) for the batch, so
 * an API call on the root waits for the batch in flight and every batch sees the root as the API left it.
 * Only the latest operation on a root cascades: a restore supersedes a trash still running, and so on.
 */
async function guard(tx: Knex.Transaction, kind: DriveCascadeKind, operationUuid: string, rootUuid: string): Promise<Guarded> {
  const root = (await tx('drive_items').where({ uuid: rootUuid }).forShare().first()) as TrashRow | undefined;
  // A separate statement: after waiting for the API's lock, its fresh snapshot sees the committed operation.
  const operation = (await tx('drive_trash_operations').where({ uuid: operationUuid }).first()) as TrashOperationRow | undefined;
  if (!operation) return { go: false, state: 'abandoned' };
  if (operation.kind !== kind || operation.root_uuid !== rootUuid) throw new Error(`operation ${operationUuid} is not a ${kind} of ${rootUuid}`);
  if (!root) return { go: false, state: kind === 'delete' ? 'done' : 'superseded' };
  const latest = await tx('drive_trash_operations').where({ root_uuid: rootUuid }).orderBy('seq', 'desc').first('uuid');
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
export async function trashCascadeBatch(knex: Knex, input: CascadeBatchInput, limit = CASCADE_BATCH_SIZE): Promise<CascadeBatchResult> {
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
                              order by lower(c.name)
                              limit ?) c
         limit ?`,
        [root.uuid, root.uuid, limit - changed.length, limit - changed.length],
      )) as { rows: { uuid: string }[] };
      if (!candidates.length) {
        exhausted = true;
        break;
      }
      const rows = (await tx('drive_items')
        .whereIn('uuid', candidates.map((row) => row.uuid))
        .where({ trashed: false })
        .whereNull('deleted_at')
        .update({ trashed: true, trashed_at: root.trashed_at, trashed_with: root.uuid, version: tx.raw('version + 1'), updated_at: tx.fn.now() })
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
export async function restoreCascadeBatch(knex: Knex, input: CascadeBatchInput, limit = CASCADE_BATCH_SIZE): Promise<CascadeBatchResult> {
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
        .whereIn('uuid', picked.map((row) => row.uuid))
        .where({ trashed: true, trashed_with: group })
        .whereNull('deleted_at')
        .forUpdate()
        .select('uuid', 'parent_uuid', 'name')) as { uuid: string; parent_uuid: string; name: string }[];
      await renameClashes(tx, candidates);
      const rows = (await tx('drive_items')
        .whereIn('uuid', candidates.map((row) => row.uuid))
        .where({ trashed: true, trashed_with: group })
        .whereNull('deleted_at')
        .update({ trashed: false, trashed_at: null, trashed_with: null, version: tx.raw('version + 1'), updated_at: tx.fn.now() })
        .returning('*')) as ItemRow[];
      changed.push(...rows);
    }
    await countChanged(tx, input.operationUuid, changed.length);
    await appendChanges(tx, 'update', changed);
    return { state: exhausted ? 'done' : 'continue', changed: changed.length };
  });
}

/** Gives a free " (n)" name to each candidate whose name a live sibling (or an earlier candidate) holds. */
async function renameClashes(tx: Knex.Transaction, candidates: { uuid: string; parent_uuid: string; name: string }[]): Promise<void> {
  const { rows: clashing } = (await tx.raw(
    `select c.uuid from drive_items c
      where c.uuid = any(?::uuid[])
        and exists (select 1 from drive_items s
                     where s.parent_uuid = c.parent_uuid and lower(s.name) = lower(c.name)
                       and not s.trashed and s.deleted_at is null and s.uuid <> c.uuid)`,
    [pgUuidArray(candidates.map((row) => row.uuid))],
  )) as { rows: { uuid: string }[] };
  const clashes = new Set(clashing.map((row) => row.uuid));
  const claimed = new Set<string>();
  for (const candidate of candidates) {
    const key = `${candidate.parent_uuid}/${candidate.name.toLowerCase()}`;
    if (!clashes.has(candidate.uuid) && !claimed.has(key)) {
      claimed.add(key);
      continue;
    }
    const name = await freeName(tx, candidate.parent_uuid, candidate.name, claimed);
    claimed.add(`${candidate.parent_uuid}/${name.toLowerCase()}`);
    await tx('drive_items').where({ uuid: candidate.uuid }).update({ name });
  }
}

async function freeName(tx: Knex.Transaction, parentUuid: string, name: string, claimed: Set<string>): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const suffix = ` (${n})${extension}`;
    const candidate = stem.slice(0, 255 - suffix.length) + suffix;
    if (claimed.has(`${parentUuid}/${candidate.toLowerCase()}`)) continue;
    const taken = await tx('drive_items')
      .where({ parent_uuid: parentUuid, trashed: false })
      .whereNull('deleted_at')
      .whereRaw('lower(name) = lower(?)', [candidate])
      .first('uuid');
    if (!taken) return candidate;
  }
}

type DoomedRow = TrashRow & { ancestor_uuids: string[] };

/**
 * Removes the next items of a deleted subtree, leaves first: files (with every stored object of every version
 * and their pool bytes), then folders deepest first, the root last. Each removed item gets its delete change
 * with its ancestors, except roots of a delete (their change was appended when the delete was asked for).
 */
export async function deleteCascadeBatch(
  knex: Knex,
  store: ContentStore,
  input: CascadeBatchInput,
  limit = CASCADE_BATCH_SIZE,
  onProgress: () => void = () => {},
): Promise<CascadeBatchResult> {
  return knex.transaction(async (tx) => {
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
      [root.uuid, pgUuidArray(rootPath), limit, limit],
    )) as { rows: { uuid: string; path: string[] }[] };
    const pathOf = new Map(picked.map((row) => [row.uuid, row.path]));
    const files = ((await tx('drive_items').whereIn('uuid', [...pathOf.keys()]).forUpdate().select('*')) as TrashRow[]).map((row) => ({
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
      [root.uuid, pgUuidArray(rootPath), limit],
    )) as { rows: DoomedRow[] };
    const folders = await closedUnderChildren(tx, deepest);
    if (!folders.length) throw new Error(`delete ${input.operationUuid}: no removable folder among the ${deepest.length} deepest`);
    await tx('drive_items').whereIn('uuid', folders.map((row) => row.uuid)).delete();
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
    const children = (await tx('drive_items').whereIn('parent_uuid', [...ids]).select('uuid', 'parent_uuid')) as { uuid: string; parent_uuid: string }[];
    const blocked = new Set(children.filter((child) => !ids.has(child.uuid)).map((child) => child.parent_uuid));
    if (!blocked.size) return kept;
    kept = kept.filter((row) => !blocked.has(row.uuid));
  }
}

interface VersionObject {
  status: 'staged' | 'live' | 'retired' | 'aborted';
  storage_key: string;
  storage_upload_id: string | null;
  plaintext_size_bytes: string | number;
}

/** Discards the files' stored objects, then their rows (versions, grants and links go by FK cascade). */
async function removeFiles(tx: Knex.Transaction, store: ContentStore, files: DoomedRow[], onProgress: () => void): Promise<void> {
  const uuids = files.map((file) => file.uuid);
  const versions = (await tx('drive_file_versions')
    .whereIn('file_uuid', uuids)
    .select('status', 'storage_key', 'storage_upload_id', 'plaintext_size_bytes')) as VersionObject[];
  // Objects go before the rows: a crash in between leaves rows (invisible, still marked for deletion) that the
  // retried batch removes; the other order would leave objects nothing points to.
  await discardObjects(store, versions, onProgress);
  await tx('drive_items').whereIn('uuid', uuids).delete();
  const poolBytes = versions.filter((version) => version.status !== 'aborted').reduce((sum, version) => sum + Number(version.plaintext_size_bytes), 0);
  await releaseStorage(tx, files[0]!.workspace_uuid, poolBytes);
  await appendDeleteChanges(tx, files);
}

const REMOVE_OBJECTS_PER_REQUEST = 1000;

async function discardObjects(store: ContentStore, versions: VersionObject[], onProgress: () => void): Promise<void> {
  // An upload in flight also has a multipart upload (and maybe strays from a crashed writer) to abort.
  for (const version of versions.filter((row) => row.status === 'staged')) {
    await discardStoredObject(store, version.storage_key, version.storage_upload_id);
    onProgress();
  }
  const keys = versions.filter((row) => row.status !== 'staged').map((row) => row.storage_key);
  for (let start = 0; start < keys.length; start += REMOVE_OBJECTS_PER_REQUEST) {
    const results = await store.storage.removeObjects(store.bucket, keys.slice(start, start + REMOVE_OBJECTS_PER_REQUEST));
    const failures = results.filter((result) => {
      const code = (result as { Code?: string; Error?: { Code?: string } } | null)?.Code ?? result?.Error?.Code;
      return code !== undefined && code !== 'NoSuchKey';
    });
    if (failures.length) throw new Error(`object storage refused to remove ${failures.length} objects`);
    onProgress();
  }
}

async function appendDeleteChanges(tx: Knex.Transaction, rows: DoomedRow[]): Promise<void> {
  // A delete carries a version above the item's last update, so a client skipping held versions applies it.
  const announced = rows.filter((row) => row.deleted_at === null).map((row) => ({ ...row, version: row.version + 1 }));
  const ancestors = new Map(rows.map((row) => [row.uuid, row.ancestor_uuids]));
  await appendChanges(tx, 'delete', announced, (item) => ancestors.get(item.uuid) ?? []);
}

/** The operation's tally, kept in the batch's transaction so that a batch whose result was lost still counts. */
async function countChanged(tx: Knex.Transaction, operationUuid: string, changed: number): Promise<void> {
  if (changed > 0) await tx('drive_trash_operations').where({ uuid: operationUuid }).increment('items_changed', changed);
}

/**
 * Records how an operation ended and answers how many items its cascade changed; a retry after the first
 * record changes nothing.
 */
export async function finishTrashOperation(knex: Knex, input: { operationUuid: string; outcome: 'completed' | 'superseded' }): Promise<number> {
  await knex('drive_trash_operations')
    .where({ uuid: input.operationUuid, status: 'running' })
    .update({ status: input.outcome, completed_at: knex.fn.now() });
  const operation = await knex('drive_trash_operations').where({ uuid: input.operationUuid }).first('items_changed');
  return operation?.items_changed ?? 0;
}

/** The operations on an item, latest first (tests, operators). */
export async function operationsOn(knex: Knex, rootUuid: string): Promise<TrashOperationRow[]> {
  return knex('drive_trash_operations').where({ root_uuid: rootUuid }).orderBy('seq', 'desc');
}

const pgUuidArray = (uuids: string[]) => `{${uuids.join(',')}}`;
