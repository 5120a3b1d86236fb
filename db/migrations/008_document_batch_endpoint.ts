// A batch_id remembers the endpoint it was applied on (edit: /content, suggest: /suggestions), so a retry sent to the
// other endpoint is refused instead of answering a response that endpoint never gives (docs/documents-api.md § Revisions).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('document_batches', (t) => {
    t.text('endpoint').notNullable().defaultTo('edit');
    t.check(`endpoint in ('edit', 'suggest')`, [], 'document_batches_endpoint');
  });
  // Rows written before: a suggestion's stored answer is its 201, an edit's its 200.
  await knex('document_batches').where({ response_status: 201 }).update({ endpoint: 'suggest' });
  await knex.raw('ALTER TABLE document_batches ALTER COLUMN endpoint DROP DEFAULT');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('document_batches', (t) => {
    t.dropChecks(['document_batches_endpoint']);
    t.dropColumn('endpoint');
  });
}
