// Webhook extensions (docs/extensions.md § Webhooks): webhook.test events, which name no mailbox or email, and manual
// resends, each a new delivery of the same event to the same destination (`round` 1, 2, …; the spec's own delivery is
// round 0) with its attempts numbered from 1 again.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `ALTER TABLE webhook_events ALTER COLUMN mailbox_uuid DROP NOT NULL, ALTER COLUMN email_uuid DROP NOT NULL`,
  );
  await knex.raw(`ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_email
                  CHECK (type <> 'email.received' OR (mailbox_uuid IS NOT NULL AND email_uuid IS NOT NULL))`);
  await knex.raw(`ALTER TABLE webhook_deliveries ALTER COLUMN mailbox_uuid DROP NOT NULL`);
  await knex.raw(
    `ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_destination_uuid_event_uuid_foreign`,
  );
  await knex.raw(
    `ALTER TABLE webhook_deliveries ADD COLUMN round integer NOT NULL DEFAULT 0 CHECK (round >= 0)`,
  );
  await knex.raw(
    `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey, ADD PRIMARY KEY (destination_uuid, event_uuid, round)`,
  );
  await knex.raw(`ALTER TABLE webhook_attempts ADD COLUMN round integer NOT NULL DEFAULT 0`);
  await knex.raw(`ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_one_per_number,
                  ADD CONSTRAINT webhook_attempts_one_per_number UNIQUE (destination_uuid, event_uuid, round, attempt)`);
  await knex.raw(`ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_delivery FOREIGN KEY (destination_uuid, event_uuid, round)
                  REFERENCES webhook_deliveries (destination_uuid, event_uuid, round) ON DELETE CASCADE`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('webhook_deliveries').where('round', '>', 0).delete();
  await knex('webhook_events').whereNot({ type: 'email.received' }).delete();
  await knex.raw(`ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_delivery`);
  await knex.raw(`ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_one_per_number,
                  ADD CONSTRAINT webhook_attempts_one_per_number UNIQUE (destination_uuid, event_uuid, attempt)`);
  await knex.raw(`ALTER TABLE webhook_attempts DROP COLUMN round`);
  await knex.raw(
    `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey, ADD PRIMARY KEY (destination_uuid, event_uuid), DROP COLUMN round`,
  );
  await knex.raw(`ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_destination_uuid_event_uuid_foreign FOREIGN KEY (destination_uuid, event_uuid)
                  REFERENCES webhook_deliveries (destination_uuid, event_uuid) ON DELETE CASCADE`);
  await knex.raw(`ALTER TABLE webhook_deliveries ALTER COLUMN mailbox_uuid SET NOT NULL`);
  await knex.raw(
    `ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_email, ALTER COLUMN mailbox_uuid SET NOT NULL, ALTER COLUMN email_uuid SET NOT NULL`,
  );
}
