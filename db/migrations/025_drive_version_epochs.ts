// Versions that move with what a reader sees while a folder's cascade runs: every folder counts its trashes, restores
// and moves in `epoch`, and an item reads with version = its own counter + the epochs of its ancestors - `epoch_base`
// (what those epochs summed to when it was created or last moved). See docs/drive-trash.md § Versions.
import type { Knex } from 'knex';

// One walk up the item's chain answers both what every read needs from its ancestors: the effective `trashed`, with
// the same rules as drive_item_trashed (009), and the sum of the ancestors' epochs (the item's own epoch counts for
// its descendants only). Unlike drive_item_trashed it walks to the top even once the item is known to be trashed.
const ITEM_STATE = `
  CREATE OR REPLACE FUNCTION drive_item_state(item uuid, OUT trashed boolean, OUT epochs integer)
  LANGUAGE plpgsql STABLE AS $$
  DECLARE
    node record;
    current_uuid uuid := item;
    pending uuid[] := '{}';
    trashed_on_its_own boolean := false;
    latest record;
  BEGIN
    epochs := 0;
    LOOP
      SELECT d.uuid, d.parent_uuid, d.trashed AS row_trashed, d.trashed_with, d.epoch INTO node
        FROM drive_items d WHERE d.uuid = current_uuid;
      EXIT WHEN NOT FOUND;
      IF node.uuid <> item THEN epochs := epochs + node.epoch; END IF;
      IF trashed_on_its_own THEN
        NULL;
      ELSIF node.row_trashed THEN
        IF node.trashed_with IS NULL OR node.trashed_with = node.uuid THEN
          trashed_on_its_own := true;
        ELSIF NOT node.trashed_with = ANY(pending) THEN
          pending := pending || node.trashed_with;
        END IF;
      ELSIF cardinality(pending) > 0 THEN
        SELECT o.kind, o.trashed_with, o.status INTO latest FROM drive_trash_operations o
          WHERE o.root_uuid = node.uuid ORDER BY o.seq DESC LIMIT 1;
        IF FOUND AND latest.kind = 'restore' AND latest.status = 'running' THEN
          pending := array_remove(pending, latest.trashed_with);
        END IF;
      END IF;
      current_uuid := node.parent_uuid;
      EXIT WHEN current_uuid IS NULL;
    END LOOP;
    trashed := trashed_on_its_own OR cardinality(pending) > 0;
  END $$;
`;

// The epochs a new or moved item starts from under a folder: the folder's own and its ancestors'. 0 at a Drive root.
const CHAIN_EPOCHS = `
  CREATE OR REPLACE FUNCTION drive_chain_epochs(folder uuid) RETURNS integer
  LANGUAGE sql STABLE AS $$
    WITH RECURSIVE up(uuid, parent_uuid, epoch) AS (
      SELECT d.uuid, d.parent_uuid, d.epoch FROM drive_items d WHERE d.uuid = folder
      UNION ALL
      SELECT d.uuid, d.parent_uuid, d.epoch FROM drive_items d JOIN up ON d.uuid = up.parent_uuid
    )
    SELECT coalesce(sum(epoch), 0)::integer FROM up
  $$;
`;

export async function up(knex: Knex): Promise<void> {
  // Constant defaults: no table rewrite, whatever the table's size.
  await knex.schema.alterTable('drive_items', (t) => {
    t.integer('epoch').notNullable().defaultTo(0);
    t.integer('epoch_base').notNullable().defaultTo(0);
  });
  await knex.raw(ITEM_STATE);
  await knex.raw(CHAIN_EPOCHS);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS drive_chain_epochs(uuid)');
  await knex.raw('DROP FUNCTION IF EXISTS drive_item_state(uuid)');
  await knex.schema.alterTable('drive_items', (t) => {
    t.dropColumn('epoch_base');
    t.dropColumn('epoch');
  });
}
