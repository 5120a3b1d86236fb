// Master-key rotation end to end (docs/operations.md § Master-key rotation), on a stack of its own so the suite's
// processes keep their key: files (simple and chunked), a webhook signing secret, a push client's signing key, a public
// link's token and a device token are stored under key 0; the processes restart with key 1 (key 0 kept as previous),
// `folio master-key rotate` rewraps everything, then they restart with key 1 alone. Every file still downloads to its
// bytes, the secret, the push key and the device token still open, the link still serves and shows its token, and
// nothing is left under key 0.
import { execFile } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { createECDH, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEphemeralStack, type EphemeralStack } from '../../../deploy/local/ephemeral-stack.js';
import { startApi, startWorker, waitForApi } from '../../../deploy/local/folio-processes.js';
import { stopPid } from '../../../deploy/local/services.js';
import { issueAccessToken } from '../../../domain/accounts/credentials.js';
import { SCOPES } from '../../../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../../../domain/accounts/workspaces.js';
import type { MasterKey } from '../../../domain/drive/crypto.js';
import {
  createPushClient,
  pushClientCredential,
  registerPushSubscription,
  type PushClientRow,
  type PushSubscriptionRow,
} from '../../../domain/drive/push.js';
import { openDeviceToken, openPublicLinkToken } from '../../../domain/drive/sealed-tokens.js';
import { createPublicLink } from '../../../domain/drive/sharing.js';
import { countWrappedKeys } from '../../../domain/master-key-rotation.js';
import { createDestination } from '../../../domain/webhooks/destinations.js';
import { signingSecrets, type SecretRow } from '../../../domain/webhooks/secrets.js';
import { targetPolicyFrom } from '../../../domain/webhooks/target.js';
import { createDb } from '../../../platform/database.js';
import { downloadChunked, uploadChunked } from '../../support/folio-client.js';
import { readFileSync } from 'node:fs';

const run = promisify(execFile);
const keyRing = (id: number, key: Buffer, previous: [number, Buffer][] = []): MasterKey =>
  Object.assign(Buffer.from(key), { keyId: id, previousKeys: new Map(previous) });

let stack: EphemeralStack;
let knex: ReturnType<typeof createDb>;

beforeAll(async () => {
  stack = await startEphemeralStack({ label: 'rotation', env: { FOLIO_SMTP_PORT: '0' } });
  knex = createDb(stack.databaseUrl);
}, 300_000);

afterAll(async () => {
  await knex?.destroy();
  await stack?.stop();
}, 120_000);

/** Stops the stack's worker and API and starts them again with the stack's settings plus `keys`. */
async function restartWith(keys: Record<string, string | undefined>) {
  for (const name of ['worker', 'api'])
    await stopPid(Number(readFileSync(join(stack.root, `${name}.pid`), 'utf8').split('\n')[0]));
  const env: NodeJS.ProcessEnv = { ...process.env, ...stack.env, ...keys };
  for (const [name, value] of Object.entries(keys)) if (value === undefined) delete env[name];
  startWorker(env, join(stack.root, 'worker.log'), stack.root).child.unref();
  const api = startApi(env, join(stack.root, 'api.log'), stack.root);
  api.child.unref();
  await waitForApi(stack.apiUrl, api);
  return env;
}

async function folio(env: NodeJS.ProcessEnv, ...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'cli/folio.ts', ...args, '--json'], {
    env,
  });
  return JSON.parse(stdout.trim());
}

