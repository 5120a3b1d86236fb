// Public-link tokens and push device tokens leave the database's clear text (docs/drive-sharing.md § Tokens,
// docs/drive-push.md § Device tokens at rest): each is sealed under a key that the master key wraps, a link keeps the
// SHA-256 of its token for the lookup, and the clear columns are dropped. Forward-only: down refuses, as undoing it
// would put the secrets back in clear.
//
// Rows made before it are sealed here, with the master key of the configuration `folio migrate` runs with (the same
// FOLIO_MASTER_KEY the API and workers have: the Kubernetes Job and the compose service read the same Secret). A
// migration is the one step that runs before any new process serves, and in the same transaction as the drop, so no
// row is ever left with neither form. The key is read only when there are rows to seal (a new database needs none), and
// it must open a key already stored, or the migration stops rather than seal tokens nobody could open.
import type { Knex } from 'knex';
import { ContentIntegrityError, unwrapDataKey, type MasterKey } from '../../domain/drive/crypto.js';
import { sealDeviceToken, sealPublicLinkToken } from '../../domain/drive/sealed-tokens.js';
import { config } from '../../platform/config.js';

const PAGE = 500;

/** Wrapped keys stored before this migration, each bound to its row's uuid: a sample of them proves the key right. */
const STORED_KEYS = [
  { table: 'push_clients', column: 'credential_key_wrapped' },
  { table: 'webhook_destinations', column: 'secret_wrapped' },
  { table: 'drive_file_versions', column: 'wrapped_key' },
  { table: 'document_attachments', column: 'wrapped_key' },
  { table: 'emails', column: 'wrapped_key' },
];

/**
 * Refuses a master key that opens none of the keys already stored (a migration run with another configuration than the
 * servers'). With nothing stored yet there is nothing to check against.
 */
export async function checkMasterKey(knex: Knex, masterKey: MasterKey): Promise<void> {
  let sampled = 0;
  for (const { table, column } of STORED_KEYS) {
    const rows = (await knex(table)
      .whereNotNull(column)
      .orderBy('uuid')
      .limit(3)
      .select('uuid', `${column} as wrapped`)) as { uuid: string; wrapped: Buffer }[];
    for (const row of rows) {
      sampled++;
      try {
        unwrapDataKey(masterKey, row.uuid, row.wrapped);
        return;
      } catch (error) {
        if (!(error instanceof ContentIntegrityError)) throw error;
      }
    }
  }
  if (sampled > 0) {
    throw new Error(
      'Migration 023 seals public-link and device tokens under FOLIO_MASTER_KEY, but the configured master key opens none of the keys ' +
        'already stored: run `folio migrate` with the same FOLIO_MASTER_KEY (and FOLIO_MASTER_KEY_ID, FOLIO_PREVIOUS_MASTER_KEYS) as the API and workers.',
    );
  }
}

/** Seals every token still in clear, a page at a time; answers how many rows of each table it sealed. */
export async function sealStoredTokens(
  knex: Knex,
  masterKey: MasterKey,
): Promise<{ links: number; subscriptions: number }> {
  let links = 0;
  for (;;) {
    const rows = (await knex('drive_public_links')
      .whereNull('token_key_wrapped')
      .orderBy('uuid')
      .limit(PAGE)
      .select('uuid', 'token')) as { uuid: string; token: string }[];
    // The hash is migration 011's, computed the same way; writing it again changes nothing.
    for (const row of rows)
      await knex('drive_public_links')
        .where({ uuid: row.uuid })
        .update(sealPublicLinkToken(masterKey, row.uuid, row.token));
    links += rows.length;
    if (rows.length < PAGE) break;
  }
  let subscriptions = 0;
  for (;;) {
    const rows = (await knex('drive_push_subscriptions')
      .whereNull('device_token_key_wrapped')
      .orderBy('uuid')
      .limit(PAGE)
      .select('uuid', 'device_token')) as {
      uuid: string;
      device_token: string;
    }[];
    for (const row of rows)
      await knex('drive_push_subscriptions')
        .where({ uuid: row.uuid })
        .update(sealDeviceToken(masterKey, row.uuid, row.device_token));
    subscriptions += rows.length;
    if (rows.length < PAGE) break;
  }
  return { links, subscriptions };
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'ALTER TABLE drive_public_links ADD COLUMN token_key_wrapped bytea, ADD COLUMN token_sealed bytea',
  );
  await knex.raw(
    'ALTER TABLE drive_push_subscriptions ADD COLUMN device_token_key_wrapped bytea, ADD COLUMN device_token_sealed bytea',
  );

  const pending =
    (await knex('drive_public_links').first('uuid')) ??
    (await knex('drive_push_subscriptions').first('uuid'));
  if (pending) {
    const { masterKey } = config();
    await checkMasterKey(knex, masterKey);
    await sealStoredTokens(knex, masterKey);
  }

  await knex.raw(
    'ALTER TABLE drive_public_links ALTER COLUMN token_key_wrapped SET NOT NULL, ALTER COLUMN token_sealed SET NOT NULL, DROP COLUMN token',
  );
  // The hex check on device_token goes with the column; the API checks the token before it seals it (domain/drive/push.ts).
  await knex.raw(
    'ALTER TABLE drive_push_subscriptions ALTER COLUMN device_token_key_wrapped SET NOT NULL, ALTER COLUMN device_token_sealed SET NOT NULL, DROP COLUMN device_token',
  );
}

export async function down(): Promise<void> {
  throw new Error(
    'Migration 023 is forward-only: undoing it would store public-link and device tokens in clear again.',
  );
}
