// Webhook extensions (docs/extensions.md § Webhooks), against real HTTPS receivers: a signed webhook.test event (CLI,
// admin API, admin app) sent once, recorded, never counting towards disabling; and a manual resend of one past event
// to one destination, a new delivery of the same event id with attempts numbered from 1, never of a missed event.
import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../../domain/webhooks/signature.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { temporalClient } from '../../../platform/temporal.js';
import { signedIn } from '../../support/admin-browser.js';
import { call, makeWorkspace } from '../../support/api.js';
import { CLI_TIMEOUT_MS, folio, folioFails } from '../../support/cli.js';
import {
  attemptsOf,
  deliver,
  destinationRow,
  emlMessage,
  makeAdmin,
  makeDestination,
  makeMailbox,
} from '../../support/mail.js';
import { receiverPool, until, type Receiver } from '../../support/webhook-receivers.js';
import { restartWorker } from '../../support/worker-env.js';

const receiver = receiverPool();
/** A delivery's attempts in the test stack: one, and one more after each of FOLIO_WEBHOOK_RETRY_DELAYS. */
const scheduledAttempts = config().webhook.retryDelaysMs.length + 1;
/** The one address of the test certificate no other test file listens on; each test closes its receiver. */
const FREE_HOST = '127.0.0.29';

async function subscribed(target: Receiver) {
  const workspace = await makeWorkspace();
  const admin = await makeAdmin(workspace);
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
  return { workspace, admin, mailbox, destination };
}

const deliveryRow = (destinationUuid: string, eventUuid: string, round = 0) =>
  db()('webhook_deliveries')
    .where({ destination_uuid: destinationUuid, event_uuid: eventUuid, round })
    .first();
const finished = (destinationUuid: string, eventUuid: string, round: number, state: string) =>
  until(
    `round ${round} ${state}`,
    async () => (await deliveryRow(destinationUuid, eventUuid, round))?.state === state,
    30_000,
  );
const uuidOf = (eventId: string) => eventId.slice('whevt_'.length);

