// The receiver's answer kept with each attempt (issue 25, for the admin app): its headers and the first 4 KB of its
// body, decoded as UTF-8 with invalid sequences replaced (platform/webhook-transport.ts). Null when no answer began
// (a refused address, a connection that failed, an attempt a crash interrupted) and for attempts recorded before.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `ALTER TABLE webhook_attempts ADD COLUMN response_headers jsonb, ADD COLUMN response_body text`,
  );
  // The bound the sender keeps, held by the table too (characters: a replaced byte is one character of three bytes).
  await knex.raw(`ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_response_body
                  CHECK (char_length(response_body) <= 4096)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhook_attempts DROP COLUMN response_body, DROP COLUMN response_headers`);
}
