// drive_staged_uploads keeps only its primary key. The table holds the simple uploads in flight (each row is deleted by
// its upload's commit, or by the sweep), so every simple upload wrote an entry into drive_staged_uploads_created_at_index
// that only the sweep could read, and the sweep reads every row anyway: its condition is an OR with an advisory lock
// (domain/drive/staged-uploads.ts sweepStagedUploads). One index entry and its WAL record fewer per simple upload.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS drive_staged_uploads_created_at_index');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS drive_staged_uploads_created_at_index ON drive_staged_uploads (created_at)',
  );
}
