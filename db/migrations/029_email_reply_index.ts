// An arriving message looks for replies that came before it (domain/email/messages.ts EARLIER_REPLY): by In-Reply-To
// through this index, by References through the GIN index of migration 010.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX emails_mailbox_in_reply_to ON emails (mailbox_uuid, in_reply_to) WHERE in_reply_to IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS emails_mailbox_in_reply_to');
}
