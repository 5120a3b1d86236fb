// The per-workspace change log. Every Drive mutation appends here in the transaction that makes it.
import type { Knex } from 'knex';
import type { ItemRow } from './items.js';

export type ChangeType = 'create' | 'update' | 'delete';

/**
 * Serialises change-log writers of one workspace until commit, so a change's seq is assigned only after
 * every earlier writer committed: readers that have seen seq N never later meet a smaller seq.
 * Take it as late as possible in the transaction; it is released at commit or rollback.
 */
export async function lockWorkspaceChangeLog(tx: Knex.Transaction, workspaceUuid: string): Promise<void> {
  await tx.raw(`select pg_advisory_xact_lock(hashtextextended('drive_changes:' || ?, 0))`, [workspaceUuid]);
}

export async function appendChanges(
  tx: Knex.Transaction,
  type: ChangeType,
  items: Pick<ItemRow, 'uuid' | 'workspace_uuid' | 'kind' | 'version' | 'parent_uuid' | 'owner_uuid'>[],
  ancestorsOf: (item: { uuid: string }) => string[] = () => [],
): Promise<void> {
  if (!items.length) return;
  await lockWorkspaceChangeLog(tx, items[0]!.workspace_uuid);
  await tx('drive_changes').insert(
    items.map((item) => ({
      workspace_uuid: item.workspace_uuid,
      item_uuid: item.uuid,
      resource_type: item.kind,
      change_type: type,
      item_version: item.version,
      parent_uuid: item.parent_uuid,
      owner_uuid: item.owner_uuid,
      ancestor_uuids: ancestorsOf(item),
    })),
  );
}

export async function appendChange(tx: Knex.Transaction, type: ChangeType, item: ItemRow, ancestors: string[] = []) {
  await appendChanges(tx, type, [item], () => ancestors);
}
