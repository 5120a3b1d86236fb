// Revoking (or deleting, or otherwise changing) a credential notifies every API process at commit, so the brief
// per-process credential cache (api/middleware/credential-cache.ts) forgets it before the next request.
import type { Knex } from 'knex';

/** Table and the column holding its secret's hash, which is what the notification carries (hex). */
const CREDENTIAL_TABLES = [
  { table: 'access_tokens', hash: 'token_hash' },
  { table: 'api_keys', hash: 'key_hash' },
];

export async function up(knex: Knex): Promise<void> {
  for (const { table, hash } of CREDENTIAL_TABLES) {
    await knex.raw(`
      CREATE FUNCTION ${table}_notify_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('folio_credential_revoked', encode(OLD.${hash}, 'hex'));
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER ${table}_notify_changed AFTER UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION ${table}_notify_changed()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table } of CREDENTIAL_TABLES) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_notify_changed ON ${table}`);
    await knex.raw(`DROP FUNCTION IF EXISTS ${table}_notify_changed()`);
  }
}
