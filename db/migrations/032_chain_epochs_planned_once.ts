// drive_chain_epochs was a SQL function whose body (a recursive query) PostgreSQL cannot inline, so it planned that
// body again in every statement that called it: a third of a simple upload's commit statement (0.31 of 0.87 ms in
// EXPLAIN ANALYZE, docs/benchmarks.md § session 17). In PL/pgSQL the same query is planned once per session and kept.
// The body, and so every answer, is unchanged.
import type { Knex } from 'knex';

const chainEpochs = (language: 'plpgsql' | 'sql') => {
  const walk = `WITH RECURSIVE up(uuid, parent_uuid, epoch) AS (
      SELECT d.uuid, d.parent_uuid, d.epoch FROM drive_items d WHERE d.uuid = folder
      UNION ALL
      SELECT d.uuid, d.parent_uuid, d.epoch FROM drive_items d JOIN up ON d.uuid = up.parent_uuid
    )
    SELECT coalesce(sum(epoch), 0)::integer FROM up`;
  return `
  CREATE OR REPLACE FUNCTION drive_chain_epochs(folder uuid) RETURNS integer
  LANGUAGE ${language} STABLE AS $$
    ${language === 'plpgsql' ? `BEGIN RETURN (${walk}); END` : walk}
  $$`;
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(chainEpochs('plpgsql'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(chainEpochs('sql'));
}
