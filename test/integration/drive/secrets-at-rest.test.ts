// Public-link tokens and push device tokens at rest (docs/drive-sharing.md § Tokens, docs/drive-push.md § Device tokens
// at rest; issue 22, row 11): no column of a link or a subscription holds the token, the url, the endpoint or the device
// token in clear, while the link still serves, the sharing settings still show its token and url, and pushes still
// reach the devices. Migration 023 seals the rows made before it, and refuses a master key that is not the servers'.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { checkMasterKey } from '../../../db/migrations/023_secrets_at_rest.js';
import { migrateLatest } from '../../../db/migrate.js';
import { createDatabaseIfMissing, dropDatabase } from '../../../deploy/local/services.js';
import { createPushClient } from '../../../domain/drive/push.js';
import {
  openDeviceToken,
  openPublicLinkToken,
  publicLinkTokenHash,
} from '../../../domain/drive/sealed-tokens.js';
import { config } from '../../../platform/config.js';
import { createDb, db } from '../../../platform/database.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import { call, makeFolder, makeUser } from '../../support/api.js';
import { apnsServerPool } from '../../support/apns-server.js';
import { folio } from '../../support/cli.js';
import { simpleUpload } from '../../support/drive-files.js';
import { webPushServerPool } from '../../support/webpush-server.js';

afterAll(closeTemporalClient);

const startApns = apnsServerPool();
const startWebPush = webPushServerPool();

const APNS_TOKEN = 'c3'.repeat(32);

/** A row as PostgreSQL renders it to JSON (bytea as \x hex): what a dump of the table shows. */
async function rowText(knex: Knex, table: string, uuid: string): Promise<string> {
  const { rows } = await knex.raw(`select row_to_json(t)::text as text from ${table} t where uuid = ?`, [
    uuid,
  ]);
  expect(rows).toHaveLength(1);
  return rows[0].text as string;
}

/** Every spelling a secret could be stored in: as given, and its bytes in hex and base64 (as a bytea would show). */
function spellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [secret, bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')];
  if (/^([0-9a-f]{2})+$/.test(secret))
    forms.push(
      Buffer.from(secret, 'hex').toString('base64'),
      Buffer.from(secret, 'hex').toString('base64url'),
    );
  return forms;
}

function expectNoneIn(text: string, secrets: string[]) {
  for (const secret of secrets)
    for (const form of spellings(secret))
      expect(text.toLowerCase(), `stored in clear: ${secret}`).not.toContain(form.toLowerCase());
}

/** A GET with no credential, from a loopback address of this file's own (the per-address limit counts per address). */
function visit(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress: '127.0.3.1' }, (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (piece: Buffer) => pieces.push(piece));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(pieces).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('tokens at rest', () => {
  it(
    'stores no link token, url, endpoint or device token in clear; the link serves, sharing shows it, pushes arrive',
    { timeout: 180_000 },
    async () => {
      const owner = await makeUser();
      const file = await simpleUpload(owner, 'report.txt', Buffer.from('the report'));
      const link = await folio('share', 'link', '--file', file.uuid);
      expect(link).toMatchObject({
        object: 'drive_public_link',
        token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        url: `${config().publicUrl}/s/${link.token}`,
      });

      const apns = await startApns();
      const web = await startWebPush();
      const apnsClient = await db().transaction((tx) =>
        createPushClient(tx, config().masterKey, {
          kind: 'apns',
          workspaceUuid: null,
          key: apns.keyPem,
          keyId: apns.keyId,
          teamId: apns.teamId,
          topic: apns.topic,
          environment: 'sandbox',
          address: apns.address,
        }),
      );
      const webClient = await db().transaction((tx) =>
        createPushClient(tx, config().masterKey, {
          kind: 'webpush',
          workspaceUuid: null,
          subject: 'mailto:ops@folio.test',
          endpointOrigins: [web.origin],
        }),
      );
      const browser = web.subscribe();
      const subscribe = async (client: { uuid: string }, deviceToken: string, container: string) => {
        const response = await call('POST', '/v1/drive/push_subscriptions', {
          token: owner.token,
          json: {
            push_client_uuid: client.uuid,
            device_token: deviceToken,
            container_identifier: container,
            domain_identifier: owner.workspaceUuid,
          },
        });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        return response.body.uuid as string;
      };
      const apnsSubscription = await subscribe(apnsClient, APNS_TOKEN, 'ios');
      const webSubscription = await subscribe(webClient, browser.deviceToken, 'web-app');

      // What a dump of the tables shows: no secret in any column, in any spelling.
      const linkRow = await rowText(db(), 'drive_public_links', link.uuid);
      expectNoneIn(linkRow, [link.token, link.url]);
      for (const [uuid, secrets] of [
        [apnsSubscription, [APNS_TOKEN]],
        [
          webSubscription,
          [browser.deviceToken, browser.json.endpoint, browser.json.keys.p256dh, browser.json.keys.auth],
        ],
      ] as const) {
        expectNoneIn(await rowText(db(), 'drive_push_subscriptions', uuid), [...secrets]);
      }
      // What is stored instead: the token's hash, and the secrets sealed under the master key.
      const stored = await db()('drive_public_links').where({ uuid: link.uuid }).first();
      expect(Buffer.from(stored.token_hash)).toEqual(publicLinkTokenHash(link.token));
      expect(openPublicLinkToken(config().masterKey, stored)).toBe(link.token);
      expect(
        openDeviceToken(
          config().masterKey,
          await db()('drive_push_subscriptions').where({ uuid: webSubscription }).first(),
        ),
      ).toBe(browser.deviceToken);

      // The link serves, and the sharing settings (and the CLI, again) show the same token and url.
      expect(await visit(link.url)).toEqual({ status: 200, text: 'the report' });
      const sharing = await call('GET', `/v1/drive/files/${file.uuid}/sharing`, { token: owner.token });
      expect(sharing.status).toBe(200);
      expect(sharing.body.public_link).toEqual(link);
      expect(await folio('share', 'link', '--file', file.uuid)).toEqual(link);

      // A change reaches both devices, each at its own address, under its own token.
      await makeFolder(owner, 'Drafts');
      const [pushed] = await apns.waitFor(1);
      expect(pushed!.deviceToken).toBe(APNS_TOKEN);
      expect(pushed!.jwtProblem).toBeNull();
      const [received] = await web.waitFor(1);
      expect(received!.subscriptionId).toBe(browser.id);
      expect(received!.payload).toEqual({
        type: 'drive.changes',
        container_identifier: 'web-app',
        domain_identifier: owner.workspaceUuid,
      });
    },
  );
});

