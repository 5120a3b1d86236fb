// Drive content: who started a staged version, which version retired which, and sane chunking bounds.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('drive_file_versions', (t) => {
    // Only the person who started an upload or replacement may get its part URLs, complete or abort it.
    t.uuid('created_by').references('users.uuid').onDelete('SET NULL');
    // The version whose promotion retired this one; its replace workflow purges this one after retention.
    t.uuid('superseded_by');
    t.check('chunk_size_bytes > 0 and chunk_count between 1 and 10000', [], 'drive_file_versions_chunking');
    t.check('plaintext_size_bytes >= 0', [], 'drive_file_versions_size_nonnegative');
  });
  await knex.raw(
    `CREATE INDEX drive_file_versions_superseded_by ON drive_file_versions (superseded_by) WHERE superseded_by IS NOT NULL`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS drive_file_versions_superseded_by');
  await knex.schema.alterTable('drive_file_versions', (t) => {
    t.dropChecks(['drive_file_versions_chunking', 'drive_file_versions_size_nonnegative']);
    t.dropColumn('superseded_by');
    t.dropColumn('created_by');
  });
}
