// Destinations through the admin API (docs/webhooks.md § Admin API): workspace admins only, URL rules at save, the
// signing secret and its rotation, pause / resume, auto-disable after FOLIO_WEBHOOK_DISABLE_AFTER (2 here) exhausted
// events, enable without replay, and the delivery history the admin app charts.
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../domain/accounts/credentials.js';
import { parseSignatureHeader, verifySignature } from '../../../domain/webhooks/signature.js';
import { db } from '../../../platform/database.js';
import { call, makeUser, makeWorkspace } from '../../support/api.js';
import {
  attemptsOf,
  deliver,
  destinationRow,
  emlMessage,
  makeAdmin,
  makeMailbox,
} from '../../support/mail.js';
import { deliveryEnded, eventIdOf, expectNeverDelivered } from '../../support/sentinels.js';
import { receiverPool, until } from '../../support/webhook-receivers.js';

const receiver = receiverPool();

async function adminWithMailbox() {
  const workspace = await makeWorkspace();
  const admin = await makeAdmin(workspace);
  const mailbox = await makeMailbox(workspace.uuid);
  return { workspace, admin, mailbox };
}

async function create(admin: { token: string }, json: object) {
  const response = await call('POST', '/v1/admin/webhooks', { token: admin.token, json });
  if (response.status !== 201)
    throw new Error(`create answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

describe('admin API access', () => {
  it('is for workspace admins: a member gets 403, an API key 403, a token without webhooks.manage 403', async () => {
    const { workspace, admin } = await adminWithMailbox();
    const member = await makeUser({ workspace });
    const { api_key } = await issueApiKey(db(), workspace.uuid);
    const narrowAdmin = await makeAdmin(workspace, ['email.read']);
    const member403 = await call('GET', '/v1/admin/webhooks', { token: member.token });
    expect(member403.status).toBe(403);
    expect(member403.body).toEqual({ error: 'forbidden', error_description: expect.any(String) });
    expect((await call('GET', '/v1/admin/webhooks', { token: api_key })).body).toMatchObject({
      error: 'forbidden',
    });
    expect((await call('GET', '/v1/admin/webhooks', { token: narrowAdmin.token })).body).toMatchObject({
      error: 'insufficient_scope',
    });
    expect((await call('GET', '/v1/admin/webhooks', { token: admin.token })).body).toEqual({
      object: 'list',
      data: [],
    });
  });

  it("answers 404 for another workspace's destination", async () => {
    const target = await receiver('127.0.0.13');
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    const stranger = await makeAdmin();
    expect((await call('GET', `/v1/admin/webhooks/${created.uuid}`, { token: stranger.token })).status).toBe(
      404,
    );
    expect(
      (await call('GET', `/v1/admin/webhooks/${created.uuid}/secret`, { token: stranger.token })).status,
    ).toBe(404);
    expect(
      (await call('POST', `/v1/admin/webhooks/${created.uuid}/pause`, { token: stranger.token })).status,
    ).toBe(404);
  });
});

describe('destinations', () => {
  it('creates an active destination with a 32-byte secret shown once, stored encrypted, revealable to admins', async () => {
    const target = await receiver('127.0.0.14');
    const { workspace, admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, {
      url: target.url(),
      description: 'CRM sync',
      mailboxes: [mailbox.uuid],
    });
    expect(created).toEqual({
      object: 'webhook_destination',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      workspace_uuid: workspace.uuid,
      url: 'https://127.0.0.14/hooks',
      description: 'CRM sync',
      mailboxes: [mailbox.uuid],
      status: 'active',
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      previous_secret_expires_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    expect(Buffer.from(created.signing_secret.slice(6), 'base64url')).toHaveLength(32);
    const shown = await call('GET', `/v1/admin/webhooks/${created.uuid}`, { token: admin.token });
    expect(shown.body).not.toHaveProperty('signing_secret');
    const secret = await call('GET', `/v1/admin/webhooks/${created.uuid}/secret`, { token: admin.token });
    expect(secret.headers.get('cache-control')).toBe('no-store');
    expect(secret.body).toEqual({
      object: 'webhook_signing_secret',
      signing_secret: created.signing_secret,
      previous_signing_secret: null,
      previous_secret_expires_at: null,
    });
    const row = await destinationRow(created.uuid);
    expect(JSON.stringify(row)).not.toContain(created.signing_secret.slice(6));
    expect(
      Buffer.from(row.secret_wrapped).includes(Buffer.from(created.signing_secret.slice(6), 'base64url')),
    ).toBe(false);
  });

  it('refuses URLs that break the rules at save with 422 invalid_url, and mailboxes of another workspace', async () => {
    const { admin, mailbox } = await adminWithMailbox();
    for (const url of [
      'http://127.0.0.15/hooks',
      'https://127.0.0.15:8443/hooks',
      'https://user:pw@127.0.0.15/',
      'not a url',
      'https://localhost/hooks',
      'https://unknown-name.folio.test/',
    ]) {
      const response = await call('POST', '/v1/admin/webhooks', {
        token: admin.token,
        json: { url, mailboxes: [mailbox.uuid] },
      });
      expect(response.status, url).toBe(422);
      expect(response.body, url).toMatchObject({ error: 'invalid_url', reason: expect.any(String) });
    }
    const foreign = await makeMailbox((await makeWorkspace()).uuid);
    const response = await call('POST', '/v1/admin/webhooks', {
      token: admin.token,
      json: { url: 'https://127.0.0.15/hooks', mailboxes: [foreign.uuid] },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ error: 'unknown_mailboxes', mailboxes: [foreign.uuid] });
    expect((await call('GET', '/v1/admin/webhooks', { token: admin.token })).body.data).toEqual([]);
  });

  it('updates description and mailboxes; a destination with no mailbox receives nothing', async () => {
    const target = await receiver('127.0.0.16');
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    const updated = await call('PATCH', `/v1/admin/webhooks/${created.uuid}`, {
      token: admin.token,
      json: { description: 'none', mailboxes: [] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: 'none', mailboxes: [] });
    const result = await deliver(mailbox.uuid, emlMessage());
    // Sentinel: the event is recorded and its deliveries started; none to this destination was, or is left to start.
    await expectNeverDelivered(created.uuid, eventIdOf(result));
    expect(target.requests).toHaveLength(0);
  });

  it('signs with both secrets for the overlap after a rotation, and either verifies', async () => {
    const target = await receiver('127.0.0.17');
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    const before = Date.now();
    const rotated = await call('POST', `/v1/admin/webhooks/${created.uuid}/rotate-secret`, {
      token: admin.token,
    });
    const after = Date.now();
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).not.toBe(created.signing_secret);
    // 24 hours after the rotation, which happened between the request and its answer.
    const rotatedAt = Date.parse(rotated.body.previous_secret_expires_at) - 24 * 3_600_000;
    expect(rotatedAt).toBeGreaterThanOrEqual(before);
    expect(rotatedAt).toBeLessThanOrEqual(after);
    const revealed = await call('GET', `/v1/admin/webhooks/${created.uuid}/secret`, { token: admin.token });
    expect(revealed.body).toMatchObject({
      signing_secret: rotated.body.signing_secret,
      previous_signing_secret: created.signing_secret,
    });

    await deliver(mailbox.uuid, emlMessage());
    const [request] = await target.waitFor(1);
    const header = request!.headers['x-service-signature']!;
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
    const now = { nowSeconds: Date.now() / 1000 };
    expect(verifySignature(header, request!.raw, rotated.body.signing_secret, now)).toBe(true);
    expect(verifySignature(header, request!.raw, created.signing_secret, now)).toBe(true);
  });
});

describe('pause, disable and enable', () => {
  it('queues nothing while paused and replays nothing on resume', async () => {
    const target = await receiver('127.0.0.18');
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    const paused = await call('POST', `/v1/admin/webhooks/${created.uuid}/pause`, { token: admin.token });
    expect(paused.body).toMatchObject({ status: 'paused' });
    const whilePaused = await deliver(mailbox.uuid, emlMessage());
    expect(await db()('webhook_deliveries').where({ destination_uuid: created.uuid })).toEqual([]);
    const resumed = await call('POST', `/v1/admin/webhooks/${created.uuid}/resume`, { token: admin.token });
    expect(resumed.body).toMatchObject({ status: 'active' });
    // The resume has committed and started what it asked for: a replay would exist by now.
    await expectNeverDelivered(created.uuid, eventIdOf(whilePaused));
    const after = await deliver(mailbox.uuid, emlMessage());
    const [request] = await target.waitFor(1);
    // Sentinel: the one delivery this destination has is closed, so nothing more can reach the receiver.
    expect(
      (await db()('webhook_deliveries').where({ destination_uuid: created.uuid })).map(
        (row) => `whevt_${row.event_uuid}`,
      ),
    ).toEqual([eventIdOf(after)]);
    await deliveryEnded(created.uuid, eventIdOf(after));
    expect(target.requests).toHaveLength(1);
    expect(JSON.parse(request!.raw.toString()).id).toBe(after.outcome === 'stored' && after.event_id);
  });

  it('stops a delivery in flight before its next attempt when the destination is paused', async () => {
    const target = await receiver('127.0.0.19');
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    // The receiver holds attempt 1 until the pause has committed, so the pause lands between attempts 1 and 2.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    target.answer(() => ({ status: 500, hold: gate }));
    const result = await deliver(mailbox.uuid, emlMessage());
    await target.waitFor(1);
    expect(
      (await call('POST', `/v1/admin/webhooks/${created.uuid}/pause`, { token: admin.token })).body,
    ).toMatchObject({ status: 'paused' });
    release();
    await until(
      'delivery stopped',
      async () =>
        (await db()('webhook_deliveries').where({ destination_uuid: created.uuid }).first()).state ===
        'stopped',
    );
    // Sentinel: the workflow has closed, having stopped at attempt 2 without sending it.
    expect(await deliveryEnded(created.uuid, eventIdOf(result))).toEqual({ outcome: 'stopped', attempts: 2 });
    expect(target.requests).toHaveLength(1);
    expect((await attemptsOf(created.uuid)).map((attempt) => attempt.attempt)).toEqual([1]);
  });

  it('disables after FOLIO_WEBHOOK_DISABLE_AFTER exhausted events in a row, and enabling replays nothing', async () => {
    const target = await receiver('127.0.0.20');
    target.answer(() => ({ status: 500 }));
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    const exhausted = await Promise.all([
      deliver(mailbox.uuid, emlMessage()),
      deliver(mailbox.uuid, emlMessage()),
    ]);
    await target.waitFor(10, 40_000);
    const disabled = await until('disabled', async () => {
      const shown = await call('GET', `/v1/admin/webhooks/${created.uuid}`, { token: admin.token });
      return shown.body.status === 'disabled' && shown.body;
    });
    expect(disabled).toMatchObject({
      consecutive_failures: 2,
      disabled_reason: '2 consecutive events failed all 5 attempts',
      disabled_at: expect.any(String),
    });

    for (const result of exhausted)
      expect(await deliveryEnded(created.uuid, eventIdOf(result))).toEqual({
        outcome: 'failed',
        attempts: 5,
      });

    const whileDisabled = await deliver(mailbox.uuid, emlMessage());
    await expectNeverDelivered(created.uuid, eventIdOf(whileDisabled));
    expect(target.requests).toHaveLength(10);

    target.answer(() => ({ status: 200 }));
    const enabled = await call('POST', `/v1/admin/webhooks/${created.uuid}/enable`, { token: admin.token });
    expect(enabled.body).toMatchObject({
      status: 'active',
      consecutive_failures: 0,
      disabled_reason: null,
      disabled_at: null,
    });
    // Sentinel: the enable has committed and started what it asked for. Nothing was: the event of the disabled time
    // has no delivery, and the two exhausted ones stay finished, no row added (a delivery sends only from its row).
    await expectNeverDelivered(created.uuid, eventIdOf(whileDisabled));
    expect(
      (await db()('webhook_deliveries').where({ destination_uuid: created.uuid }))
        .map((row) => [`whevt_${row.event_uuid}`, row.round, row.state])
        .sort(),
    ).toEqual(exhausted.map((result) => [eventIdOf(result), 0, 'failed']).sort());
    expect(target.requests).toHaveLength(10);
    const fresh = await deliver(mailbox.uuid, emlMessage());
    const requests = await target.waitFor(11);
    expect(JSON.parse(requests[10]!.raw.toString()).id).toBe(fresh.outcome === 'stored' && fresh.event_id);
    await deliveryEnded(created.uuid, eventIdOf(fresh));
    expect(target.requests).toHaveLength(11);
  });

  it('resets the counter on any success, so failures that are not consecutive never disable', async () => {
    const target = await receiver('127.0.0.21');
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    target.answer(() => ({ status: 500 }));
    await deliver(mailbox.uuid, emlMessage());
    await target.waitFor(5, 40_000);
    await until('one exhausted', async () => (await destinationRow(created.uuid)).consecutive_failures === 1);
    target.answer(() => ({ status: 200 }));
    await deliver(mailbox.uuid, emlMessage());
    await target.waitFor(6);
    await until('reset', async () => (await destinationRow(created.uuid)).consecutive_failures === 0);
    expect((await destinationRow(created.uuid)).status).toBe('active');
  });

  it('refuses a change that does not fit the state with 409, and allows the same change twice', async () => {
    const target = await receiver('127.0.0.22');
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    expect(
      (await call('POST', `/v1/admin/webhooks/${created.uuid}/enable`, { token: admin.token })).body,
    ).toMatchObject({ status: 'active' });
    const resume = await call('POST', `/v1/admin/webhooks/${created.uuid}/resume`, { token: admin.token });
    expect(resume.status).toBe(200);
    await call('POST', `/v1/admin/webhooks/${created.uuid}/pause`, { token: admin.token });
    const enable = await call('POST', `/v1/admin/webhooks/${created.uuid}/enable`, { token: admin.token });
    expect(enable.status).toBe(409);
    expect(enable.body).toMatchObject({ error: 'invalid_state' });
  });
});

describe('delivery history', () => {
  it('serves 7 days of per-day aggregates and the recent attempts, paged', async () => {
    const target = await receiver('127.0.0.23');
    target.answer((index) => ({ status: index === 1 ? 500 : 200 }));
    const { admin, mailbox } = await adminWithMailbox();
    const created = await create(admin, { url: target.url(), mailboxes: [mailbox.uuid] });
    await deliver(mailbox.uuid, emlMessage());
    await deliver(mailbox.uuid, emlMessage());
    await target.waitFor(3);
    await until(
      'all recorded',
      async () => (await attemptsOf(created.uuid)).filter((a) => a.outcome !== 'pending').length === 3,
    );

    const stats = await call('GET', `/v1/admin/webhooks/${created.uuid}/stats`, { token: admin.token });
    expect(stats.status).toBe(200);
    expect(stats.body.data).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.body.data[6]).toEqual({
      day: today,
      attempts: 3,
      successes: 2,
      failures: 1,
      p50_ms: expect.any(Number),
      p95_ms: expect.any(Number),
    });
    expect(stats.body.data[0]).toEqual({
      day: expect.any(String),
      attempts: 0,
      successes: 0,
      failures: 0,
      p50_ms: null,
      p95_ms: null,
    });

    const first = await call('GET', `/v1/admin/webhooks/${created.uuid}/attempts?limit=2`, {
      token: admin.token,
    });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toEqual({
      object: 'webhook_attempt',
      delivery_id: expect.stringMatching(/^whdel_/),
      event_id: expect.stringMatching(/^whevt_/),
      // An extension (docs/extensions.md § Webhooks): 0 for the spec's own delivery of the event.
      round: 0,
      attempt: expect.any(Number),
      outcome: expect.stringMatching(/^(success|failure)$/),
      status_code: expect.any(Number),
      error_class: null,
      response_time_ms: expect.any(Number),
      started_at: expect.any(String),
      finished_at: expect.any(String),
    });
    const second = await call(
      'GET',
      `/v1/admin/webhooks/${created.uuid}/attempts?limit=2&cursor=${first.body.next_cursor}`,
      { token: admin.token },
    );
    expect(second.body.data).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    const all = [...first.body.data, ...second.body.data].map((attempt) => attempt.delivery_id);
    expect(new Set(all).size).toBe(3);
    expect(
      (await call('GET', `/v1/admin/webhooks/${created.uuid}/attempts?cursor=bogus`, { token: admin.token }))
        .status,
    ).toBe(400);
  });
});
