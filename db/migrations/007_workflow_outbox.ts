// The transactional outbox of workflow starts: a row written in the transaction that needs the workflow, removed
// once Temporal has it. A crash between commit and start leaves the row for the outbox sweep (workflows/client.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workflow_outbox', (t) => {
    t.text('workflow_id').primary();
    // Ids only, like every workflow input: { type, ...ids }.
    t.jsonb('request').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workflow_outbox');
}
