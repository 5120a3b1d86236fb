// Whether a Drive item is in the trash as every read shows it: the item or one of its ancestors is trashed by an
// operation that has not been undone. A folder's trash or restore then shows over its whole subtree at once, while
// its cascade writes the rows (and their change-log entries) batch by batch. See docs/drive-trash.md § Effective state.
import type { Knex } from 'knex';

// Walking up from the item: a row trashed on its own (trashed_with = itself) ends the walk, trashed. A row trashed
// with a group G is trashed unless an ancestor above it is live and its latest operation is a restore of G still
// running (that cascade brings the row back). A row trashed for a reason nothing above undoes keeps the item
// trashed whatever lies above it, so the item is trashed when any group stays pending at the top.
const FUNCTION = `
  CREATE OR REPLACE FUNCTION drive_item_trashed(item uuid) RETURNS boolean
  LANGUAGE plpgsql STABLE AS $$
  DECLARE
    node record;
    current_uuid uuid := item;
    pending uuid[] := '{}';
    latest record;
  BEGIN
    LOOP
      SELECT uuid, parent_uuid, trashed, trashed_with INTO node FROM drive_items WHERE uuid = current_uuid;
      EXIT WHEN NOT FOUND;
      IF node.trashed THEN
        IF node.trashed_with IS NULL OR node.trashed_with = node.uuid THEN RETURN true; END IF;
        IF NOT node.trashed_with = ANY(pending) THEN pending := pending || node.trashed_with; END IF;
      ELSIF cardinality(pending) > 0 THEN
        SELECT kind, trashed_with, status INTO latest FROM drive_trash_operations
          WHERE root_uuid = node.uuid ORDER BY seq DESC LIMIT 1;
        IF FOUND AND latest.kind = 'restore' AND latest.status = 'running' THEN
          pending := array_remove(pending, latest.trashed_with);
        END IF;
      END IF;
      current_uuid := node.parent_uuid;
      EXIT WHEN current_uuid IS NULL;
    END LOOP;
    RETURN cardinality(pending) > 0;
  END $$;
`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FUNCTION);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS drive_item_trashed(uuid)');
}
