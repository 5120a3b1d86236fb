// The revision log stores what changed (domain/documents/revision-log.ts), and its bytes count in the workspace pool.
//
// A row becomes: `state`, a full snapshot or null; `delta`, the steps applied after it (a block-level diff each, or a
// whole state); `snapshot_revision`, the snapshot row it is rebuilt from (itself for a snapshot); `chain_bytes`, the
// bytes of steps stored since that snapshot (when the next snapshot is due); `charged_bytes`, what the row was charged
// in the workspace's storage pool. Nothing is converted: every existing row keeps its full state and becomes a
// snapshot with no steps. Existing rows are not charged to the pool
// (charged_bytes 0): they were written before the log counted, and charging them now could put a workspace over its
// limit by an upgrade; what is never charged is never given back either, so the pool stays consistent.
//
// One adjustment keeps history exact: comment anchors used to change documents.state in place without touching the
// log, so a document's current state can differ from its last logged one. The log now records such changes as steps
// of the current revision's row, and the next revision's diff is taken against documents.state; so where the two
// differ, the current row gets one step holding documents.state (the original snapshot stays as it was).
import type { Knex } from 'knex';
import type { DocumentState } from '../../domain/document-engine/state.js';
import { applyStep, type RevisionRow } from '../../domain/documents/revision-log.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('document_revisions', (t) => {
    t.jsonb('state').nullable().alter();
    t.jsonb('delta').notNullable().defaultTo(knex.raw(`'[]'::jsonb`));
    t.integer('snapshot_revision');
    t.bigInteger('chain_bytes').notNullable().defaultTo(0);
    t.bigInteger('charged_bytes').notNullable().defaultTo(0);
  });
  await knex.raw('UPDATE document_revisions SET snapshot_revision = revision');
  await knex.raw('ALTER TABLE document_revisions ALTER COLUMN snapshot_revision SET NOT NULL');
  await knex.raw(`ALTER TABLE document_revisions ADD CONSTRAINT document_revisions_snapshot
                  CHECK ((state IS NOT NULL) = (snapshot_revision = revision) AND snapshot_revision <= revision)`);
  await knex.raw(`ALTER TABLE document_revisions ADD CONSTRAINT document_revisions_content
                  CHECK (jsonb_typeof(delta) = 'array' AND (state IS NOT NULL OR jsonb_array_length(delta) > 0))`);
  await knex.raw(
    `ALTER TABLE document_revisions ADD CONSTRAINT document_revisions_charged_bytes CHECK (charged_bytes >= 0)`,
  );
  await knex.raw(`
    UPDATE document_revisions r SET delta = jsonb_build_array(jsonb_build_object('state', d.state))
    FROM documents d
    WHERE r.document_uuid = d.uuid AND r.revision = d.revision AND r.state IS DISTINCT FROM d.state
  `);
}

/** Back to one full state per row: every row's state is rebuilt (as it last stood) and written whole. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE document_revisions DROP CONSTRAINT document_revisions_content, DROP CONSTRAINT document_revisions_charged_bytes,
                  DROP CONSTRAINT document_revisions_snapshot`);
  const documents = await knex('document_revisions').distinct('document_uuid').pluck('document_uuid');
  for (const documentUuid of documents) {
    const rows = (await knex('document_revisions')
      .where({ document_uuid: documentUuid })
      .orderBy('revision')
      .select('revision', 'state', 'delta')) as RevisionRow[];
    let state: DocumentState | undefined;
    for (const row of rows) {
      state = row.state ?? state;
      for (const step of row.delta) state = applyStep(state!, step);
      if (row.state && row.delta.length === 0) continue;
      await knex('document_revisions')
        .where({ document_uuid: documentUuid, revision: row.revision })
        .update({ state: JSON.stringify(state) });
    }
  }
  await knex.schema.alterTable('document_revisions', (t) => {
    t.dropColumn('delta');
    t.dropColumn('snapshot_revision');
    t.dropColumn('chain_bytes');
    t.dropColumn('charged_bytes');
    t.jsonb('state').notNullable().alter();
  });
}