describe('migration 023', () => {
  const serverUrl = () => process.env.FOLIO_DATABASE_URL!.replace(/\/[^/]*$/, '');
  const migrationsDir = fileURLToPath(new URL('../../../db/migrations/', import.meta.url));

  /** A database migrated up to 022: the schema in which tokens were stored in clear. */
  async function databaseBefore023(): Promise<{ knex: Knex; name: string }> {
    const name = `folio_sealing_${randomUUID().slice(0, 8)}`;
    await createDatabaseIfMissing(serverUrl(), name);
    const knex = createDb(`${serverUrl()}/${name}`);
    const before = readdirSync(migrationsDir)
      .filter((file) => /^\d{3}_.*\.ts$/.test(file) && file < '023')
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    await knex.migrate.latest({
      migrationSource: {
        getMigrations: async () => before,
        getMigrationName: (migration: string) => migration,
        getMigration: async (migration: string) =>
          (await import(join(migrationsDir, `${migration}.ts`))) as Knex.Migration,
      },
    });
    return { knex, name };
  }

  it(
    'seals every token stored in clear before it, keeps the hash lookups, and drops the clear columns',
    { timeout: 120_000 },
    async () => {
      const { knex, name } = await databaseBefore023();
      try {
        const [workspace] = await knex('workspaces')
          .insert({ name: 'sealing', storage_limit_bytes: 1_000_000 })
          .returning('uuid');
        const [user] = await knex('users').insert({ email: 'sealing@example.test' }).returning('uuid');
        const [folder] = await knex('drive_items')
          .insert({
            workspace_uuid: workspace.uuid,
            owner_uuid: user.uuid,
            kind: 'folder',
            name: 'Shared',
            depth: 0,
          })
          .returning('uuid');
        const token = randomBytes(24).toString('base64url');
        const [link] = await knex('drive_public_links')
          .insert({
            item_uuid: folder.uuid,
            token,
            token_hash: createHash('sha256').update(token).digest(),
            status: 'ready',
          })
          .returning('uuid');
        // A push client made as Folio makes them: its signing key wrapped by this stack's master key.
        const client = await knex.transaction((tx) =>
          createPushClient(tx, config().masterKey, {
            kind: 'webpush',
            workspaceUuid: null,
            subject: 'mailto:ops@folio.test',
          }),
        );
        const [subscription] = await knex('drive_push_subscriptions')
          .insert({
            workspace_uuid: workspace.uuid,
            user_uuid: user.uuid,
            push_client_uuid: client.uuid,
            device_token: APNS_TOKEN,
            container_identifier: 'ios',
            domain_identifier: workspace.uuid,
          })
          .returning('uuid');

        expect(await migrateLatest(knex)).toContain('023_secrets_at_rest');

        expect(await knex.schema.hasColumn('drive_public_links', 'token')).toBe(false);
        expect(await knex.schema.hasColumn('drive_push_subscriptions', 'device_token')).toBe(false);
        const linkRow = await knex('drive_public_links')
          .where({ token_hash: publicLinkTokenHash(token) })
          .first();
        expect(linkRow.uuid).toBe(link.uuid);
        expect(openPublicLinkToken(config().masterKey, linkRow)).toBe(token);
        expectNoneIn(await rowText(knex, 'drive_public_links', link.uuid), [token]);
        const subscriptionRow = await knex('drive_push_subscriptions')
          .where({ uuid: subscription.uuid })
          .first();
        expect(openDeviceToken(config().masterKey, subscriptionRow)).toBe(APNS_TOKEN);
        expectNoneIn(await rowText(knex, 'drive_push_subscriptions', subscription.uuid), [APNS_TOKEN]);
      } finally {
        await knex.destroy();
        await dropDatabase(serverUrl(), name);
      }
    },
  );

  it(
    'refuses to seal under a master key that opens none of the keys already stored',
    { timeout: 120_000 },
    async () => {
      const { knex, name } = await databaseBefore023();
      try {
        await knex.transaction((tx) =>
          createPushClient(tx, config().masterKey, {
            kind: 'webpush',
            workspaceUuid: null,
            subject: 'mailto:ops@folio.test',
          }),
        );
        await expect(checkMasterKey(knex, randomBytes(32))).rejects.toThrow(
          /opens none of the keys already stored/,
        );
        await expect(checkMasterKey(knex, config().masterKey)).resolves.toBeUndefined();
      } finally {
        await knex.destroy();
        await dropDatabase(serverUrl(), name);
      }
    },
  );
});
