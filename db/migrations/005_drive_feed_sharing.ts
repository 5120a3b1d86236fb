// Drive changes feed and sharing: lookup indexes, one live grant per principal, who was ever given access
// (so a delete still reaches them after the grant is gone), and how far the change log has been pruned.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The first sync pages through a workspace by (depth, uuid) so parents come before children.
  await knex.raw('CREATE INDEX drive_items_snapshot_order ON drive_items (workspace_uuid, depth, uuid)');
  // "Does this item change again later?" — the feed pulls a parent forward when it does (docs/drive-sync.md).
  await knex.raw('CREATE INDEX drive_changes_item_seq ON drive_changes (item_uuid, seq)');

  // A principal holds at most one live (pending or accepted) grant per item; granting again updates it.
  await knex.raw(`CREATE UNIQUE INDEX drive_grants_one_live_per_principal
                  ON drive_grants (item_uuid, principal_type, coalesce(principal_user_uuid, principal_workspace_uuid))
                  WHERE status <> 'revoked'`);

  // Every principal that ever held an accepted grant on an item. No foreign key to the item: the row must
  // outlive the item and its grants, so that its delete change still reaches the people who could see it.
  await knex.schema.createTable('drive_share_audience', (t) => {
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('item_uuid').notNullable();
    t.text('principal_type').notNullable();
    t.uuid('principal_uuid').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['item_uuid', 'principal_type', 'principal_uuid']);
    t.check(`principal_type in ('user', 'workspace')`, [], 'drive_share_audience_principal_type');
  });

  // Change-log rows up to and including this seq were pruned; a sync token behind it cannot be honored.
  await knex.schema.createTable('drive_change_log_floors', (t) => {
    t.uuid('workspace_uuid').primary().references('workspaces.uuid').onDelete('CASCADE');
    t.bigInteger('pruned_through_seq').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('drive_change_log_floors');
  await knex.schema.dropTableIfExists('drive_share_audience');
  await knex.raw('DROP INDEX IF EXISTS drive_grants_one_live_per_principal');
  await knex.raw('DROP INDEX IF EXISTS drive_changes_item_seq');
  await knex.raw('DROP INDEX IF EXISTS drive_items_snapshot_order');
}
