// Trash, restore and permanent delete of the Drive item the caller named: the change to that item, made in the
// request's transaction with the operation its cascade will carry over a folder's subtree (trash-cascade.ts).
// The design and what readers see meanwhile: docs/drive-trash.md.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';
import type { DriveCascadeKind, UnitOfWork } from '../unit-of-work.js';
import { appendChange } from './change-log.js';
import { notAuthorized } from './errors.js';
import { ancestorUuids, announceMovedSubtree, findVisibleItem, rebaseOnMove } from './items.js';
import { NEEDS } from './roles.js';
import type { ItemGuard, ItemKind, ItemRow, TrashOperationRow, VisibleItem } from './rows.js';

/**
 * Moves an item to the trash (editor or above). A folder's descendants follow in the trash cascade. Trashing
 * an item already in the trash changes nothing. `guard` (a precondition) sees the item locked, before the change.
 */
export async function trashItem(
  unit: UnitOfWork,
  caller: Caller,
  uuid: string,
  kind: ItemKind,
  guard?: ItemGuard,
): Promise<VisibleItem> {
  const item = await findVisibleItem(unit.tx, caller, uuid, {
    kind,
    needs: NEEDS.trash,
    forUpdate: true,
    guard,
  });
  if (item.trashed) return item;
  await appendChange(unit.tx, 'update', await setTrashed(unit, caller, item, true, { versionBumped: false }));
  return findVisibleItem(unit.tx, caller, item.uuid);
}

/**
 * Trashes (true) or restores (false) the caller's locked item, whose role they checked, and starts its
 * folder's cascade; the caller appends the item's change. A restore brings back exactly what was trashed
 * with the item: the descendants whose trashed_with is the item's own trashed_with. A live item with the same
 * name in the destination gives 422 name_taken. When the item's folder is still in the trash (and is not
 * itself being restored), the item comes back at its owner's Drive root; only the owner may do that.
 */
export async function setTrashed(
  unit: UnitOfWork,
  caller: Caller,
  item: ItemRow,
  trashed: boolean,
  options: { versionBumped: boolean },
): Promise<ItemRow> {
  const { tx } = unit;
  const bump = options.versionBumped ? {} : { version: tx.raw('version + 1') };
  // A folder's trash or restore changes what every reader sees of its whole subtree at once (the effective state):
  // its epoch gives each descendant a new version now, before the cascade writes their rows (docs/drive-trash.md § Versions).
  const epoch = item.kind === 'folder' ? { epoch: tx.raw('epoch + 1') } : {};
  if (trashed) {
    const [row] = (await tx('drive_items')
      .where({ uuid: item.uuid })
      .update({
        trashed: true,
        trashed_at: tx.fn.now(),
        trashed_with: item.uuid,
        ...bump,
        ...epoch,
        updated_at: tx.fn.now(),
      })
      .returning('*')) as ItemRow[];
    if (item.kind === 'folder') await beginCascade(unit, 'trash', caller, row!);
    return row!;
  }
  const group = item.trashed_with ?? item.uuid;
  const toOwnersRoot = await parentStaysInTrash(tx, item);
  if (toOwnersRoot && item.owner_uuid !== caller.userUuid) {
    throw notAuthorized(
      'The folder this item was in is in the trash; only the owner can restore it, to their Drive root.',
    );
  }
  const patch: Record<string, unknown> = {
    trashed: false,
    trashed_at: null,
    trashed_with: null,
    ...bump,
    ...epoch,
    updated_at: tx.fn.now(),
  };
  const baseShift = toOwnersRoot ? await rebaseOnMove(tx, item, null) : 0;
  if (toOwnersRoot)
    Object.assign(patch, { parent_uuid: null, depth: 0, epoch_base: tx.raw('epoch_base + ?', [baseShift]) });
  // The live-name indexes refuse a taken name here: 422 name_taken (api/middleware/errors.ts), and the request's
  // transaction rolls back whatever else it changed.
  const [row] = (await tx('drive_items')
    .where({ uuid: item.uuid })
    .update(patch)
    .returning('*')) as ItemRow[];
  // Back at the owner's root, the folder's subtree left the folders above it: like a move, every item below gets its
  // new depth and an update recording where it was (so past readers get their deletes); the restore's epoch already
  // gives each a new version.
  if (toOwnersRoot && item.kind === 'folder')
    await announceMovedSubtree(tx, row!, await ancestorUuids(tx, item.parent_uuid), baseShift);
  if (item.kind === 'folder') await beginCascade(unit, 'restore', caller, row!, group);
  return row!;
}

/**
 * Permanently deletes an item and, for a folder, its whole subtree (manager or above). The item disappears for
 * every reader at once and its delete change is appended now; the delete cascade then removes the rows, their
 * stored bytes and their pool accounting, with a delete change for every descendant. `guard` as for trashItem.
 */
export async function deleteItem(
  unit: UnitOfWork,
  caller: Caller,
  uuid: string,
  kind: ItemKind,
  guard?: ItemGuard,
): Promise<void> {
  const { tx } = unit;
  const item = await findVisibleItem(tx, caller, uuid, { kind, needs: NEEDS.delete, forUpdate: true, guard });
  const [marked] = (await tx('drive_items')
    .where({ uuid: item.uuid })
    .update({ deleted_at: tx.fn.now(), version: tx.raw('version + 1'), updated_at: tx.fn.now() })
    .returning('*')) as ItemRow[];
  const ancestors = await ancestorUuids(tx, item.parent_uuid);
  await beginCascade(unit, 'delete', caller, marked!);
  await appendChange(tx, 'delete', marked!, ancestors);
}

/**
 * True when the item's folder is in the trash (itself or through an ancestor) and will not come back with it.
 * A folder that went to the trash with this item and whose trash is being restored right now is coming back:
 * its effective state is live already, so the item stays where it is.
 */
async function parentStaysInTrash(tx: Knex.Transaction, item: ItemRow): Promise<boolean> {
  if (!item.parent_uuid) return false;
  const parent = await tx('drive_items')
    .where({ uuid: item.parent_uuid })
    .forShare()
    .first(tx.raw('drive_item_trashed(uuid) as trashed'));
  return Boolean(parent?.trashed);
}

/**
 * Records the operation in the request's transaction, and its cascade workflow in the transactional outbox: the
 * workflow starts once the operation (and the root's change) committed, or from the outbox sweep after a crash,
 * and never for a request that rolled back.
 */
async function beginCascade(
  unit: UnitOfWork,
  kind: DriveCascadeKind,
  caller: Caller,
  root: ItemRow,
  trashedWith?: string,
): Promise<void> {
  const operationUuid = randomUUID();
  await unit.tx('drive_trash_operations').insert({
    uuid: operationUuid,
    workspace_uuid: root.workspace_uuid,
    root_uuid: root.uuid,
    kind,
    trashed_with: trashedWith ?? null,
    actor_uuid: caller.userUuid,
  });
  await unit.workflows.startDriveCascade({
    kind,
    operationUuid,
    rootUuid: root.uuid,
    workspaceUuid: root.workspace_uuid,
  });
}

/** The operations on an item, latest first (tests, operators, bench/trash-cascade.ts). */
export async function operationsOn(knex: Knex, rootUuid: string): Promise<TrashOperationRow[]> {
  return knex('drive_trash_operations').where({ root_uuid: rootUuid }).orderBy('seq', 'desc');
}
