// A revision made by restoring an older one (an extension, docs/extensions.md § Documents history) names it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('document_revisions', (t) => {
    t.integer('restored_from');
  });
  await knex.raw(`ALTER TABLE document_revisions ADD CONSTRAINT document_revisions_restored_from
                  CHECK (restored_from IS NULL OR (restored_from >= 1 AND restored_from < revision))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('document_revisions', (t) => {
    t.dropColumn('restored_from');
  });
}
