// What a new item's create change must read under the change-log lock, in the statement that takes it: the
// effective `trashed` and the epochs of the folder it lands in (docs/drive-trash.md § Versions). In READ COMMITTED a
// statement reads with the snapshot of its start, so a lock taken inside a statement does not make that statement see
// the writer it waited for; a VOLATILE function's own statements each take a fresh snapshot, so the read after the
// lock here sees every change-log writer of the workspace that committed before it (a trash of an ancestor
// included). Used by a simple upload's last statement (domain/drive/content.ts wholeFileCommit).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The lock is CHANGE_LOG_LOCK's (domain/drive/change-log.ts), keyed by the same text. A null folder is a Drive root.
  await knex.raw(`
    CREATE FUNCTION drive_lock_change_log_under(workspace uuid, folder uuid, OUT trashed boolean, OUT epochs integer)
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtextextended('drive_changes:' || workspace::text, 0));
      SELECT s.trashed, s.epochs + d.epoch INTO trashed, epochs
        FROM drive_items d CROSS JOIN LATERAL drive_item_state(d.uuid) s WHERE d.uuid = folder;
      trashed := coalesce(trashed, false);
      epochs := coalesce(epochs, 0);
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS drive_lock_change_log_under(uuid, uuid)');
}