/** The admin app's attempt rows, newest first: the event type under the id, the Attempt cell, the x-service-event sent. */
function attemptCells(body: string) {
  return body
    .split('<tr class="attempt ')
    .slice(1)
    .map((row) => {
      const cells = [...row.matchAll(/<td(?: data-label="[^"]*")?>([\s\S]*?)<\/td>/g)].map(
        (match) => match[1]!,
      );
      return {
        type: /<span class="muted small">([^<]*)<\/span>/.exec(cells[1]!)?.[1],
        label: cells[2],
        header: /<dt>x-service-event<\/dt><dd>([^<]*)<\/dd>/.exec(row)?.[1],
      };
    });
}

describe('webhook.test', () => {
  it(
    'folio webhook test sends one signed webhook.test event with no data, recorded in the history',
    async () => {
      const target = await receiver(FREE_HOST);
      const { workspace, destination } = await subscribed(target);
      const sent = await folio('webhook', 'test', destination.uuid);
      expect(sent).toMatchObject({
        object: 'webhook_delivery',
        destination_uuid: destination.uuid,
        round: 0,
        mailbox_uuid: null,
      });
      const [request] = await target.waitFor(1);
      expect(request!.headers['x-service-event']).toBe('webhook.test');
      expect(request!.headers['x-service-attempt']).toBe('1');
      expect(
        verifySignature(request!.headers['x-service-signature']!, request!.raw, destination.secret, {
          nowSeconds: Date.now() / 1000,
        }),
      ).toBe(true);
      expect(JSON.parse(request!.raw.toString())).toEqual({
        id: sent.event_id,
        type: 'webhook.test',
        workspace_uuid: workspace.uuid,
        created_at: expect.stringMatching(/\+00:00$/),
        data: {},
      });
      await finished(destination.uuid, uuidOf(sent.event_id), 0, 'succeeded');
      const history = await folio('webhook', 'deliveries', destination.uuid);
      expect(history.data).toEqual([
        expect.objectContaining({
          event_id: sent.event_id,
          round: 0,
          attempt: 1,
          outcome: 'success',
          status_code: 200,
        }),
      ]);
      const handle = (await temporalClient()).workflow.getHandle(sent.workflow_id);
      expect(sent.workflow_id).toBe(`webhook-delivery:${destination.uuid}:${uuidOf(sent.event_id)}`);
      expect(await handle.result()).toEqual({ outcome: 'succeeded', attempts: 1 });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'is sent once even when it fails, never counts towards disabling, and goes only to an active destination',
    async () => {
      // Each failure must be the receiver's 500, not the suite's 2 s timeout, which a loaded machine reaches before the
      // receiver has read the request (it then sees fewer requests than there were attempts).
      await restartWorker({ FOLIO_WEBHOOK_TIMEOUT: '30s' });
      try {
        await sentOnceEvenWhenFailing();
      } finally {
        await restartWorker();
      }
    },
    3 * CLI_TIMEOUT_MS,
  );

  async function sentOnceEvenWhenFailing() {
    const target = await receiver(FREE_HOST);
    target.answer(() => ({ status: 500 }));
    const { admin, destination } = await subscribed(target);
    // FOLIO_WEBHOOK_DISABLE_AFTER is 2 here: three failed tests would disable it if they counted.
    const events: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call('POST', `/v1/admin/webhooks/${destination.uuid}/test`, {
        token: admin.token,
      });
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({
        object: 'webhook_delivery',
        round: 0,
        event_id: expect.stringMatching(/^whevt_/),
      });
      events.push(answer.body.event_id);
      await finished(destination.uuid, uuidOf(answer.body.event_id), 0, 'failed');
    }
    expect(target.requests).toHaveLength(3);
    const attempts = await attemptsOf(destination.uuid);
    expect(
      attempts.map((attempt) => [
        `whevt_${attempt.event_uuid}`,
        attempt.attempt,
        attempt.outcome,
        attempt.status_code,
      ]),
    ).toEqual(events.map((id) => [id, 1, 'failure', 500]));
    expect(await destinationRow(destination.uuid)).toMatchObject({
      status: 'active',
      consecutive_failures: 0,
    });

    expect(
      (await call('POST', `/v1/admin/webhooks/${destination.uuid}/pause`, { token: admin.token })).status,
    ).toBe(200);
    const refused = await call('POST', `/v1/admin/webhooks/${destination.uuid}/test`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('invalid_state');
    expect(await folioFails('webhook', 'test', destination.uuid)).toContain('paused');
    expect(target.requests).toHaveLength(3);
  }

  it('has a button in the admin app', async () => {
    const target = await receiver(FREE_HOST);
    const { admin, destination } = await subscribed(target);
    const browser = await signedIn(admin.email);
    const page = await browser.get(`/admin/webhooks/${destination.uuid}`);
    expect(page.body).toContain('Send test event');
    const answer = await browser.post(`/admin/webhooks/${destination.uuid}/test`, {}, page);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/admin/webhooks/${destination.uuid}?notice=test_sent`);
    const [request] = await target.waitFor(1);
    expect(request!.headers['x-service-event']).toBe('webhook.test');

    // Its attempt shows the real event type, and no "1 of N": a test is sent once, outside the retry schedule.
    const sent = await db()('webhook_attempts').where({ destination_uuid: destination.uuid }).first();
    await finished(destination.uuid, sent.event_uuid, 0, 'succeeded');
    const history = await browser.get(`/admin/webhooks/${destination.uuid}`);
    expect(attemptCells(history.body)).toEqual([
      { type: 'webhook.test', label: 'Test, sent once', header: 'webhook.test' },
    ]);
    expect(history.body).not.toContain(` of ${scheduledAttempts}`);
  });
});

describe('manual resend', () => {
  it(
    'sends a past event again as a new delivery of the same event id, attempts numbered from 1 (CLI, admin API, admin app)',
    async () => {
      const target = await receiver(FREE_HOST);
      const { admin, mailbox, destination } = await subscribed(target);
      const stored = await deliver(mailbox.uuid, emlMessage());
      if (stored.outcome !== 'stored') throw new Error('not stored');
      const eventUuid = uuidOf(stored.event_id!);
      await target.waitFor(1);
      await finished(destination.uuid, eventUuid, 0, 'succeeded');

      const first = await folio(
        'delivery',
        'resend',
        '--destination',
        destination.uuid,
        '--event',
        stored.event_id!,
      );
      expect(first).toMatchObject({
        event_id: stored.event_id,
        round: 1,
        workflow_id: `webhook-delivery:${destination.uuid}:${eventUuid}:resend-1`,
      });
      await target.waitFor(2);
      await finished(destination.uuid, eventUuid, 1, 'succeeded');
      const second = await call(
        'POST',
        `/v1/admin/webhooks/${destination.uuid}/deliveries/${stored.event_id}/resend`,
        { token: admin.token },
      );
      expect(second.status).toBe(202);
      expect(second.body).toMatchObject({ event_id: stored.event_id, round: 2 });
      await target.waitFor(3);
      await finished(destination.uuid, eventUuid, 2, 'succeeded');

      const browser = await signedIn(admin.email);
      const page = await browser.get(`/admin/webhooks/${destination.uuid}`);
      expect(page.body).toContain('Resend event');
      const clicked = await browser.post(
        `/admin/webhooks/${destination.uuid}/events/${stored.event_id}/resend`,
        {},
        page,
      );
      expect(clicked.location).toBe(`/admin/webhooks/${destination.uuid}?notice=resent`);
      const requests = await target.waitFor(4);
      await finished(destination.uuid, eventUuid, 3, 'succeeded');

      // The same bytes (the same event id) every time; a fresh delivery id; each round starts at attempt 1.
      expect(new Set(requests.map((request) => request.raw.toString())).size).toBe(1);
      expect(new Set(requests.map((request) => request.headers['x-service-delivery-id'])).size).toBe(4);
      expect(requests.map((request) => request.headers['x-service-attempt'])).toEqual(['1', '1', '1', '1']);
      const attempts = await attemptsOf(destination.uuid);
      expect(attempts.map((attempt) => [attempt.round, attempt.attempt, attempt.outcome])).toEqual([
        [0, 1, 'success'],
        [1, 1, 'success'],
        [2, 1, 'success'],
        [3, 1, 'success'],
      ]);
      const handle = (await temporalClient()).workflow.getHandle(
        `webhook-delivery:${destination.uuid}:${eventUuid}:resend-1`,
      );
      expect(await handle.result()).toEqual({ outcome: 'succeeded', attempts: 1 });

      // The admin app tells each resend from the spec's delivery: only that one is "n of N" towards disabling.
      const history = await browser.get(`/admin/webhooks/${destination.uuid}`);
      expect(attemptCells(history.body)).toEqual([
        { type: 'email.received', label: 'Resend 3, attempt 1', header: 'email.received' },
        { type: 'email.received', label: 'Resend 2, attempt 1', header: 'email.received' },
        { type: 'email.received', label: 'Resend 1, attempt 1', header: 'email.received' },
        { type: 'email.received', label: `1 of ${scheduledAttempts}`, header: 'email.received' },
      ]);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'never sends an event that occurred while the destination was paused, nor to a paused one, nor twice at once',
    async () => {
      const target = await receiver(FREE_HOST);
      const { admin, mailbox, destination } = await subscribed(target);
      const resend = (eventId: string) =>
        call('POST', `/v1/admin/webhooks/${destination.uuid}/deliveries/${eventId}/resend`, {
          token: admin.token,
        });
      const pause = (change: 'pause' | 'resume') =>
        call('POST', `/v1/admin/webhooks/${destination.uuid}/${change}`, { token: admin.token });

      expect((await pause('pause')).status).toBe(200);
      const missed = await deliver(mailbox.uuid, emlMessage());
      if (missed.outcome !== 'stored') throw new Error('not stored');
      const refusedWhilePaused = await resend(missed.event_id!);
      expect(refusedWhilePaused.status).toBe(404);
      expect((await pause('resume')).status).toBe(200);
      const neverSent = await resend(missed.event_id!);
      expect(neverSent.status).toBe(404);
      expect(neverSent.body.error).toBe('not_found');
      expect(
        await folioFails(
          'delivery',
          'resend',
          '--destination',
          destination.uuid,
          '--event',
          missed.event_id!,
        ),
      ).toContain('never replayed');

      // An event sent while active, held at the receiver: a resend while it is in flight is refused.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      target.answer(() => ({ status: 200, hold: held }));
      const sent = await deliver(mailbox.uuid, emlMessage());
      if (sent.outcome !== 'stored') throw new Error('not stored');
      await target.waitFor(1);
      const inFlight = await resend(sent.event_id!);
      expect(inFlight.status).toBe(409);
      expect(inFlight.body.error).toBe('invalid_state');
      release();
      await finished(destination.uuid, uuidOf(sent.event_id!), 0, 'succeeded');

      expect((await pause('pause')).status).toBe(200);
      const toPaused = await resend(sent.event_id!);
      expect(toPaused.status).toBe(409);
      expect(toPaused.body.error).toBe('invalid_state');
      expect(target.requests).toHaveLength(1);
      expect(
        await db()('webhook_deliveries').where({ destination_uuid: destination.uuid }).count({ n: '*' }),
      ).toEqual([{ n: '1' }]);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'a failed resend makes its own attempts of the retry schedule and does not count towards disabling',
    async () => {
      const target = await receiver(FREE_HOST);
      const { admin, mailbox, destination } = await subscribed(target);
      const stored = await deliver(mailbox.uuid, emlMessage());
      if (stored.outcome !== 'stored') throw new Error('not stored');
      const eventUuid = uuidOf(stored.event_id!);
      await finished(destination.uuid, eventUuid, 0, 'succeeded');
      target.answer(() => ({ status: 503 }));
      const resent = await call(
        'POST',
        `/v1/admin/webhooks/${destination.uuid}/deliveries/${stored.event_id}/resend`,
        { token: admin.token },
      );
      expect(resent.status).toBe(202);
      await finished(destination.uuid, eventUuid, 1, 'failed');
      const rounds = await attemptsOf(destination.uuid);
      expect(rounds.map((attempt) => [attempt.round, attempt.attempt, attempt.outcome])).toEqual([
        [0, 1, 'success'],
        ...Array.from({ length: scheduledAttempts }, (_, i) => [1, i + 1, 'failure']),
      ]);
      expect(await destinationRow(destination.uuid)).toMatchObject({
        status: 'active',
        consecutive_failures: 0,
      });
    },
    CLI_TIMEOUT_MS,
  );
});
