// A page of items as one caller sees them, computed once per page: what the SQL functions drive_effective_role and
// drive_item_state answer row by row (each walks the item's chain of folders, a query per folder, for every row), here
// derived in memory from one read of the page's ancestors. Those functions stay the definition of the rules (single
// reads and every write use them); test/integration/drive/page-view.test.ts holds this to them on random trees.
// The first sync reads its pages this way (docs/drive-sync.md § First sync).
import type { Knex } from 'knex';
import { withAnswerTimes } from '../answer-times.js';
import type { Caller } from '../caller.js';
import type { GrantRole, Role } from '../roles.js';
import type { ItemRow, VisibleItem } from './rows.js';

/** The rows as read from drive_items (the stored `trashed` and `version`), with the owner's names and `shared`. */
export type StoredItem = ItemRow &
  Pick<VisibleItem, 'shared' | 'owner_first_name' | 'owner_last_name'> & { my_role: Role | null };

/** What the walk up a chain reads of a folder: the columns the two SQL functions read. */
type ChainNode = Pick<
  ItemRow,
  | 'uuid'
  | 'parent_uuid'
  | 'owner_uuid'
  | 'workspace_uuid'
  | 'deleted_at'
  | 'trashed'
  | 'trashed_with'
  | 'epoch'
>;

interface LatestTrashOperation {
  kind: 'trash' | 'restore' | 'delete';
  trashed_with: string | null;
  status: 'running' | 'completed' | 'superseded';
}

/** drive_effective_role's ranks: 1 viewer … 4 manager (owning a folder above counts as manager). */
const GRANT_RANK = `CASE role WHEN 'viewer' THEN 1 WHEN 'commenter' THEN 2 WHEN 'editor' THEN 3 WHEN 'manager' THEN 4 END`;
const ROLE_OF_RANK: (GrantRole | null)[] = [null, 'viewer', 'commenter', 'editor', 'manager'];
const OWNS_A_FOLDER_ABOVE = 4;

/**
 * The item rows with the owner's names and `shared` (as selectVisible shows it), not yet filtered by visibility: narrow
 * it down, read it, then pass the rows to `seenBy`.
 */
export function selectStoredItems(knex: Knex, caller: Caller) {
  return knex
    .select(
      // my_role is read as null so each row has it from the start: seenBy fills it in place, where adding it would
      // reshape every row object of the page.
      knex.raw(`i.*,
        null::text as my_role,
        (exists (select 1 from drive_grants g where g.item_uuid = i.uuid and g.status <> 'revoked')
         or exists (select 1 from drive_public_links l where l.item_uuid = i.uuid)) as shared,
        o.first_name as owner_first_name,
        o.last_name as owner_last_name`),
    )
    .from('drive_items as i')
    .join('users as o', 'o.uuid', 'i.owner_uuid')
    .where('i.workspace_uuid', caller.workspaceUuid)
    .options(withAnswerTimes);
}

/**
 * The rows the caller can see, in their order, each with `my_role`, the effective `trashed` and the presented
 * `version` exactly as selectVisible would read them (the same row objects, completed in place; the others are left
 * as read). Three statements at most, whatever the page's size: the
 * ancestors, the caller's grants on them (only when the caller does not own every row), and the latest trash
 * operation of each (only when a row above was trashed with a folder).
 */
