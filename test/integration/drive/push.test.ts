// Drive device push (spec/drive.md § Push subscriptions, § Events; docs/drive-push.md): the subscription routes, the
// `folio push-client` commands, and delivery through the fan-out workflow to local servers that speak APNs and Web Push
// — who gets a push, the coalescing of a burst, cleanup of devices the push service reports gone, retries on 429/5xx.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../domain/accounts/credentials.js';
import { appendChanges } from '../../../domain/drive/change-log.js';
import { createPushClient, type PushClientRow } from '../../../domain/drive/push.js';
import { openDeviceToken } from '../../../domain/drive/sealed-tokens.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { thumbnailWorkflowId } from '../../../workflows/ids.js';
import {
  call,
  grant,
  makeColleague,
  makeFolder,
  makeUser,
  makeWorkspace,
  tokenFor,
  type TestUser,
} from '../../support/api.js';
import { apnsServerPool, type ApnsServer } from '../../support/apns-server.js';
import { settle, waitUntil } from '../../support/cascades.js';
import { CLI_TIMEOUT_MS, folio, folioFails } from '../../support/cli.js';
import { simpleUpload } from '../../support/drive-files.js';
import { webPushServerPool, type WebPushServer } from '../../support/webpush-server.js';
import { logLinesWith } from '../../support/worker.js';

afterAll(closeTemporalClient);

const startApns = apnsServerPool();
const startWebPush = webPushServerPool();

const APNS_TOKEN = 'a1'.repeat(32);
const CONTAINER = 'NSFileProviderWorkingSetContainerItemIdentifier';

async function apnsClient(server: ApnsServer, workspaceUuid: string | null = null): Promise<PushClientRow> {
  return db().transaction((tx) =>
    createPushClient(tx, config().masterKey, {
      kind: 'apns',
      workspaceUuid,
      key: server.keyPem,
      keyId: server.keyId,
      teamId: server.teamId,
      topic: server.topic,
      environment: 'sandbox',
      address: server.address,
    }),
  );
}

async function webPushClient(
  server: WebPushServer,
  workspaceUuid: string | null = null,
): Promise<PushClientRow> {
  return db().transaction((tx) =>
    createPushClient(tx, config().masterKey, {
      kind: 'webpush',
      workspaceUuid,
      subject: 'mailto:ops@folio.test',
      endpointOrigins: [server.origin],
    }),
  );
}

