// Drive thumbnails: one row per (file version, variant) once its render ended, ready (an encrypted object in storage)
// or failed (the file then has no preview). A version's rows go with it; docs/drive-thumbnails.md.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('drive_thumbnails', (t) => {
    t.uuid('version_uuid').notNullable().references('drive_file_versions.uuid').onDelete('CASCADE');
    t.text('variant').notNullable();
    t.uuid('file_uuid').notNullable().references('drive_items.uuid').onDelete('CASCADE');
    t.uuid('workspace_uuid').notNullable();
    t.text('status').notNullable();
    // Set when ready: the image type served, the object holding its ciphertext, and its size in pixels and bytes.
    t.text('content_type');
    t.text('storage_key');
    t.integer('width');
    t.integer('height');
    t.integer('size_bytes');
    // Set when failed: why, for operators (never shown to clients).
    t.text('failure');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['version_uuid', 'variant']);
    t.index(['file_uuid']);
    t.check(`status in ('ready', 'failed')`, [], 'drive_thumbnails_status');
    t.check(
      `(status = 'ready' and content_type is not null and storage_key is not null and size_bytes is not null) or (status = 'failed' and storage_key is null)`,
      [],
      'drive_thumbnails_ready_fields',
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('drive_thumbnails');
}
