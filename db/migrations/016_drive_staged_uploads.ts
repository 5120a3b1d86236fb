// Simple uploads in flight: a row written before the first byte goes to object storage and removed in the transaction
// that creates the file. What a crash leaves is swept by a Temporal Schedule (domain/drive/staged-uploads.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('drive_staged_uploads', (t) => {
    t.text('storage_key').primary();
    t.uuid('workspace_uuid').notNullable();
    t.uuid('file_uuid').notNullable();
    // An S3 multipart upload to abort with the object, when the bytes went up in parts.
    t.text('storage_upload_id');
    // The advisory lock the writing API process holds for its life (platform/process-session.ts): while it is held,
    // the upload may still be running; once it is free, the process is gone and the row is abandoned.
    t.bigInteger('owner_lock').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('drive_staged_uploads');
}