async function subscribe(
  user: TestUser,
  client: { uuid: string },
  deviceToken: string,
  container = CONTAINER,
) {
  const response = await call('POST', '/v1/drive/push_subscriptions', {
    token: user.token,
    json: {
      push_client_uuid: client.uuid,
      device_token: deviceToken,
      container_identifier: container,
      domain_identifier: user.workspaceUuid,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A fan-out round has covered every change the workspace's log holds (a round's sends end before its cursor moves). */
async function pushedThroughHead(workspaceUuid: string): Promise<void> {
  await waitUntil(async () => {
    const head = await db()('drive_changes')
      .where({ workspace_uuid: workspaceUuid })
      .max('seq as seq')
      .first();
    const cursor = await db()('drive_push_cursors')
      .where({ workspace_uuid: workspaceUuid })
      .first('through_seq');
    return BigInt(cursor?.through_seq ?? -1) >= BigInt(head?.seq ?? 0);
  });
}

const subscriptionRow = (uuid: string) => db()('drive_push_subscriptions').where({ uuid }).first();

/**
 * A device the push service reported gone is told on its push activity's one line (docs/observability.md § Logs):
 * once that `activity` line (a run's last) is written, it is the only worker line naming the subscription, it holds
 * `fields`, and none of `secrets`.
 */
async function expectOneUnregisteredLine(
  subscriptionUuid: string,
  fields: Record<string, unknown>,
  secrets: string[],
): Promise<void> {
  const activityLine = (line: Record<string, unknown>) =>
    line.msg === 'activity' && line.activity === 'sendDrivePush';
  await waitUntil(async () => logLinesWith('worker', subscriptionUuid).some(activityLine));
  const lines = logLinesWith('worker', subscriptionUuid);
  expect(lines).toEqual([
    expect.objectContaining({
      msg: 'activity',
      activity: 'sendDrivePush',
      outcome: 'completed',
      subscription_uuid: subscriptionUuid,
      push_outcome: 'unregistered',
      ...fields,
    }),
  ]);
  for (const secret of secrets) expect(JSON.stringify(lines)).not.toContain(secret);
}

describe('POST /v1/drive/push_subscriptions', () => {
  it('registers a device: 201 drive_push_subscription with every field and never the device token', async () => {
    const apns = await startApns();
    const user = await makeUser();
    const client = await apnsClient(apns);
    const response = await call('POST', '/v1/drive/push_subscriptions', {
      token: user.token,
      json: {
        push_client_uuid: client.uuid,
        device_token: APNS_TOKEN,
        container_identifier: CONTAINER,
        domain_identifier: user.workspaceUuid,
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      object: 'drive_push_subscription',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      push_client_uuid: client.uuid,
      container_identifier: CONTAINER,
      domain_identifier: user.workspaceUuid,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      unregistered_at: null,
    });
    expect(JSON.stringify(response.body)).not.toContain(APNS_TOKEN);
  });

  it('updates in place when the same client, container and domain register again (new token, active again)', async () => {
    const apns = await startApns();
    const user = await makeUser();
    const client = await apnsClient(apns);
    const first = await subscribe(user, client, APNS_TOKEN);
    await call('DELETE', `/v1/drive/push_subscriptions/${first.uuid}`, { token: user.token });
    const again = await subscribe(user, client, 'B2'.repeat(32));
    expect(again.uuid).toBe(first.uuid);
    expect(again.created_at).toBe(first.created_at);
    expect(again.unregistered_at).toBeNull();
    expect(new Date(again.updated_at).getTime()).toBeGreaterThan(new Date(first.updated_at).getTime());
    // Stored sealed (docs/drive-push.md § Device tokens at rest), re-sealed under the row's own uuid.
    expect(openDeviceToken(config().masterKey, await subscriptionRow(first.uuid))).toBe('b2'.repeat(32));
    expect(await db()('drive_push_subscriptions').where({ user_uuid: user.uuid })).toHaveLength(1);

    // Another container is another subscription.
    const other = await subscribe(user, client, APNS_TOKEN, 'com.example.other-container');
    expect(other.uuid).not.toBe(first.uuid);
  });

  it("refuses a domain_identifier that is not the token's workspace with 422 invalid, and stores nothing", async () => {
    const apns = await startApns();
    const user = await makeUser();
    const client = await apnsClient(apns);
    const elsewhere = await makeWorkspace();
    for (const domain of [elsewhere.uuid, 'my-domain', '']) {
      const response = await call('POST', '/v1/drive/push_subscriptions', {
        token: user.token,
        json: {
          push_client_uuid: client.uuid,
          device_token: APNS_TOKEN,
          container_identifier: CONTAINER,
          domain_identifier: domain,
        },
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ error: 'invalid', field: 'domain_identifier' });
    }
    expect(await db()('drive_push_subscriptions').where({ user_uuid: user.uuid })).toHaveLength(0);
  });

  it('refuses a device token that is not hex, and an unknown or foreign push client, with 422 invalid naming the field', async () => {
    const apns = await startApns();
    const web = await startWebPush();
    const user = await makeUser();
    const client = await apnsClient(apns);
    const foreign = await apnsClient(apns, (await makeWorkspace()).uuid);
    const webClient = await webPushClient(web);
    const body = (fields: object) => ({
      push_client_uuid: client.uuid,
      device_token: APNS_TOKEN,
      container_identifier: CONTAINER,
      domain_identifier: user.workspaceUuid,
      ...fields,
    });
    const cases: [object, string][] = [
      [{ device_token: 'not-hex!' }, 'device_token'],
      [{ device_token: 'abc' }, 'device_token'],
      [{ device_token: '' }, 'device_token'],
      [{ device_token: 'ab'.repeat(5000) }, 'device_token'],
      [{ push_client_uuid: randomUUID() }, 'push_client_uuid'],
      [{ push_client_uuid: 'nope' }, 'push_client_uuid'],
      [{ push_client_uuid: foreign.uuid }, 'push_client_uuid'],
      [{ container_identifier: '' }, 'container_identifier'],
      // A Web Push token must be the hex of a PushSubscription whose endpoint the client allows.
      [{ push_client_uuid: webClient.uuid, device_token: APNS_TOKEN }, 'device_token'],
      [
        {
          push_client_uuid: webClient.uuid,
          device_token: Buffer.from(
            JSON.stringify({ ...web.subscribe().json, endpoint: 'https://attacker.example/push/x' }),
          ).toString('hex'),
        },
        'device_token',
      ],
    ];
    for (const [fields, field] of cases) {
      const response = await call('POST', '/v1/drive/push_subscriptions', {
        token: user.token,
        json: body(fields),
      });
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(422);
      expect(response.body).toMatchObject({ error: 'invalid', field });
    }
    expect(await db()('drive_push_subscriptions').where({ user_uuid: user.uuid })).toHaveLength(0);
  });

  it('answers 422 missing_required_fields for absent fields and 400 invalid_body for wrong types', async () => {
    const user = await makeUser();
    const missing = await call('POST', '/v1/drive/push_subscriptions', {
      token: user.token,
      json: { device_token: APNS_TOKEN },
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      error: 'missing_required_fields',
      fields: ['push_client_uuid', 'container_identifier', 'domain_identifier'],
    });
    const wrong = await call('POST', '/v1/drive/push_subscriptions', {
      token: user.token,
      json: {
        push_client_uuid: randomUUID(),
        device_token: 1234,
        container_identifier: CONTAINER,
        domain_identifier: user.workspaceUuid,
      },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_body' });
    const notJson = await call('POST', '/v1/drive/push_subscriptions', {
      token: user.token,
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
  });

  it('needs drive.read, a valid token, and a user (not a workspace API key)', async () => {
    const user = await makeUser();
    const json = {
      push_client_uuid: randomUUID(),
      device_token: APNS_TOKEN,
      container_identifier: CONTAINER,
      domain_identifier: user.workspaceUuid,
    };
    const noScope = await call('POST', '/v1/drive/push_subscriptions', {
      token: await tokenFor(user, ['drive.create']),
      json,
    });
    expect(noScope.status).toBe(403);
    expect(noScope.body).toEqual({ error: 'insufficient_scope', scope: 'drive.read' });
    expect((await call('POST', '/v1/drive/push_subscriptions', { json })).status).toBe(401);
    const { api_key } = await issueApiKey(db(), user.workspaceUuid);
    const apiKey = await call('POST', '/v1/drive/push_subscriptions', { token: api_key, json });
    expect(apiKey.status).toBe(403);
    expect(apiKey.body).toMatchObject({ error: 'forbidden' });
    const noScopeDelete = await call('DELETE', `/v1/drive/push_subscriptions/${randomUUID()}`, {
      token: await tokenFor(user, ['drive.delete']),
    });
    expect(noScopeDelete.status).toBe(403);
  });
});

describe('DELETE /v1/drive/push_subscriptions/{uuid}', () => {
  it('answers 200 with unregistered_at set, and the same again: idempotent', async () => {
    const apns = await startApns();
    const user = await makeUser();
    const subscription = await subscribe(user, await apnsClient(apns), APNS_TOKEN);
    const first = await call('DELETE', `/v1/drive/push_subscriptions/${subscription.uuid}`, {
      token: user.token,
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ...subscription,
      updated_at: expect.any(String),
      unregistered_at: expect.any(String),
    });
    const second = await call('DELETE', `/v1/drive/push_subscriptions/${subscription.uuid}`, {
      token: user.token,
    });
    expect(second.status).toBe(200);
    expect(second.body.unregistered_at).toBe(first.body.unregistered_at);
  });

  it("answers 404 not_found for someone else's subscription, an unknown uuid and a malformed one, changing nothing", async () => {
    const apns = await startApns();
    const user = await makeUser();
    const colleague = await makeColleague(user);
    const subscription = await subscribe(user, await apnsClient(apns), APNS_TOKEN);
    for (const [token, uuid] of [
      [colleague.token, subscription.uuid],
      [user.token, randomUUID()],
      [user.token, 'not-a-uuid'],
    ] as const) {
      const response = await call('DELETE', `/v1/drive/push_subscriptions/${uuid}`, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
    expect((await subscriptionRow(subscription.uuid)).unregistered_at).toBeNull();
  });
});

describe('folio push-client', () => {
  it(
    'creates, lists and removes clients; signing keys are stored sealed and never printed',
    async () => {
      const apns = await startApns();
      const workspace = await makeWorkspace();
      const dir = mkdtempSync(join(tmpdir(), 'folio-apns-key-'));
      writeFileSync(join(dir, 'AuthKey.p8'), apns.keyPem);
      const created = await folio(
        'push-client',
        'create',
        '--kind',
        'apns',
        '--workspace',
        workspace.uuid,
        '--key-file',
        join(dir, 'AuthKey.p8'),
        '--key-id',
        apns.keyId,
        '--team-id',
        apns.teamId,
        '--topic',
        apns.topic,
        '--environment',
        'sandbox',
        '--apns-address',
        apns.address,
      );
      expect(created).toEqual({
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: 'apns',
        workspace_uuid: workspace.uuid,
        created_at: expect.any(String),
        key_id: apns.keyId,
        team_id: apns.teamId,
        topic: apns.topic,
        environment: 'sandbox',
        apns_address: apns.address,
      });
      const web = await folio(
        'push-client',
        'create',
        '--kind',
        'webpush',
        '--subject',
        'mailto:ops@folio.test',
      );
      expect(web).toEqual({
        uuid: expect.any(String),
        kind: 'webpush',
        workspace_uuid: null,
        created_at: expect.any(String),
        // Generated: the raw P-256 point web apps pass to pushManager.subscribe as applicationServerKey.
        vapid_public_key: expect.stringMatching(/^[\w-]{87}$/),
        subject: 'mailto:ops@folio.test',
        endpoint_origins: [
          'https://fcm.googleapis.com',
          'https://updates.push.services.mozilla.com',
          'https://web.push.apple.com',
          'https://*.notify.windows.com',
        ],
      });
      const rows = await db()('push_clients').whereIn('uuid', [created.uuid, web.uuid]);
      const pemBody = apns.keyPem.split('\n')[1]!;
      for (const row of rows)
        expect(
          Buffer.concat([row.credential_sealed, Buffer.from(JSON.stringify(row.settings))]).toString(
            'latin1',
          ),
        ).not.toContain(pemBody);

      const listed = await folio('push-client', 'list', '--workspace', workspace.uuid);
      expect(listed.data.map((client: { uuid: string }) => client.uuid)).toEqual(
        expect.arrayContaining([created.uuid, web.uuid]),
      );
      expect(JSON.stringify(listed)).not.toContain(pemBody);

      const removed = await folio('push-client', 'remove', created.uuid);
      expect(removed).toEqual({ uuid: created.uuid, subscriptions_removed: 0, removed: true });
      expect(await db()('push_clients').where({ uuid: created.uuid }).first()).toBeUndefined();
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'refuses bad options with a message and creates nothing',
    async () => {
      const before = (await db()('push_clients').count('* as n').first())!.n;
      expect(await folioFails('push-client', 'create', '--kind', 'fcm')).toMatch(/--kind/);
      expect(await folioFails('push-client', 'create', '--kind', 'apns', '--key-id', 'ABC123DEFG')).toMatch(
        /--key-file/,
      );
      expect(await folioFails('push-client', 'create', '--kind', 'webpush', '--subject', 'ops')).toMatch(
        /--subject/,
      );
      expect(
        await folioFails(
          'push-client',
          'create',
          '--kind',
          'webpush',
          '--subject',
          'mailto:a@b.c',
          '--endpoint-origin',
          'http://push.example',
        ),
      ).toMatch(/--endpoint-origin/);
      expect(await folioFails('push-client', 'remove', randomUUID())).toMatch(/no push client/);
      expect((await db()('push_clients').count('* as n').first())!.n).toBe(before);
    },
    CLI_TIMEOUT_MS,
  );
});

// Each waits for real fan-out rounds (a 2 s window, then sends with backoff): slower than a request on a busy machine.
describe('push delivery', { timeout: 180_000 }, () => {
  it('pushes an APNs File Provider notification: ES256 provider token, topic, push type, and no names in the payload', async () => {
    const apns = await startApns();
    const user = await makeUser();
    await subscribe(user, await apnsClient(apns), APNS_TOKEN);
    await makeFolder(user, 'Quarterly secrets');
    const [request] = await apns.waitFor(1);
    expect(request!.jwtProblem).toBeNull();
    expect(request!.deviceToken).toBe(APNS_TOKEN);
    expect(request!.headers['apns-topic']).toBe(apns.topic);
    expect(request!.headers['apns-push-type']).toBe('fileprovider');
    expect(request!.payload).toEqual({ 'container-identifier': CONTAINER, domain: user.workspaceUuid });
    await pushedThroughHead(user.workspaceUuid);
    expect(apns.requests).toHaveLength(1);
    expect(
      (await db()('drive_push_subscriptions').where({ user_uuid: user.uuid }).first()).last_pushed_at,
    ).not.toBeNull();
  });

  it("pushes a Web Push message: VAPID for the push service's origin, aes128gcm the device decrypts, TTL and topic", async () => {
    const web = await startWebPush();
    const user = await makeUser();
    const client = await webPushClient(web);
    const browser = web.subscribe();
    await subscribe(user, client, browser.deviceToken, 'web-app');
    await makeFolder(user, 'Payroll');
    const [request] = await web.waitFor(1);
    expect(request!.vapidProblem).toBeNull();
    expect(request!.vapidKey).toBe((client.settings as { public_key: string }).public_key);
    expect(request!.claims).toMatchObject({ aud: web.origin, sub: 'mailto:ops@folio.test' });
    expect(request!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request!.headers.ttl)).toBeGreaterThan(0);
    expect(request!.headers.topic).toBe('foliodrivechanges');
    expect(request!.payload).toEqual({
      type: 'drive.changes',
      container_identifier: 'web-app',
      domain_identifier: user.workspaceUuid,
    });
  });

  it('pushes only subscriptions whose user can see a changed item, and after a share the grantee too', async () => {
    const apns = await startApns();
    const owner = await makeUser();
    const outsider = await makeColleague(owner);
    const client = await apnsClient(apns);
    const ownerToken = 'c3'.repeat(32);
    const outsiderToken = 'd4'.repeat(32);
    await subscribe(owner, client, ownerToken);
    await subscribe(outsider, client, outsiderToken);

    const folder = await makeFolder(owner, 'Private');
    await pushedThroughHead(owner.workspaceUuid);
    expect(apns.requests.map((request) => request.deviceToken)).toEqual([ownerToken]);

    // Shared with the outsider: the grant is a change they can see, and so is what happens inside the folder next.
    await grant({ folder }, { user: outsider }, 'viewer');
    await makeFolder(owner, 'Inside', folder);
    await pushedThroughHead(owner.workspaceUuid);
    expect(
      apns.requests.filter((request) => request.deviceToken === outsiderToken).length,
    ).toBeGreaterThanOrEqual(1);

    // Deleted: the outsider could see it, so the delete reaches them too.
    const seen = apns.requests.length;
    const deleted = await call('DELETE', `/v1/drive/folders/${folder}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    await settle(folder);
    await pushedThroughHead(owner.workspaceUuid);
    expect(new Set(apns.requests.slice(seen).map((request) => request.deviceToken))).toEqual(
      new Set([ownerToken, outsiderToken]),
    );
  });

  it('coalesces a burst of 1,000 changes into a handful of pushes per device', async () => {
    const apns = await startApns();
    const user = await makeUser();
    const folder = await makeFolder(user, 'Burst');
    // 1,000 files in one transaction, before anyone subscribes: the burst below is the folder's trash cascade.
    await db().transaction(async (tx) => {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        workspace_uuid: user.workspaceUuid,
        owner_uuid: user.uuid,
        kind: 'file',
        parent_uuid: folder,
        name: `f${i}.txt`,
        content_type: 'text/plain',
        file_size_bytes: 1,
        upload_status: 'completed',
        depth: 1,
      }));
      await appendChanges(tx, 'create', await tx('drive_items').insert(rows).returning('*'));
    });
    await subscribe(user, await apnsClient(apns), APNS_TOKEN);

    // The first push is held until the whole burst has committed: the rest must then go out as one more round, not
    // one per change or per cascade batch.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    apns.answer((index) => (index === 1 ? { status: 200, hold: held } : { status: 200 }));
    const trashed = await call('POST', `/v1/drive/folders/${folder}/trash`, { token: user.token });
    expect(trashed.status).toBe(200);
    await settle(folder);
    release();
    await pushedThroughHead(user.workspaceUuid);
    const changes = (await db()('drive_changes')
      .where({ workspace_uuid: user.workspaceUuid })
      .count('* as n')
      .first())!.n;
    expect(Number(changes)).toBeGreaterThan(2000);
    expect(apns.requests.length).toBeGreaterThanOrEqual(1);
    expect(apns.requests.length).toBeLessThanOrEqual(3);
    expect(new Set(apns.requests.map((request) => request.deviceToken))).toEqual(new Set([APNS_TOKEN]));
  });

  it.each([
    [410, 'Unregistered'],
    [400, 'BadDeviceToken'],
  ])('unregisters an APNs device answered %i %s, and pushes it no more', async (status, reason) => {
    const apns = await startApns();
    const user = await makeUser();
    const client = await apnsClient(apns);
    // A second device that stays registered shows that later rounds run and leave the gone one out.
    const healthy = 'f6'.repeat(32);
    apns.answer((_, request) => (request.deviceToken === APNS_TOKEN ? { status, reason } : { status: 200 }));
    const subscription = await subscribe(user, client, APNS_TOKEN);
    await subscribe(user, client, healthy, 'another-container');
    await makeFolder(user, 'One');
    await pushedThroughHead(user.workspaceUuid);
    const row = await subscriptionRow(subscription.uuid);
    expect(row.unregistered_at).not.toBeNull();
    expect(row.unregistered_reason).toBe(reason);
    // One line, the activity's, with ids and the reason; never the token.
    await expectOneUnregisteredLine(
      subscription.uuid,
      { push_client_uuid: client.uuid, workspace_uuid: user.workspaceUuid, kind: 'apns', reason },
      [APNS_TOKEN],
    );
    await makeFolder(user, 'Two');
    await pushedThroughHead(user.workspaceUuid);
    expect(apns.requests.filter((request) => request.deviceToken === APNS_TOKEN)).toHaveLength(1);
    expect(apns.requests.filter((request) => request.deviceToken === healthy).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it.each([404, 410])('unregisters a Web Push subscription answered %i', async (status) => {
    const web = await startWebPush();
    const user = await makeUser();
    web.answer(() => ({ status }));
    const browser = web.subscribe();
    const subscription = await subscribe(user, await webPushClient(web), browser.deviceToken);
    await makeFolder(user, 'One');
    await pushedThroughHead(user.workspaceUuid);
    expect((await subscriptionRow(subscription.uuid)).unregistered_at).not.toBeNull();
    // One line, the activity's, naming the answer; never the endpoint (its path is the device's capability) or keys.
    await expectOneUnregisteredLine(
      subscription.uuid,
      { workspace_uuid: user.workspaceUuid, kind: 'webpush', reason: `http ${status}` },
      [browser.deviceToken, browser.id, browser.json.keys.auth, browser.json.keys.p256dh],
    );
    const deleted = await call('DELETE', `/v1/drive/push_subscriptions/${subscription.uuid}`, {
      token: user.token,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.unregistered_at).not.toBeNull();
  });

  it('backs off and retries an APNs 429 and 503, then delivers once', async () => {
    const apns = await startApns();
    const user = await makeUser();
    apns.answer((index) =>
      index === 1
        ? { status: 429, reason: 'TooManyRequests' }
        : index === 2
          ? { status: 503, reason: 'ServiceUnavailable' }
          : { status: 200 },
    );
    const subscription = await subscribe(user, await apnsClient(apns), APNS_TOKEN);
    await makeFolder(user, 'Retried');
    await pushedThroughHead(user.workspaceUuid);
    expect(apns.requests).toHaveLength(3);
    expect((await subscriptionRow(subscription.uuid)).unregistered_at).toBeNull();
  });

  it('backs off and retries a Web Push 429 and 500, then delivers once', async () => {
    const web = await startWebPush();
    const user = await makeUser();
    web.answer((index) => ({ status: index === 1 ? 429 : index === 2 ? 500 : 201 }));
    const subscription = await subscribe(user, await webPushClient(web), web.subscribe().deviceToken);
    await makeFolder(user, 'Retried');
    await pushedThroughHead(user.workspaceUuid);
    expect(web.requests).toHaveLength(3);
    expect((await subscriptionRow(subscription.uuid)).unregistered_at).toBeNull();
  });

  it('stops pushing a subscription once it is deleted', async () => {
    const apns = await startApns();
    const user = await makeUser();
    const subscription = await subscribe(user, await apnsClient(apns), APNS_TOKEN);
    await makeFolder(user, 'Before');
    await pushedThroughHead(user.workspaceUuid);
    expect(apns.requests).toHaveLength(1);
    await call('DELETE', `/v1/drive/push_subscriptions/${subscription.uuid}`, { token: user.token });
    // A second, still active device shows the round ran.
    const other = 'e5'.repeat(32);
    await subscribe(user, await apnsClient(apns), other, 'other-container');
    await makeFolder(user, 'After');
    await pushedThroughHead(user.workspaceUuid);
    expect(apns.requests.map((request) => request.deviceToken)).toEqual([APNS_TOKEN, other]);
  });

  it("starts a simple upload's fan-out as the upload commits, not at the next outbox sweep", async () => {
    // The upload commits before its flush, and reads the fan-out its change recorded with the flush, after the commit
    // (workflows/outbox.ts runInTransaction).
    const apns = await startApns();
    const user = await makeUser();
    await subscribe(user, await apnsClient(apns), APNS_TOKEN);
    await simpleUpload(user, 'pushed.txt', Buffer.from('a device hears of this'));
    // The sweep starts only rows older than 30 s: within 20 s of the answer, a row gone was started by the upload.
    await waitUntil(
      async () =>
        (
          await db()('workflow_outbox').whereRaw(
            `request->>'type' = 'drivePush' and request->>'workspaceUuid' = ?`,
            [user.workspaceUuid],
          )
        ).length === 0,
      20_000,
    );
    await pushedThroughHead(user.workspaceUuid);
    expect(apns.requests.length).toBeGreaterThanOrEqual(1);
  });

  it('announces has_preview as soon as the thumbnail is stored, not at the next outbox sweep', async () => {
    const apns = await startApns();
    const user = await makeUser();
    await subscribe(user, await apnsClient(apns), APNS_TOKEN);
    const file = await simpleUpload(
      user,
      'announced.png',
      readFileSync(fileURLToPath(new URL('../../fixtures/images/alpha.png', import.meta.url))),
      {
        content_type: 'image/png',
      },
    );
    const render = (await temporalClient()).workflow.getHandle(thumbnailWorkflowId(file.uuid, file.uuid));
    expect(await render.result()).toEqual({ outcome: 'ready' });
    // The sweep starts only rows older than 30 s: a fan-out still waiting here would reach the device a minute late.
    const waiting = await db()('workflow_outbox').whereRaw(
      `request->>'type' = 'drivePush' and request->>'workspaceUuid' = ?`,
      [user.workspaceUuid],
    );
    expect(waiting).toEqual([]);
    await pushedThroughHead(user.workspaceUuid);
    expect(apns.requests.length).toBeGreaterThanOrEqual(1);
  });
});
