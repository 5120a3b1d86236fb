// The per-workspace Drive change log: every Drive mutation appends here in the transaction that makes it, and the
// daily prune drops what is older than the retention. The changes feed reads it (changes-feed.ts).
import type { Knex } from 'knex';
import type { ItemRow } from './rows.js';

export type ChangeType = 'create' | 'update' | 'delete';

/**
 * Serialises change-log writers of one workspace until commit, so a change's seq is assigned only after
 * every earlier writer committed: readers that have seen seq N never later meet a smaller seq.
 * Take it as late as possible in the transaction; it is released at commit or rollback.
 */
export async function lockWorkspaceChangeLog(tx: Knex.Transaction, workspaceUuid: string): Promise<void> {
  await tx.raw(`select ${CHANGE_LOG_LOCK}`, [workspaceUuid]);
}

/**
 * lockWorkspaceChangeLog's call; its one binding is the workspace uuid. drive_lock_change_log_under
 * (db/migrations/028_drive_change_log_state.ts) takes the same lock by the same key.
 */
const CHANGE_LOG_LOCK = `pg_advisory_xact_lock(hashtextextended('drive_changes:' || ?, 0))`;

/**
 * Appends one change per item (rows as written, with their own version counter). A create or update records the
 * version readers see once it commits, the presented one (docs/drive-trash.md § Versions); a delete, which the feed
 * sends without a version, records the counter it was given.
 */
export async function appendChanges(
  tx: Knex.Transaction,
  type: ChangeType,
  items: Pick<
    ItemRow,
    'uuid' | 'workspace_uuid' | 'kind' | 'version' | 'epoch_base' | 'parent_uuid' | 'owner_uuid'
  >[],
  ancestorsOf: (item: { uuid: string }) => string[] = () => [],
): Promise<void> {
  if (!items.length) return;
  await lockWorkspaceChangeLog(tx, items[0]!.workspace_uuid);
  const presented = type === 'delete' ? new Map<string, number>() : await presentedVersions(tx, items);
  await tx('drive_changes').insert(
    items.map((item) => ({
      workspace_uuid: item.workspace_uuid,
      item_uuid: item.uuid,
      resource_type: item.kind,
      change_type: type,
      item_version: presented.get(item.uuid) ?? item.version,
      parent_uuid: item.parent_uuid,
      owner_uuid: item.owner_uuid,
      ancestor_uuids: ancestorsOf(item),
    })),
  );
}

/**
 * Each item's presented version: its own counter plus the epochs of the folders above it, less its epoch_base. Read
 * under the change-log lock, like a move's rebase (items.ts rebaseOnMove); one query for the distinct parents, which a
 * cascade batch's items share.
 */
async function presentedVersions(
  tx: Knex.Transaction,
  items: Pick<ItemRow, 'uuid' | 'version' | 'epoch_base' | 'parent_uuid'>[],
): Promise<Map<string, number>> {
  const parents = [
    ...new Set(items.map((item) => item.parent_uuid).filter((uuid): uuid is string => uuid !== null)),
  ];
  const { rows } = parents.length
    ? ((await tx.raw(
        'select p.uuid::text as uuid, drive_chain_epochs(p.uuid) as epochs from unnest(?::uuid[]) as p(uuid)',
        [parents],
      )) as {
        rows: { uuid: string; epochs: number }[];
      })
    : { rows: [] };
  const epochsUnder = new Map(rows.map((row) => [row.uuid, row.epochs]));
  return new Map(
    items.map((item) => [
      item.uuid,
      item.version -
        (item.epoch_base ?? 0) +
        (item.parent_uuid ? (epochsUnder.get(item.parent_uuid) ?? 0) : 0),
    ]),
  );
}

export async function appendChange(
  tx: Knex.Transaction,
  type: ChangeType,
  item: ItemRow,
  ancestors: string[] = [],
) {
  await appendChanges(tx, type, [item], () => ancestors);
}

/**
 * Drops a workspace's change-log rows up to and including `throughSeq` and raises its floor: sync tokens
 * behind the floor then get 410 sync_token_invalid and reseed (docs/drive-sync.md).
 */
export async function pruneChangeLog(knex: Knex, workspaceUuid: string, throughSeq: string): Promise<void> {
  await knex.transaction(async (tx) => {
    await tx('drive_change_log_floors')
      .insert({ workspace_uuid: workspaceUuid, pruned_through_seq: throughSeq })
      .onConflict('workspace_uuid')
      .merge({
        pruned_through_seq: tx.raw(
          'greatest(drive_change_log_floors.pruned_through_seq, excluded.pruned_through_seq)',
        ),
        updated_at: tx.fn.now(),
      });
    await tx('drive_changes')
      .where({ workspace_uuid: workspaceUuid })
      .where('seq', '<=', throughSeq)
      .delete();
  });
}

/**
 * Prunes every workspace's log through its newest row older than `cutoff`. Pruning the same range twice
 * changes nothing, so the daily prune may run it again after a failure.
 */
export async function pruneChangeLogsBefore(knex: Knex, cutoff: Date): Promise<{ workspaces: number }> {
  const ends = (await knex('drive_changes')
    .select('workspace_uuid')
    .max('seq as seq')
    .where('created_at', '<', cutoff)
    .groupBy('workspace_uuid')) as { workspace_uuid: string; seq: string }[];
  for (const end of ends) await pruneChangeLog(knex, end.workspace_uuid, end.seq);
  return { workspaces: ends.length };
}
