// Drive device push (spec/drive.md § Push subscriptions; docs/drive-push.md): the server-managed push clients
// operators create, the subscriptions devices register against them, each workspace's fan-out cursor over the
// change log, and the trigger that records a fan-out in the workflow outbox with every committed batch of changes.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_clients', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // Null: devices of any workspace may register against it (one app for the whole installation).
    t.uuid('workspace_uuid').references('workspaces.uuid').onDelete('CASCADE');
    t.text('kind').notNullable();
    // What may be shown: APNs key id, team id, topic, environment; Web Push public key, subject, endpoint origins.
    t.jsonb('settings').notNullable();
    // The signing key (APNs .p8, VAPID private key), sealed under a key wrapped by the master key.
    t.binary('credential_key_wrapped').notNullable();
    t.binary('credential_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`kind in ('apns', 'webpush')`, [], 'push_clients_kind');
  });

  await knex.schema.createTable('drive_push_subscriptions', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.uuid('push_client_uuid').notNullable().references('push_clients.uuid').onDelete('CASCADE');
    t.text('device_token').notNullable();
    t.text('container_identifier').notNullable();
    t.text('domain_identifier').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('unregistered_at', { useTz: true });
    // Why it stopped: 'user' (DELETE) or the provider's answer ('Unregistered', 'BadDeviceToken', 'http 410').
    t.text('unregistered_reason');
    t.timestamp('last_pushed_at', { useTz: true });
    // Registering again with the same client, container and domain updates in place (per user: docs/drive-push.md).
    t.unique(['user_uuid', 'push_client_uuid', 'container_identifier', 'domain_identifier'], {
      indexName: 'drive_push_subscriptions_registration',
    });
    t.check(`device_token ~ '^[0-9a-f]+$'`, [], 'drive_push_subscriptions_token_hex');
  });
  await knex.raw(
    'CREATE INDEX drive_push_subscriptions_active ON drive_push_subscriptions (workspace_uuid) WHERE unregistered_at IS NULL',
  );

  await knex.schema.createTable('drive_push_cursors', (t) => {
    t.uuid('workspace_uuid').primary().references('workspaces.uuid').onDelete('CASCADE');
    // The change-log seq through which every active subscription has been pushed.
    t.bigInteger('through_seq').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Every transaction that appends Drive changes, on any path (a request, a cascade batch, the CLI), records one fan-out
  // per workspace with an active subscription in the workflow outbox, in the same transaction: it happens if and only
  // if the changes commit. The key carries the transaction id, so two transactions never share a row and neither's
  // fan-out can be lost to the other's dispatch (workflows/client.ts).
  await knex.raw(`
    CREATE FUNCTION drive_push_record_fanout() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO workflow_outbox (workflow_id, request)
      SELECT 'drive-push:' || w.workspace_uuid || ':' || txid_current(),
             jsonb_build_object('type', 'drivePush', 'workspaceUuid', w.workspace_uuid, 'batch', txid_current()::text)
        FROM (SELECT DISTINCT workspace_uuid FROM new_changes) w
       WHERE EXISTS (SELECT 1 FROM drive_push_subscriptions s WHERE s.workspace_uuid = w.workspace_uuid AND s.unregistered_at IS NULL)
      ON CONFLICT (workflow_id) DO NOTHING;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER drive_changes_push_fanout AFTER INSERT ON drive_changes
    REFERENCING NEW TABLE AS new_changes FOR EACH STATEMENT EXECUTE FUNCTION drive_push_record_fanout()`);
  await knex.raw(
    `CREATE INDEX workflow_outbox_drive_push_batch ON workflow_outbox ((request->>'batch')) WHERE request->>'type' = 'drivePush'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS workflow_outbox_drive_push_batch');
  await knex.raw('DROP TRIGGER IF EXISTS drive_changes_push_fanout ON drive_changes');
  await knex.raw('DROP FUNCTION IF EXISTS drive_push_record_fanout()');
  await knex.schema.dropTableIfExists('drive_push_cursors');
  await knex.schema.dropTableIfExists('drive_push_subscriptions');
  await knex.schema.dropTableIfExists('push_clients');
}
