// The first sync pages through a workspace by (depth, parent, uuid) instead of (depth, uuid): parents still come
// before children, and a page's items now share a few folders, so the walk up their chains (domain/drive/page-view.ts)
// reads a few dozen folders a page instead of hundreds (docs/drive-sync.md § First sync). A Drive root's items sort
// under the nil uuid, so every row has a position a keyset can compare.
import type { Knex } from 'knex';

const SNAPSHOT_PARENT_KEY = `coalesce(parent_uuid, '00000000-0000-0000-0000-000000000000'::uuid)`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX drive_items_snapshot_by_parent ON drive_items (workspace_uuid, depth, (${SNAPSHOT_PARENT_KEY}), uuid)`,
  );
  await knex.raw('DROP INDEX IF EXISTS drive_items_snapshot_order');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX drive_items_snapshot_order ON drive_items (workspace_uuid, depth, uuid)');
  await knex.raw('DROP INDEX IF EXISTS drive_items_snapshot_by_parent');
}