async function simpleDownload(token: string, uuid: string): Promise<Buffer> {
  const response = await fetch(`${stack.apiUrl}/v1/drive/files/${uuid}/download`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return Buffer.from(((await response.json()) as { data: string }).data, 'base64');
}

describe('master-key rotation', () => {
  it(
    'rewraps every stored key under the new master key; with the old key gone everything still opens',
    { timeout: 900_000 },
    async () => {
      const oldKey = Buffer.from(stack.env.FOLIO_MASTER_KEY!, 'base64');
      const newKey = randomBytes(32);

      // Under key 0: a simple and a chunked file, a webhook destination's secret, a push client's signing key.
      const workspace = await createWorkspace(knex, { name: 'rotation', storageLimitBytes: 10 * 1024 ** 3 });
      const user = await createUser(knex, { workspaceUuid: workspace.uuid, email: 'rotation@example.test' });
      const { access_token: token } = await issueAccessToken(knex, {
        workspaceUuid: workspace.uuid,
        userUuid: user.uuid,
        scopes: [...SCOPES],
        expiresInMs: 3_600_000,
      });
      const small = randomBytes(3000);
      const created = await fetch(`${stack.apiUrl}/v1/drive/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'small.bin',
          content_type: 'application/octet-stream',
          data: small.toString('base64'),
        }),
      });
      expect(created.status).toBe(201);
      const smallFile = ((await created.json()) as { uuid: string }).uuid;
      const large = randomBytes(9 * 1024 * 1024 + 5); // two chunks
      const largeFile = (
        await uploadChunked(
          { token, baseUrl: stack.apiUrl },
          { name: 'large.bin', contentType: 'application/octet-stream', size: large.length, source: large },
        )
      ).uuid;
      const { destination, signingSecret } = await knex.transaction((tx) =>
        createDestination(
          tx,
          {
            masterKey: oldKey,
            policy: targetPolicyFrom({ allowedPrivateCidrs: ['127.0.0.0/8'], dnsServers: [] }),
          },
          { workspaceUuid: workspace.uuid, url: 'https://127.0.0.1/hook' },
        ),
      );
      // Its endpoints may only be on this machine: nothing here is ever pushed (the subscriber's workspace never changes).
      const pushClient = await knex.transaction((tx) =>
        createPushClient(tx, oldKey, {
          kind: 'webpush',
          workspaceUuid: null,
          subject: 'mailto:ops@folio.test',
          endpointOrigins: ['https://127.0.0.1:9'],
        }),
      );
      const pushKey = pushClientCredential(oldKey, pushClient);
      const link = await knex.transaction((tx) =>
        createPublicLink(
          tx,
          { itemUuid: smallFile, kind: 'file' },
          { publicUrl: stack.env.FOLIO_PUBLIC_URL!, masterKey: oldKey },
        ),
      );
      const browser = createECDH('prime256v1');
      browser.generateKeys();
      const deviceToken = Buffer.from(
        JSON.stringify({
          endpoint: 'https://127.0.0.1:9/push/rotation',
          keys: {
            p256dh: browser.getPublicKey().toString('base64url'),
            auth: randomBytes(16).toString('base64url'),
          },
        }),
      ).toString('hex');
      const subscriberSpace = await createWorkspace(knex, {
        name: 'rotation devices',
        storageLimitBytes: 1024,
      });
      const subscriber = await createUser(knex, {
        workspaceUuid: subscriberSpace.uuid,
        email: 'devices@example.test',
      });
      const subscription = await knex.transaction((tx) =>
        registerPushSubscription(
          tx,
          oldKey,
          { userUuid: subscriber.uuid, workspaceUuid: subscriberSpace.uuid },
          {
            pushClientUuid: pushClient.uuid,
            deviceToken,
            containerIdentifier: 'rotation',
            domainIdentifier: subscriberSpace.uuid,
          },
        ),
      );

      // Step 1: every process gets key 1 to wrap with, key 0 to unwrap with; then the rotation runs.
      const rotating = await restartWith({
        FOLIO_MASTER_KEY: newKey.toString('base64'),
        FOLIO_MASTER_KEY_ID: '1',
        FOLIO_PREVIOUS_MASTER_KEYS: `0:${oldKey.toString('base64')}`,
      });
      expect(await simpleDownload(token, smallFile)).toEqual(small);
      const before = await folio(rotating, 'master-key', 'status');
      // Two file versions, one signing secret, one push key, one link token, one device token: all under key 0.
      expect(before.remaining_under_other_keys).toBe(6);
      expect(await folio(rotating, 'master-key', 'rotate', '--page-size', '2')).toEqual({
        workflow_id: 'master-key-rotation:1',
        key_id: 1,
        started: true,
      });

      // Waited for on Temporal itself (each CLI run compiles the CLI: seconds); then the CLI reports it.
      const connection = await Connection.connect({ address: stack.env.FOLIO_TEMPORAL_ADDRESS! });
      try {
        await new Client({ connection }).workflow.getHandle('master-key-rotation:1').result();
      } finally {
        await connection.close();
      }
      const status = await folio(rotating, 'master-key', 'status');
      expect(status.workflow.status).toBe('COMPLETED');
      expect(status.remaining_under_other_keys).toBe(0);
      const progress = Object.fromEntries(
        (status.workflow.progress as { table: string; rewrapped: number; done: boolean }[]).map((table) => [
          table.table,
          table,
        ]),
      );
      expect(progress.drive_file_versions).toMatchObject({ rewrapped: 2, done: true });
      expect(progress.webhook_destinations).toMatchObject({ rewrapped: 1, done: true });
      expect(progress.push_clients).toMatchObject({ rewrapped: 1, done: true });
      expect(progress.drive_public_links).toMatchObject({ rewrapped: 1, done: true });
      expect(progress.drive_push_subscriptions).toMatchObject({ rewrapped: 1, done: true });
      // Nothing left under any other key, read from the stored bytes.
      for (const count of await countWrappedKeys(knex))
        expect(Object.keys(count.byKeyId).filter((id) => id !== '1')).toEqual([]);

      // Step 2: key 0 gone from every process.
      await restartWith({
        FOLIO_MASTER_KEY: newKey.toString('base64'),
        FOLIO_MASTER_KEY_ID: '1',
        FOLIO_PREVIOUS_MASTER_KEYS: undefined,
      });
      expect(await simpleDownload(token, smallFile)).toEqual(small);
      expect(await downloadChunked({ token, baseUrl: stack.apiUrl }, largeFile)).toEqual(large);
      const onlyNew = keyRing(1, newKey);
      const row = (await knex('webhook_destinations').where({ uuid: destination.uuid }).first()) as SecretRow;
      expect(signingSecrets(onlyNew, row, new Date())).toEqual([signingSecret]);
      const pushRow = (await knex('push_clients').where({ uuid: pushClient.uuid }).first()) as PushClientRow;
      expect(pushClientCredential(onlyNew, pushRow)).toBe(pushKey);
      const subscriptionRow = (await knex('drive_push_subscriptions')
        .where({ uuid: subscription.uuid })
        .first()) as PushSubscriptionRow;
      expect(openDeviceToken(onlyNew, subscriptionRow)).toBe(deviceToken);
      const linkRow = await knex('drive_public_links').where({ uuid: link.uuid }).first();
      expect(openPublicLinkToken(onlyNew, linkRow)).toBe(link.token);
      // The API, with key 1 alone, still shows the link's token and url, and the link still serves.
      const sharing = await fetch(`${stack.apiUrl}/v1/drive/files/${smallFile}/sharing`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(sharing.status).toBe(200);
      expect(
        ((await sharing.json()) as { public_link: { token: string; url: string } }).public_link,
      ).toMatchObject({ token: link.token, url: link.url });
      const served = await fetch(link.url);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(small);
      // And the old key opens none of it any more.
      expect(() => signingSecrets(oldKey, row, new Date())).toThrow(
        /master key id 1, which is not configured/,
      );
      expect(() => openDeviceToken(oldKey, subscriptionRow)).toThrow(
        /master key id 1, which is not configured/,
      );
    },
  );
});
