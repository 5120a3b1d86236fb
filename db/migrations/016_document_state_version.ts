// documents.state_version names one stored state of a document: the API's cache of parsed documents
// (domain/documents/working-documents.ts) may use an entry only when its version is the one read from the row.
//
// Every write that sets documents.state takes a fresh value from a sequence, by a trigger, so no writer can forget
// it. A sequence is not transactional: a value taken by a transaction that rolls back is never handed out again, so
// a version a process saw for a write that did not commit can never come to name another state. The revision is not
// enough on its own: comment anchors change the state at the same revision.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE document_state_versions');
  await knex.raw(`ALTER TABLE documents ADD COLUMN state_version bigint NOT NULL DEFAULT nextval('document_state_versions')`);
  await knex.raw(`
    CREATE FUNCTION documents_next_state_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.state_version := nextval('document_state_versions');
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER documents_state_version BEFORE UPDATE OF state ON documents
                  FOR EACH ROW EXECUTE FUNCTION documents_next_state_version()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER documents_state_version ON documents');
  await knex.raw('DROP FUNCTION documents_next_state_version()');
  await knex.raw('ALTER TABLE documents DROP COLUMN state_version');
  await knex.raw('DROP SEQUENCE document_state_versions');
}
