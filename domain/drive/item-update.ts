// The update routes' one change to a file or folder: rename, move, recolour and the `trashed` flag together,
// all or nothing, as one version and one change-log entry (spec/drive.md § Files, § Folders).
import type { Caller } from '../caller.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { inTrash } from './errors.js';
import { findVisibleItem, updateItemMetadata, type FollowingChange, type MetadataChange } from './items.js';
import { NEEDS } from './roles.js';
import type { ItemGuard, ItemKind, VisibleItem } from './rows.js';
import { setTrashed } from './trash.js';

export interface ItemUpdate extends MetadataChange {
  /** true trashes (a folder's descendants follow in its cascade), false restores; the same value changes nothing. */
  trashed?: boolean;
}

/**
 * Applies the whole update to the caller's item (editor or above) and answers it as it now stands. `guard` (a
 * precondition) sees the item locked, before the update.
 */
export async function updateItem(
  unit: UnitOfWork,
  caller: Caller,
  uuid: string,
  kind: ItemKind,
  update: ItemUpdate,
  guard?: ItemGuard,
): Promise<VisibleItem> {
  const item = await findVisibleItem(unit.tx, caller, uuid, {
    kind,
    needs: NEEDS.update,
    forUpdate: true,
    guard,
  });
  const { trashed } = update;
  // An item in the trash, itself or through a folder above it, keeps its name and place until it is restored
  // (the same request may restore it): a move would take it out of the trashed folder without a restore.
  const metadataChange =
    update.name !== undefined || update.parentUuid !== undefined || update.color !== undefined;
  if (item.trashed && trashed !== false && metadataChange) throw inTrash();
  const trashing: FollowingChange | undefined =
    trashed === undefined || trashed === item.trashed
      ? undefined
      : (row, versionBumped) => setTrashed(unit, caller, row, trashed, { versionBumped });
  await updateItemMetadata(unit.tx, caller, item, update, trashing);
  return findVisibleItem(unit.tx, caller, item.uuid);
}
