// A document's current state is read from its revision log only, and documents.state_version names it.
//
// documents.state held the whole engine state, rewritten by every revision: at 1 MB of markdown that write alone took
// most of an edit's time (issue 12, docs/benchmarks.md). The log (012) already rebuilds any revision, the current one
// included, from its nearest snapshot and the block-level diffs after it, so the column goes; the API reads the
// current state from the log when its cache of parsed documents (domain/documents/working-documents.ts) does not hold
// it. Nothing is lost: 012 made the current revision's row rebuild to exactly documents.state.
//
// documents.state_version names one state of a document: the cache may use an entry only when its version is the one
// read from the row. A trigger on the log takes a fresh value from a sequence for every row written or changed
// (a new revision, or comment anchors amended into the current one), so no writer can forget it. A sequence is not
// transactional: a value taken by a transaction that rolls back is never handed out again, so a version a process saw
// for a write that did not commit can never come to name another state. The revision alone is not enough: comment
// anchors change the state at the same revision.
import type { Knex } from 'knex';
import type { DocumentState } from '../../domain/document-engine/state.js';
import { readRevisionState } from '../../domain/documents/revision-log.js';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE IF NOT EXISTS document_state_versions');
  await knex.raw(
    `ALTER TABLE documents ADD COLUMN state_version bigint NOT NULL DEFAULT nextval('document_state_versions')`,
  );
  await knex.raw(`
    CREATE FUNCTION documents_next_state_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE documents SET state_version = nextval('document_state_versions') WHERE uuid = NEW.document_uuid;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER document_revisions_state_version AFTER INSERT OR UPDATE ON document_revisions
                  FOR EACH ROW EXECUTE FUNCTION documents_next_state_version()`);
  await knex.raw('ALTER TABLE documents DROP COLUMN state');
}

/** Back to a stored current state: each document's, rebuilt from its log. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER document_revisions_state_version ON document_revisions');
  await knex.raw('DROP FUNCTION documents_next_state_version()');
  await knex.raw('ALTER TABLE documents ADD COLUMN state jsonb');
  const documents = (await knex('documents').select('uuid', 'revision')) as Array<{
    uuid: string;
    revision: number;
  }>;
  for (const document of documents) {
    const state: DocumentState | undefined = await readRevisionState(knex, document.uuid, document.revision);
    await knex('documents')
      .where({ uuid: document.uuid })
      .update({ state: JSON.stringify(state) });
  }
  await knex.raw('ALTER TABLE documents ALTER COLUMN state SET NOT NULL');
  // The sequence stays: were it made again, its versions would start over and could name states a running API process
  // still holds under them.
  await knex.raw('ALTER TABLE documents DROP COLUMN state_version');
}
