// Drive: items (files and folders), content versions, grants, public links and the per-workspace change log.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('drive_items', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('owner_uuid').notNullable().references('users.uuid');
    t.text('kind').notNullable();
    // No ON DELETE CASCADE: a subtree is deleted leaves-first, in batches, by a workflow.
    t.uuid('parent_uuid').references('drive_items.uuid');
    t.text('name').notNullable();
    t.text('content_type');
    t.bigInteger('file_size_bytes');
    t.text('upload_status');
    t.text('color');
    t.boolean('trashed').notNullable().defaultTo(false);
    t.timestamp('trashed_at', { useTz: true });
    // The item whose trashing put this one in the trash; a restore brings back exactly that set.
    t.uuid('trashed_with');
    // Distance from the Drive root; feeds order snapshots by it so a parent precedes its children.
    t.integer('depth').notNullable().defaultTo(0);
    t.integer('version').notNullable().defaultTo(1);
    t.integer('ctag').notNullable().defaultTo(0);
    t.boolean('has_preview').notNullable().defaultTo(false);
    t.uuid('live_version_uuid');
    t.timestamps(true, true);
    t.check(`kind in ('file', 'folder')`, [], 'drive_items_kind');
    t.check(
      `upload_status is null or upload_status in ('uploading', 'completed')`,
      [],
      'drive_items_upload_status',
    );
    t.check(`(kind = 'file') = (upload_status is not null)`, [], 'drive_items_file_has_status');
    t.index(['workspace_uuid', 'owner_uuid', 'parent_uuid']);
    t.index(['parent_uuid']);
    t.index(['trashed_with']);
  });
  // Names are unique among live siblings, compared without case as desktop file systems do (docs/drive.md).
  await knex.raw(`CREATE UNIQUE INDEX drive_items_live_name_in_folder ON drive_items (parent_uuid, lower(name))
                  WHERE parent_uuid IS NOT NULL AND NOT trashed`);
  await knex.raw(`CREATE UNIQUE INDEX drive_items_live_name_at_root ON drive_items (workspace_uuid, owner_uuid, lower(name))
                  WHERE parent_uuid IS NULL AND NOT trashed`);

  await knex.schema.createTable('drive_file_versions', (t) => {
    // The first version of a file shares the file's uuid; a replacement gets its own (the version_uuid).
    t.uuid('uuid').primary();
    t.uuid('file_uuid').notNullable().references('drive_items.uuid').onDelete('CASCADE');
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.text('status').notNullable(); // staged → live → retired; staged → aborted
    t.binary('wrapped_key').notNullable();
    t.text('storage_key').notNullable();
    t.text('storage_upload_id');
    t.text('content_type').notNullable();
    t.bigInteger('plaintext_size_bytes').notNullable();
    t.integer('chunk_size_bytes').notNullable();
    t.integer('chunk_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('retired_at', { useTz: true });
    t.check(`status in ('staged', 'live', 'retired', 'aborted')`, [], 'drive_file_versions_status');
    t.index(['file_uuid', 'status']);
  });
  // At most one replacement in flight per file, enforced where concurrency cannot get past it.
  await knex.raw(
    `CREATE UNIQUE INDEX drive_file_versions_one_staged ON drive_file_versions (file_uuid) WHERE status = 'staged'`,
  );

  await knex.schema.createTable('drive_grants', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('item_uuid').notNullable().references('drive_items.uuid').onDelete('CASCADE');
    t.text('principal_type').notNullable();
    t.uuid('principal_user_uuid').references('users.uuid').onDelete('CASCADE');
    t.uuid('principal_workspace_uuid').references('workspaces.uuid').onDelete('CASCADE');
    t.text('role').notNullable();
    t.text('status').notNullable();
    t.timestamps(true, true);
    t.check(`principal_type in ('user', 'workspace')`, [], 'drive_grants_principal_type');
    t.check(
      `(principal_type = 'user') = (principal_user_uuid is not null)`,
      [],
      'drive_grants_user_principal',
    );
    t.check(
      `(principal_type = 'workspace') = (principal_workspace_uuid is not null)`,
      [],
      'drive_grants_workspace_principal',
    );
    t.check(`role in ('viewer', 'commenter', 'editor', 'manager')`, [], 'drive_grants_role');
    t.check(`status in ('pending', 'accepted', 'revoked')`, [], 'drive_grants_status');
    t.index(['item_uuid']);
    t.index(['principal_user_uuid']);
  });

  await knex.schema.createTable('drive_public_links', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('item_uuid').notNullable().unique().references('drive_items.uuid').onDelete('CASCADE');
    t.text('token').notNullable().unique();
    t.text('status').notNullable();
    t.timestamps(true, true);
    t.check(`status in ('pending', 'ready', 'failed')`, [], 'drive_public_links_status');
  });

  await knex.schema.createTable('drive_changes', (t) => {
    // Assigned under a per-workspace advisory lock held to commit, so seq order is commit order.
    t.bigIncrements('seq').primary();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('item_uuid').notNullable();
    t.text('resource_type').notNullable();
    t.text('change_type').notNullable();
    t.integer('item_version').notNullable();
    // For a delete: where the item lived, its owner and its ancestors, to decide who may see the delete.
    t.uuid('parent_uuid');
    t.uuid('owner_uuid').notNullable();
    t.specificType('ancestor_uuids', 'uuid[]').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`change_type in ('create', 'update', 'delete')`, [], 'drive_changes_type');
    t.index(['workspace_uuid', 'seq']);
  });

  // Effective role of a user on an item: owner of the item; else the highest of manager (for owning an
  // ancestor) and the accepted grants on the item or any ancestor. Null means invisible.
  await knex.raw(`
    CREATE FUNCTION drive_effective_role(item uuid, member uuid, member_workspace uuid) RETURNS text
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
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS drive_effective_role(uuid, uuid, uuid)');
  for (const table of [
    'drive_changes',
    'drive_public_links',
    'drive_grants',
    'drive_file_versions',
    'drive_items',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
