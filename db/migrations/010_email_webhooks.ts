// Mail in and webhooks out: mailboxes and their members and filter rules, stored emails and their threads, webhook
// destinations and their per-mailbox subscriptions, email.received events, one delivery per (destination, event)
// and every attempt of it. See docs/webhooks.md.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mailboxes', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    // Stored lower-case: SMTP local parts are case-sensitive in theory, never in practice.
    t.text('address').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['address'], { indexName: 'mailboxes_address_unique' });
    // Lets subscriptions prove by foreign key that a mailbox is in the destination's workspace.
    t.unique(['workspace_uuid', 'uuid'], { indexName: 'mailboxes_workspace_uuid' });
    t.check(`address = lower(address) and address ~ '^[^@\\s]+@[^@\\s]+$'`, [], 'mailboxes_address_form');
  });

  await knex.schema.createTable('mailbox_members', (t) => {
    t.uuid('mailbox_uuid').notNullable().references('mailboxes.uuid').onDelete('CASCADE');
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['mailbox_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });

  await knex.schema.createTable('mailbox_rules', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('mailbox_uuid').notNullable().references('mailboxes.uuid').onDelete('CASCADE');
    t.text('field').notNullable();
    t.text('contains').notNullable();
    t.text('action').notNullable();
    t.text('label');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['mailbox_uuid', 'created_at']);
    t.check(`field in ('from', 'to', 'subject')`, [], 'mailbox_rules_field');
    t.check(`length(contains) > 0`, [], 'mailbox_rules_contains');
    t.check(
      `(action = 'delete' and label is null) or (action = 'label' and length(label) > 0)`,
      [],
      'mailbox_rules_action',
    );
  });

  await knex.schema.createTable('email_threads', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('mailbox_uuid').notNullable().references('mailboxes.uuid').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('emails', (t) => {
    t.uuid('uuid').primary();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('mailbox_uuid').notNullable().references('mailboxes.uuid').onDelete('CASCADE');
    t.uuid('thread_uuid').notNullable().references('email_threads.uuid').onDelete('CASCADE');
    // delivered (SMTP or `folio email deliver`), imported (`folio email import`), draft (saved, never sent to us).
    t.text('kind').notNullable();
    t.boolean('spam').notNullable().defaultTo(false);
    t.specificType('labels', 'text[]').notNullable();
    t.text('message_id');
    t.text('in_reply_to');
    t.specificType('references', 'text[]').notNullable().defaultTo('{}');
    t.text('subject');
    t.jsonb('from_address');
    t.jsonb('to_addresses').notNullable().defaultTo('[]');
    t.jsonb('cc_addresses').notNullable().defaultTo('[]');
    t.jsonb('attachments').notNullable().defaultTo('[]');
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The raw RFC 5322 message, encrypted at rest like a Drive version (docs/webhooks.md § Mail storage).
    t.text('storage_key').notNullable();
    t.binary('wrapped_key').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.integer('chunk_size_bytes').notNullable();
    t.index(['mailbox_uuid', 'message_id']);
    t.index(['thread_uuid']);
    t.check(`kind in ('delivered', 'imported', 'draft')`, [], 'emails_kind');
  });
  await knex.raw('CREATE INDEX emails_references ON emails USING gin ("references")');

  await knex.schema.createTable('webhook_destinations', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('status').notNullable().defaultTo('active');
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    // Events in a row whose five attempts all failed; any 2xx resets it.
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    // The signing secret's 32 random bytes, wrapped by the master key; the previous one signs too until it expires.
    t.binary('secret_wrapped').notNullable();
    t.binary('previous_secret_wrapped');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_uuid', 'uuid'], { indexName: 'webhook_destinations_workspace_uuid' });
    t.check(`status in ('active', 'paused', 'disabled')`, [], 'webhook_destinations_status');
    t.check(`(status = 'disabled') = (disabled_at is not null)`, [], 'webhook_destinations_disabled_at');
    t.check(`consecutive_failures >= 0`, [], 'webhook_destinations_failures');
  });

  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.uuid('workspace_uuid').notNullable();
    t.uuid('destination_uuid').notNullable();
    t.uuid('mailbox_uuid').notNullable();
    t.text('event_type').notNullable().defaultTo('email.received');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['destination_uuid', 'mailbox_uuid', 'event_type']);
    t.foreign(['workspace_uuid', 'destination_uuid'])
      .references(['workspace_uuid', 'uuid'])
      .inTable('webhook_destinations')
      .onDelete('CASCADE');
    t.foreign(['workspace_uuid', 'mailbox_uuid'])
      .references(['workspace_uuid', 'uuid'])
      .inTable('mailboxes')
      .onDelete('CASCADE');
    t.index(['mailbox_uuid']);
  });

  await knex.schema.createTable('webhook_events', (t) => {
    // Presented as whevt_<uuid>.
    t.uuid('uuid').primary();
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('mailbox_uuid').notNullable();
    t.uuid('email_uuid').notNullable();
    t.text('type').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('destination_uuid').notNullable().references('webhook_destinations.uuid').onDelete('CASCADE');
    t.uuid('event_uuid').notNullable().references('webhook_events.uuid').onDelete('CASCADE');
    t.uuid('workspace_uuid').notNullable();
    t.uuid('mailbox_uuid').notNullable();
    // scheduled → sending ⇄ waiting → succeeded | failed (five attempts) | stopped (paused, disabled) | terminated.
    t.text('state').notNullable().defaultTo('scheduled');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.text('terminated_by');
    t.text('terminated_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.primary(['destination_uuid', 'event_uuid']);
    t.index(['destination_uuid', 'created_at']);
    t.check(
      `state in ('scheduled', 'sending', 'waiting', 'succeeded', 'failed', 'stopped', 'terminated')`,
      [],
      'webhook_deliveries_state',
    );
  });
  await knex.raw(
    `CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (created_at) WHERE state IN ('scheduled', 'sending', 'waiting')`,
  );

  await knex.schema.createTable('webhook_attempts', (t) => {
    // The X-Service-Delivery-ID of the attempt.
    t.uuid('uuid').primary();
    t.uuid('destination_uuid').notNullable();
    t.uuid('event_uuid').notNullable();
    t.integer('attempt').notNullable();
    // pending from the claim until the result is recorded; a pending row found later was interrupted by a crash.
    t.text('outcome').notNullable().defaultTo('pending');
    t.integer('status_code');
    t.text('error_class');
    t.integer('response_time_ms');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    // The claim: one row per attempt number, so no number is ever sent twice.
    t.unique(['destination_uuid', 'event_uuid', 'attempt'], { indexName: 'webhook_attempts_one_per_number' });
    t.foreign(['destination_uuid', 'event_uuid'])
      .references(['destination_uuid', 'event_uuid'])
      .inTable('webhook_deliveries')
      .onDelete('CASCADE');
    t.index(['destination_uuid', 'started_at']);
    t.index(['started_at']);
    t.check(`attempt between 1 and 5`, [], 'webhook_attempts_number');
    t.check(`outcome in ('pending', 'success', 'failure')`, [], 'webhook_attempts_outcome');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_events',
    'webhook_subscriptions',
    'webhook_destinations',
    'emails',
    'email_threads',
    'mailbox_rules',
    'mailbox_members',
    'mailboxes',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