export async function seenBy(knex: Knex, caller: Caller, rows: StoredItem[]): Promise<VisibleItem[]> {
  const nodes = new Map<string, ChainNode>(rows.map((row) => [row.uuid, row]));
  const aboveThePage = [
    ...new Set(
      rows.flatMap((row) => (row.parent_uuid && !nodes.has(row.parent_uuid) ? [row.parent_uuid] : [])),
    ),
  ];
  for (const node of await ancestors(knex, aboveThePage)) nodes.set(node.uuid, node);

  const grantRank = rows.every((row) => row.owner_uuid === caller.userUuid)
    ? new Map<string, number>()
    : await callerGrantRanks(knex, caller, [...nodes.keys()]);
  const trashedWithAFolder = [...nodes.values()].some(
    (node) => node.trashed && node.trashed_with !== null && node.trashed_with !== node.uuid,
  );
  const latestOperation = trashedWithAFolder
    ? await latestTrashOperations(
        knex,
        [...nodes.values()].filter((node) => !node.trashed).map((node) => node.uuid),
      )
    : new Map<string, LatestTrashOperation>();

  const parentOf = (node: ChainNode) => (node.parent_uuid ? nodes.get(node.parent_uuid) : undefined);
  /**
   * A value of a node's chain from the node up (`step` folds a node into the value above it; `top` is above a root),
   * memoised per folder so a page costs its rows plus its distinct folders, not rows × depth. A loop, not recursion:
   * no depth limit binds a chain.
   */
  const fromHereUp = <T>(top: T, step: (node: ChainNode, above: T) => T) => {
    const known = new Map<string, T>();
    const path: ChainNode[] = []; // One array for every walk: a walk runs to its end before the next begins.
    return (start: ChainNode): T => {
      path.length = 0;
      let above = top;
      for (let node: ChainNode | undefined = start; node; node = parentOf(node)) {
        const value = known.get(node.uuid);
        if (value !== undefined) {
          above = value;
          break;
        }
        path.push(node);
      }
      // The start is left out: most starts are the page's own files, which no other walk passes through.
      for (let index = path.length - 1; index >= 0; index--) {
        above = step(path[index]!, above);
        if (index > 0) known.set(path[index]!.uuid, above);
      }
      return above;
    };
  };
  const hidden = fromHereUp(
    false,
    (node, above) => above || node.workspace_uuid !== caller.workspaceUuid || node.deleted_at !== null,
  );
  const rankFromHere = fromHereUp(0, (node, above) =>
    Math.max(
      above,
      node.owner_uuid === caller.userUuid ? OWNS_A_FOLDER_ABOVE : (grantRank.get(node.uuid) ?? 0),
    ),
  );
  const epochsFromHere = fromHereUp(0, (node, above) => above + node.epoch);
  const anyTrashedFromHere = fromHereUp(false, (node, above) => above || node.trashed);

  /** drive_effective_role(item, caller): null when the caller cannot see it. */
  const roleOf = (row: ChainNode): Role | null => {
    if (hidden(row)) return null;
    if (row.owner_uuid === caller.userUuid) return 'owner';
    const parent = parentOf(row);
    const best = Math.max(grantRank.get(row.uuid) ?? 0, parent ? rankFromHere(parent) : 0);
    return ROLE_OF_RANK[best]!;
  };

  /**
   * drive_item_state's `trashed`: walking up, a row trashed on its own makes the item trashed; a row trashed with a
   * folder's group stays pending unless a live folder above is running a restore of that group.
   */
  const trashedOf = (row: ChainNode): boolean => {
    if (!anyTrashedFromHere(row)) return false;
    const pending = new Set<string>();
    for (let node: ChainNode | undefined = row; node; node = parentOf(node)) {
      if (node.trashed) {
        if (node.trashed_with === null || node.trashed_with === node.uuid) return true;
        pending.add(node.trashed_with);
      } else if (pending.size) {
        const latest = latestOperation.get(node.uuid);
        if (latest?.kind === 'restore' && latest.status === 'running') pending.delete(latest.trashed_with!);
      }
    }
    return pending.size > 0;
  };

  // Every value is computed before any row is changed: the rows are nodes of each other's chains. Kept in arrays
  // rather than an object per row: a page's garbage is what the API's collector spends its time on.
  const roles = rows.map(roleOf);
  const trashed = rows.map((row, index) => roles[index] !== null && trashedOf(row));
  const versions = rows.map((row, index) => {
    const parent = roles[index] === null ? undefined : parentOf(row);
    return row.version + (parent ? epochsFromHere(parent) : 0) - row.epoch_base;
  });
  const visible: VisibleItem[] = [];
  rows.forEach((row, index) => {
    const role = roles[index];
    if (!role) return;
    row.my_role = role;
    row.trashed = trashed[index]!;
    row.version = versions[index]!;
    visible.push(row as VisibleItem);
  });
  return visible;
}

/**
 * The folders above the given ones, and those folders themselves: every row their chains walk through. Each step is a
 * lateral probe of the primary key per folder: a plain join let the planner, which expects a large worktable, hash
 * the whole table at every level (135 ms a page of 1,000 at 100,000 items, against 3 ms).
 */
async function ancestors(knex: Knex, folderUuids: string[]): Promise<ChainNode[]> {
  if (!folderUuids.length) return [];
  const { rows } = await knex.raw(
    `with recursive chain as (
       select uuid, parent_uuid, owner_uuid, workspace_uuid, deleted_at, trashed, trashed_with, epoch
         from drive_items where uuid = any(?::uuid[])
       union
       select d.* from chain cross join lateral (
         select uuid, parent_uuid, owner_uuid, workspace_uuid, deleted_at, trashed, trashed_with, epoch
           from drive_items where uuid = chain.parent_uuid limit 1
       ) d
     )
     select * from chain`,
    [folderUuids],
  );
  return rows as ChainNode[];
}

/** The caller's best accepted grant (their own or their workspace's) on each of the items that has one. */
async function callerGrantRanks(
  knex: Knex,
  caller: Caller,
  itemUuids: string[],
): Promise<Map<string, number>> {
  const { rows } = await knex.raw(
    `select item_uuid, max(${GRANT_RANK}) as rank from drive_grants
      where item_uuid = any(?::uuid[]) and status = 'accepted'
        and (principal_user_uuid = ? or principal_workspace_uuid = ?)
      group by item_uuid`,
    [itemUuids, caller.userUuid, caller.workspaceUuid],
  );
  return new Map((rows as { item_uuid: string; rank: number }[]).map((row) => [row.item_uuid, row.rank]));
}

/** Each folder's latest trash operation (what drive_item_state asks of a live folder above a group-trashed row). */
async function latestTrashOperations(
  knex: Knex,
  folderUuids: string[],
): Promise<Map<string, LatestTrashOperation>> {
  if (!folderUuids.length) return new Map();
  const { rows } = await knex.raw(
    `select distinct on (root_uuid) root_uuid, kind, trashed_with, status from drive_trash_operations
      where root_uuid = any(?::uuid[]) order by root_uuid, seq desc`,
    [folderUuids],
  );
  return new Map(
    (rows as (LatestTrashOperation & { root_uuid: string })[]).map((row) => [row.root_uuid, row]),
  );
}
