// Public links are looked up by the SHA-256 of their token, so the lookup's timing tells a guesser nothing about
// how close a guess came (docs/drive-sharing.md § Public links). The token itself stays: the sharing settings show it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('drive_public_links', (t) => {
    t.binary('token_hash');
  });
  await knex.raw(`UPDATE drive_public_links SET token_hash = sha256(convert_to(token, 'UTF8'))`);
  await knex.raw('ALTER TABLE drive_public_links ALTER COLUMN token_hash SET NOT NULL');
  await knex.schema.alterTable('drive_public_links', (t) => {
    t.unique(['token_hash'], { indexName: 'drive_public_links_token_hash' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('drive_public_links', (t) => {
    t.dropColumn('token_hash');
  });
}
