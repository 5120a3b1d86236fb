// Drive trash and permanent delete: the operations that cascade over a subtree, the permanent-delete mark,
// and the indexes that let a cascade find its next batch without walking files. See docs/drive-trash.md.
import type { Knex } from 'knex';

// drive_effective_role as 002_drive defines it (hideDeleting false), or with one more rule: an item inside (or at
// the root of) a permanent delete in progress is invisible to everyone, its owner included, so a deleted
// folder's whole subtree vanishes at once. Owning the item then no longer ends the walk up the chain early.
const effectiveRole = (hideDeleting: boolean) =>
  hideDeleting
    ? `
  CREATE OR REPLACE FUNCTION drive_effective_role(item uuid, member uuid, member_workspace uuid) RETURNS text
  LANGUAGE plpgsql STABLE AS $$
  DECLARE
    best int := 0;
    node record;
    grant_rank int;
    current_uuid uuid := item;
    first boolean := true;
    owns boolean := false;
  BEGIN
    LOOP
      SELECT uuid, parent_uuid, owner_uuid, workspace_uuid, deleted_at INTO node FROM drive_items WHERE uuid = current_uuid;
      EXIT WHEN NOT FOUND;
      IF node.workspace_uuid <> member_workspace OR node.deleted_at IS NOT NULL THEN RETURN NULL; END IF;
      IF node.owner_uuid = member THEN
        IF first THEN owns := true; END IF;
        best := greatest(best, 4);
      END IF;
      IF NOT owns THEN
        SELECT max(CASE role WHEN 'viewer' THEN 1 WHEN 'commenter' THEN 2 WHEN 'editor' THEN 3 WHEN 'manager' THEN 4 END)
          INTO grant_rank FROM drive_grants
          WHERE item_uuid = node.uuid AND status = 'accepted'
            AND (principal_user_uuid = member OR principal_workspace_uuid = member_workspace);
        best := greatest(best, coalesce(grant_rank, 0));
      END IF;
      first := false;
      current_uuid := node.parent_uuid;
      EXIT WHEN current_uuid IS NULL;
    END LOOP;
    IF owns THEN RETURN 'owner'; END IF;
    RETURN (ARRAY[NULL, 'viewer', 'commenter', 'editor', 'manager'])[best + 1];
  END $$;
`
    : `
  CREATE OR REPLACE FUNCTION drive_effective_role(item uuid, member uuid, member_workspace uuid) RETURNS text
  LANGUAGE plpgsql STABLE AS $$
  DECLARE
    best int := 0;
    node record;
    grant_rank int;
    current_uuid uuid := item;
    first boolean := true;
  BEGIN
    LOOP
      SELECT uuid, parent_uuid, owner_uuid, workspace_uuid INTO node FROM drive_items WHERE uuid = current_uuid;
      EXIT WHEN NOT FOUND;
      IF node.workspace_uuid <> member_workspace THEN RETURN NULL; END IF;
      IF node.owner_uuid = member THEN
        IF first THEN RETURN 'owner'; END IF;
        best := greatest(best, 4);
      END IF;
      SELECT max(CASE role WHEN 'viewer' THEN 1 WHEN 'commenter' THEN 2 WHEN 'editor' THEN 3 WHEN 'manager' THEN 4 END)
        INTO grant_rank FROM drive_grants
        WHERE item_uuid = node.uuid AND status = 'accepted'
          AND (principal_user_uuid = member OR principal_workspace_uuid = member_workspace);
      best := greatest(best, coalesce(grant_rank, 0));
      first := false;
      current_uuid := node.parent_uuid;
      EXIT WHEN current_uuid IS NULL;
    END LOOP;
    RETURN (ARRAY[NULL, 'viewer', 'commenter', 'editor', 'manager'])[best + 1];
  END $$;
`;

const liveNameIndexes = (excludeDeleting: boolean) => {
  const deleting = excludeDeleting ? ' AND deleted_at IS NULL' : '';
  return [
    'DROP INDEX drive_items_live_name_in_folder',
    'DROP INDEX drive_items_live_name_at_root',
    `CREATE UNIQUE INDEX drive_items_live_name_in_folder ON drive_items (parent_uuid, lower(name))
       WHERE parent_uuid IS NOT NULL AND NOT trashed${deleting}`,
    `CREATE UNIQUE INDEX drive_items_live_name_at_root ON drive_items (workspace_uuid, owner_uuid, lower(name))
       WHERE parent_uuid IS NULL AND NOT trashed${deleting}`,
  ];
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('drive_items', (t) => {
    // Set on the item a permanent delete was asked for; its subtree is invisible from then on and the delete
    // cascade removes the rows leaves-first. The name is free again at once (the live-name indexes skip it).
    t.timestamp('deleted_at', { useTz: true });
  });
  for (const statement of liveNameIndexes(true)) await knex.raw(statement);
  await knex.raw(effectiveRole(true));

  // Cascades walk folders only; without this a folder of 100,000 files would be scanned for its subfolders.
  await knex.raw(
    `CREATE INDEX drive_items_folders_by_parent ON drive_items (parent_uuid) WHERE kind = 'folder'`,
  );
  // A trash cascade's folders so far (those trashed with the root), without visiting its files.
  await knex.raw(
    `CREATE INDEX drive_items_trashed_folders ON drive_items (trashed_with) WHERE kind = 'folder' AND trashed_with IS NOT NULL`,
  );
  // A restore's next batch: items trashed with the group under a given (restored) parent.
  await knex.raw(
    `CREATE INDEX drive_items_trashed_with_parent ON drive_items (trashed_with, parent_uuid) WHERE trashed_with IS NOT NULL`,
  );

  await knex.schema.createTable('drive_trash_operations', (t) => {
    // Pre-generated by the API; the cascade workflow's id derives from it (workflows/ids.ts).
    t.uuid('uuid').primary();
    // Operations on one root are ordered by seq (assigned under the root's row lock); only the latest one
    // for a root may change its subtree, so a restore supersedes a trash still cascading.
    t.specificType('seq', 'bigint generated always as identity').notNullable().unique();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    // No foreign key: a permanent delete removes its root, and the operation outlives it.
    t.uuid('root_uuid').notNullable();
    t.text('kind').notNullable();
    // A restore brings back the items trashed with this group (the root's trashed_with before the restore).
    t.uuid('trashed_with');
    t.uuid('actor_uuid').notNullable();
    t.text('status').notNullable().defaultTo('running');
    t.integer('items_changed').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.check(`kind in ('trash', 'restore', 'delete')`, [], 'drive_trash_operations_kind');
    t.check(`status in ('running', 'completed', 'superseded')`, [], 'drive_trash_operations_status');
    t.check(`(kind = 'restore') = (trashed_with is not null)`, [], 'drive_trash_operations_restore_group');
    t.index(['root_uuid', 'seq']);
  });
  await knex.raw(
    `CREATE INDEX drive_trash_operations_running ON drive_trash_operations (created_at) WHERE status = 'running'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('drive_trash_operations');
  await knex.raw('DROP INDEX IF EXISTS drive_items_trashed_with_parent');
  await knex.raw('DROP INDEX IF EXISTS drive_items_trashed_folders');
  await knex.raw('DROP INDEX IF EXISTS drive_items_folders_by_parent');
  await knex.raw(effectiveRole(false));
  for (const statement of liveNameIndexes(false)) await knex.raw(statement);
  await knex.schema.alterTable('drive_items', (t) => {
    t.dropColumn('deleted_at');
  });
}
