// Workspaces, people, their memberships, and the credentials that act for them.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspaces', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.bigInteger('storage_limit_bytes').notNullable();
    // Bytes promised to completed files, live versions and uploads in flight; see docs/drive-storage.md.
    t.bigInteger('storage_used_bytes').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.check('storage_used_bytes >= 0', [], 'workspaces_storage_used_nonnegative');
  });

  await knex.schema.createTable('users', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('email').notNullable();
    t.text('first_name');
    t.text('last_name');
    t.timestamps(true, true);
  });
  await knex.raw('CREATE UNIQUE INDEX users_email_unique ON users (lower(email))');

  await knex.schema.createTable('workspace_members', (t) => {
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.boolean('admin').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_uuid', 'user_uuid']);
  });

  await knex.schema.createTable('access_tokens', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // SHA-256 of the token; the token itself is never stored.
    t.binary('token_hash').notNullable().unique();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.binary('key_hash').notNullable().unique();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['api_keys', 'access_tokens', 'workspace_members', 'users', 'workspaces']) {
    await knex.schema.dropTableIfExists(table);
  }
}
