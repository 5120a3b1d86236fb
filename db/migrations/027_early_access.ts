// The document editor app (docs/editor.md): the early-access flag that opens it to an account, and its own sign-in,
// one-time links and sessions kept apart from the admin app's (any user signs in here, not only admins).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    // The editor app is in preview (spec/documents.md): only accounts with this flag see a document in it.
    t.boolean('early_access').notNullable().defaultTo(false);
  });

  await knex.schema.createTable('editor_sign_in_links', (t) => {
    // Only a hash of the link's secret is kept: a database reader cannot sign in with it.
    t.binary('token_hash').primary();
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['expires_at']);
  });

  await knex.schema.createTable('editor_sessions', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.binary('token_hash').notNullable().unique();
    // The CSRF token every write of the app carries; random per session, compared in constant time.
    t.text('csrf_token').notNullable();
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true });
    t.index(['user_uuid', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('editor_sessions');
  await knex.schema.dropTableIfExists('editor_sign_in_links');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('early_access');
  });
}
