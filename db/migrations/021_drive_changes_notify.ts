// The Drive changes long-poll (an extension, docs/extensions.md § Drive changes extras): every statement that adds to
// the change log notifies its workspaces on one channel, heard only once the transaction commits. Payload: the
// workspace uuid, nothing else (the waiter reads the feed itself, with its own visibility).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION drive_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('folio_drive_changes', changed.workspace_uuid::text)
        FROM (SELECT DISTINCT workspace_uuid FROM new_changes) AS changed;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER drive_changes_notify AFTER INSERT ON drive_changes
    REFERENCING NEW TABLE AS new_changes FOR EACH STATEMENT EXECUTE FUNCTION drive_changes_notify()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS drive_changes_notify ON drive_changes');
  await knex.raw('DROP FUNCTION IF EXISTS drive_changes_notify()');
}
