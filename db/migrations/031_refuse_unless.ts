// A write that is one statement, committed as it ends (workflows/outbox.ts runOneStatement), cannot stop between its
// steps to let the client decide: a step that finds the write must not happen (the pool full, the destination gone)
// calls folio_refuse_unless, whose error (SQLSTATE FL001) rolls the whole statement back and names the refusal in its
// DETAIL for the client to map.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION folio_refuse_unless(ok boolean, refusal text) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      IF ok IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = 'FL001', MESSAGE = 'refused: ' || refusal, DETAIL = refusal;
      END IF;
      RETURN true;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS folio_refuse_unless(boolean, text)');
}
