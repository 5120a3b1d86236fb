// Drive content hash (an extension, docs/extensions.md § Content hash; Dropbox's content_hash): each file version
// records the hash of its plaintext, and the item keeps its live version's (as it keeps its size and type), so every
// drive_file shows it without a join. Versions completed before this migration keep null: nothing is backfilled.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE drive_file_versions ADD COLUMN content_hash text
                  CONSTRAINT drive_file_versions_content_hash CHECK (content_hash ~ '^[0-9a-f]{64}$')`);
  await knex.raw(`ALTER TABLE drive_items ADD COLUMN content_hash text
                  CONSTRAINT drive_items_content_hash CHECK (content_hash IS NULL OR (content_hash ~ '^[0-9a-f]{64}$' AND kind = 'file'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE drive_items DROP COLUMN content_hash');
  await knex.raw('ALTER TABLE drive_file_versions DROP COLUMN content_hash');
}
