// The admin app's sign-in: one-time links, sessions in PostgreSQL (so any API process can check them and an
// operator can list and revoke them), and a record of every reveal of a webhook signing secret.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admin_sign_in_links', (t) => {
    // Only a hash of the link's secret is kept: a database reader cannot sign in with it.
    t.binary('token_hash').primary();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['expires_at']);
  });

  await knex.schema.createTable('admin_sessions', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.binary('token_hash').notNullable().unique();
    // The CSRF token every state-changing form carries; random per session, compared in constant time.
    t.text('csrf_token').notNullable();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.text('user_agent');
    t.text('ip');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The absolute end; the idle end is last_seen_at plus the idle timeout, checked on each request.
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true });
    // signed_out, revoked, or expired (written when a request finds it so).
    t.text('end_reason');
    t.index(['user_uuid', 'created_at']);
  });

  await knex.schema.createTable('webhook_secret_reveals', (t) => {
    t.bigIncrements('id');
    t.uuid('destination_uuid').notNullable().references('webhook_destinations.uuid').onDelete('CASCADE');
    // Null when an operator revealed it from the CLI (`folio webhook secret`).
    t.uuid('user_uuid').references('users.uuid').onDelete('SET NULL');
    t.text('via').notNullable();
    t.timestamp('revealed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['destination_uuid', 'revealed_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_secret_reveals', 'admin_sessions', 'admin_sign_in_links'])
    await knex.schema.dropTableIfExists(table);
}
