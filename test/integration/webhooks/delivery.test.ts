// email.received deliveries to real HTTPS receivers on 127.0.0.x:443 (spec/webhooks.md § Delivery request, States
// and transitions, Limits): headers and signature over the raw bytes, the retry schedule, failing, slow and
// redirecting receivers, and which mail fires nothing. The stack runs with delays of 1s and a 2s timeout.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventUuidOf } from '../../../domain/webhooks/events.js';
import { verifySignature } from '../../../domain/webhooks/signature.js';
import { db } from '../../../platform/database.js';
import { temporalClient } from '../../../platform/temporal.js';
import { webhookDeliveryWorkflowId } from '../../../workflows/ids.js';
import { makeWorkspace } from '../../support/api.js';
import { attemptsOf, deliver, emlMessage, makeDestination, makeMailbox } from '../../support/mail.js';
import { deliveryEnded, eventIdOf, expectNeverDelivered } from '../../support/sentinels.js';
import { receiverPool, until, type Receiver } from '../../support/webhook-receivers.js';
import { logLinesWith } from '../../support/worker.js';
import { restartWorker } from '../../support/worker-env.js';

const receiver = receiverPool();

/** A workspace, a mailbox and a destination subscribed to it, pointing at the receiver. */
async function subscribed(target: Receiver) {
  const workspace = await makeWorkspace();
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
  return { workspace, mailbox, destination };
}

const deliveryState = async (destinationUuid: string) =>
  (await db()('webhook_deliveries').where({ destination_uuid: destinationUuid }).first())?.state;
const settled = (destinationUuid: string, state: string, timeoutMs = 30_000) =>
  until(`delivery ${state}`, async () => (await deliveryState(destinationUuid)) === state, timeoutMs);

/**
 * The waits the delivery's workflow took between attempts, in order, as its history records them: the delays it
 * chose, exactly, where the gaps seen at the receiver also carry the engine's latency.
 */
async function waitsTaken(destinationUuid: string, eventId: string): Promise<number[]> {
  const client = await temporalClient();
  const workflowId = webhookDeliveryWorkflowId(destinationUuid, eventUuidOf(eventId)!);
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  return (events ?? []).flatMap((event) => {
    const timeout = event.timerStartedEventAttributes?.startToFireTimeout;
    return timeout
      ? [Number(String(timeout.seconds ?? 0)) * 1000 + Math.round((timeout.nanos ?? 0) / 1e6)]
      : [];
  });
}

describe('email.received delivery', () => {
  it('POSTs the signed identifiers-only body with the four headers, verifiable over the raw bytes', async () => {
    const target = await receiver('127.0.0.2');
    const { workspace, mailbox, destination } = await subscribed(target);
    const secretSubject = `Secret merger plans ${Date.now()}`;
    const sentAfter = Math.floor(Date.now() / 1000);
    const result = await deliver(
      mailbox.uuid,
      emlMessage({ subject: secretSubject, text: 'the body must not travel' }),
    );
    if (result.outcome !== 'stored') throw new Error('not stored');
    const [request] = await target.waitFor(1);
    await settled(destination.uuid, 'succeeded');

    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-service-event']).toBe('email.received');
    expect(request!.headers['x-service-attempt']).toBe('1');
    expect(request!.headers['x-service-delivery-id']).toMatch(/^whdel_[0-9a-f-]{36}$/);
    const signature = request!.headers['x-service-signature']!;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // Signed when sent: t (seconds) falls between the mail's arrival and the request's.
    const signedAt = Number(/t=(\d+)/.exec(signature)![1]);
    expect(signedAt).toBeGreaterThanOrEqual(sentAfter);
    expect(signedAt).toBeLessThanOrEqual(request!.at / 1000);
    expect(
      verifySignature(signature, request!.raw, destination.secret, { nowSeconds: Date.now() / 1000 }),
    ).toBe(true);
    // The same check as a receiver writes it from the spec alone: HMAC of "t.<raw bytes>", compared in constant time.
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature)!;
    const expected = createHmac('sha256', destination.secret).update(`${t}.`).update(request!.raw).digest();
    expect(timingSafeEqual(expected, Buffer.from(v1!, 'hex'))).toBe(true);
    // Parsing and re-serialising changes the bytes, and the signature no longer matches (spec § Authentication 1).
    expect(
      verifySignature(
        signature,
        JSON.stringify(JSON.parse(request!.raw.toString()), null, 2),
        destination.secret,
        { nowSeconds: Date.now() / 1000 },
      ),
    ).toBe(false);

    const body = JSON.parse(request!.raw.toString());
    expect(body).toEqual({
      id: result.event_id,
      type: 'email.received',
      workspace_uuid: workspace.uuid,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      data: { email_uuid: result.uuid },
    });
    expect(body.id).toMatch(/^whevt_[0-9a-f-]{36}$/);
    expect(request!.raw.toString()).not.toContain('merger');

    // The workflow is findable by its id and search attributes, and its history carries no content.
    const client = await temporalClient();
    const eventUuid = body.id.slice('whevt_'.length);
    const handle = client.workflow.getHandle(`webhook-delivery:${destination.uuid}:${eventUuid}`);
    expect(await handle.result()).toEqual({ outcome: 'succeeded', attempts: 1 });
    const description = await handle.describe();
    const attributes = description.searchAttributes as Record<string, unknown[]>;
    expect(attributes.FolioWebhookDestination).toEqual([destination.uuid]);
    expect(attributes.FolioWebhookEvent).toEqual([body.id]);
    expect(attributes.FolioMailbox).toEqual([mailbox.uuid]);
    expect(attributes.FolioWebhookOutcome).toEqual(['succeeded']);
    const history = JSON.stringify(await handle.fetchHistory());
    expect(history).not.toContain('merger');
    expect(history).not.toContain('alice@sender.example');
    expect(history).not.toContain(destination.secret);
  });

  it('retries a failing receiver on the schedule, attempts numbered 1 to 5 with a fresh delivery id each', async () => {
    const target = await receiver('127.0.0.3');
    target.answer((index) => ({ status: index < 5 ? 500 : 204 }));
    const { mailbox, destination } = await subscribed(target);
    const result = await deliver(mailbox.uuid, emlMessage());
    const requests = await target.waitFor(5, 40_000);
    await settled(destination.uuid, 'succeeded');

    expect(requests.map((request) => request.headers['x-service-attempt'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(new Set(requests.map((request) => request.headers['x-service-delivery-id'])).size).toBe(5);
    // Every attempt sends the same bytes (the same event id); only the signature's timestamp may change.
    expect(new Set(requests.map((request) => request.raw.toString())).size).toBe(1);
    expect(JSON.parse(requests[0]!.raw.toString()).id).toBe(result.outcome === 'stored' && result.event_id);
    // FOLIO_WEBHOOK_RETRY_DELAYS is 1s,1s,1s,1s here: the workflow waits each delay, and the receiver sees each gap
    // at least that long (a durable timer never fires early; how much longer is the engine's latency, for bench/).
    expect(await waitsTaken(destination.uuid, eventIdOf(result))).toEqual([1000, 1000, 1000, 1000]);
    for (let i = 1; i < 5; i++) {
      const gap = requests[i]!.at - requests[i - 1]!.at;
      expect(gap).toBeGreaterThanOrEqual(950);
    }
    const attempts = await attemptsOf(destination.uuid);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.status_code])).toEqual([
      [1, 'failure', 500],
      [2, 'failure', 500],
      [3, 'failure', 500],
      [4, 'failure', 500],
      [5, 'success', 204],
    ]);
    expect(attempts.map((attempt) => `whdel_${attempt.uuid}`)).toEqual(
      requests.map((request) => request.headers['x-service-delivery-id']),
    );
    expect(
      (await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).consecutive_failures,
    ).toBe(0);

    // One log line per attempt, its activity's, with what on-call needs and nothing secret (docs/observability.md
    // § Logs): the line is written as the activity ends, after its record, so it may trail the delivery's state.
    const lines = await until('a log line per attempt', () => {
      const found = logLinesWith('worker', destination.uuid);
      return found.length >= 5 && found;
    });
    expect(lines).toHaveLength(5);
    const byAttempt = lines.sort((a, b) => Number(a.webhook_attempt) - Number(b.webhook_attempt));
    expect(byAttempt).toEqual(
      attempts.map((attempt, index) =>
        expect.objectContaining({
          msg: 'activity',
          category: 'activity',
          activity: 'attemptWebhookDelivery',
          outcome: 'completed',
          destination_uuid: destination.uuid,
          event_id: eventIdOf(result),
          webhook_attempt: index + 1,
          delivery_id: `whdel_${attempt.uuid}`,
          webhook_outcome: index < 4 ? 'failure' : 'success',
          status_code: index < 4 ? 500 : 204,
          error_class: null,
          response_time_ms: expect.any(Number),
          duration_ms: expect.any(Number),
          ...(index < 4 ? { retry_in_ms: 1000 } : {}),
        }),
      ),
    );
    const allowed = new Set([
      ...['level', 'time', 'service', 'request_id', 'msg', 'category', 'activity', 'workflow_id', 'attempt'],
      ...['destination_uuid', 'event_id', 'webhook_attempt', 'delivery_id', 'webhook_outcome', 'retry_in_ms'],
      ...['status_code', 'error_class', 'response_time_ms', 'outcome', 'duration_ms'],
    ]);
    for (const line of lines) {
      expect(Object.keys(line).filter((field) => !allowed.has(field))).toEqual([]);
      const text = JSON.stringify(line);
      expect(text).not.toContain(destination.secret);
      expect(text).not.toContain(requests[0]!.raw.toString());
      for (const request of requests)
        expect(text).not.toContain(/v1=([0-9a-f]{64})/.exec(request.headers['x-service-signature']!)![1]);
    }
  });

  it('gives up after the fifth failure and counts one exhausted event', async () => {
    const target = await receiver('127.0.0.4');
    target.answer(() => ({ status: 503 }));
    const { mailbox, destination } = await subscribed(target);
    const result = await deliver(mailbox.uuid, emlMessage());
    await target.waitFor(5, 40_000);
    await settled(destination.uuid, 'failed');
    // Sentinel: the delivery's workflow has closed, so a sixth attempt would have reached the receiver before now.
    expect(await deliveryEnded(destination.uuid, eventIdOf(result))).toEqual({
      outcome: 'failed',
      attempts: 5,
    });
    expect(target.requests).toHaveLength(5);
    const row = await db()('webhook_destinations').where({ uuid: destination.uuid }).first();
    expect(row).toMatchObject({ consecutive_failures: 1, status: 'active' });
  });

  it('counts a receiver slower than FOLIO_WEBHOOK_TIMEOUT as a failed attempt (timeout), then retries', async () => {
    // The receiver answers attempt 1 only once that attempt has been recorded: the timeout ended it, not the answer.
    const target = await receiver('127.0.0.5');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    target.answer((index) => (index === 1 ? { status: 200, hold: gate } : { status: 200 }));
    const { mailbox, destination } = await subscribed(target);
    await deliver(mailbox.uuid, emlMessage());
    try {
      await until('attempt 1 recorded', async () =>
        (await attemptsOf(destination.uuid)).some((attempt) => attempt.outcome === 'failure'),
      );
    } finally {
      release();
    }
    await target.waitFor(2, 30_000);
    await settled(destination.uuid, 'succeeded');
    const attempts = await attemptsOf(destination.uuid);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      outcome: 'failure',
      status_code: null,
      error_class: 'timeout',
    });
    expect(attempts[0].response_time_ms).toBeGreaterThanOrEqual(1900);
    expect(attempts[1]).toMatchObject({
      attempt: 2,
      outcome: 'success',
      status_code: 200,
      error_class: null,
    });
  });

  it('counts a 2xx whose body is not complete within FOLIO_WEBHOOK_TIMEOUT as a failed attempt (timeout)', async () => {
    // The receiver sends 200, its headers and one byte at once, and holds the rest of attempt 1's body until that
    // attempt has been recorded: the timeout bounds the whole exchange, not only the wait for the status line.
    const target = await receiver('127.0.0.24');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    target.answer((index) => (index === 1 ? { status: 200, holdBody: gate } : { status: 200 }));
    const { mailbox, destination } = await subscribed(target);
    await deliver(mailbox.uuid, emlMessage());
    try {
      await until('attempt 1 recorded', async () =>
        (await attemptsOf(destination.uuid)).some((attempt) => attempt.outcome === 'failure'),
      );
    } finally {
      release();
    }
    await settled(destination.uuid, 'succeeded');
    const attempts = await attemptsOf(destination.uuid);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      outcome: 'failure',
      status_code: null,
      error_class: 'timeout',
    });
    expect(attempts[0].response_time_ms).toBeGreaterThanOrEqual(1900);
    expect(attempts[1]).toMatchObject({ attempt: 2, outcome: 'success', status_code: 200 });
    expect(target.requests.map((request) => request.headers['x-service-attempt'])).toEqual(['1', '2']);
  });

  it('follows no redirect: a 3xx is a failed attempt and the other address sees nothing', async () => {
    const elsewhere = await receiver('127.0.0.7');
    const target = await receiver('127.0.0.6');
    target.answer((index) =>
      index === 1 ? { status: 302, headers: { location: elsewhere.url('/stolen') } } : { status: 200 },
    );
    const { mailbox, destination } = await subscribed(target);
    await deliver(mailbox.uuid, emlMessage());
    await target.waitFor(2, 30_000);
    await settled(destination.uuid, 'succeeded');
    expect(elsewhere.requests).toHaveLength(0);
    const attempts = await attemptsOf(destination.uuid);
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: 'failure', status_code: 302 });
  });

  it('refuses a receiver whose certificate the system store and NODE_EXTRA_CA_CERTS do not trust', async () => {
    const target = await receiver('127.0.0.8', { rogue: true });
    const { mailbox, destination } = await subscribed(target);
    await deliver(mailbox.uuid, emlMessage());
    await until('first attempt recorded', async () =>
      (await attemptsOf(destination.uuid)).some((attempt) => attempt.outcome === 'failure'),
    );
    const [attempt] = await attemptsOf(destination.uuid);
    expect(attempt).toMatchObject({
      attempt: 1,
      outcome: 'failure',
      status_code: null,
      error_class: 'tls_error',
    });
    expect(target.requests).toHaveLength(0);
  });

  it('fires nothing for spam, mail a rule deletes, drafts and imports, and fires for ordinary mail', async () => {
    const { addMailboxRule } = await import('../../../domain/email/mailboxes.js');
    const target = await receiver('127.0.0.9');
    const { mailbox, destination } = await subscribed(target);
    await db().transaction((tx) =>
      addMailboxRule(tx, {
        mailboxUuid: mailbox.uuid,
        field: 'from',
        contains: 'newsletter@',
        action: 'delete',
      }),
    );
    await db().transaction((tx) =>
      addMailboxRule(tx, {
        mailboxUuid: mailbox.uuid,
        field: 'subject',
        contains: 'invoice',
        action: 'label',
        label: 'finance',
      }),
    );

    const spamFlag = await deliver(mailbox.uuid, emlMessage({ headers: { 'X-Spam-Flag': 'YES' } }));
    const spamOption = await deliver(mailbox.uuid, emlMessage(), { spam: true });
    const filtered = await deliver(mailbox.uuid, emlMessage({ from: 'News <newsletter@shop.example>' }));
    const draft = await deliver(mailbox.uuid, emlMessage(), { kind: 'draft' });
    const imported = await deliver(mailbox.uuid, emlMessage(), { kind: 'imported' });
    expect(spamFlag).toMatchObject({ outcome: 'stored', spam: true, labels: ['spam'], event_id: null });
    expect(spamOption).toMatchObject({ outcome: 'stored', spam: true, labels: ['spam'], event_id: null });
    expect(filtered).toMatchObject({ outcome: 'deleted_by_rule', uuid: null });
    expect(draft).toMatchObject({ outcome: 'stored', labels: ['draft'], event_id: null });
    expect(imported).toMatchObject({ outcome: 'stored', labels: ['inbox'], event_id: null });

    const ordinary = await deliver(mailbox.uuid, emlMessage({ subject: 'Your invoice' }));
    expect(ordinary).toMatchObject({
      outcome: 'stored',
      labels: ['inbox', 'finance'],
      event_id: expect.stringMatching(/^whevt_/),
    });
    await target.waitFor(1);
    await settled(destination.uuid, 'succeeded');
    // Sentinel: a delivery sends only from a row recorded with its event, in the transaction that stored the mail, so
    // this destination's deliveries are all known; the one there is has closed, and nothing else can follow it.
    expect(
      (await db()('webhook_deliveries').where({ destination_uuid: destination.uuid })).map(
        (row) => `whevt_${row.event_uuid}`,
      ),
    ).toEqual([eventIdOf(ordinary)]);
    expect(await deliveryEnded(destination.uuid, eventIdOf(ordinary))).toEqual({
      outcome: 'succeeded',
      attempts: 1,
    });
    expect(target.requests).toHaveLength(1);
    expect(JSON.parse(target.requests[0]!.raw.toString()).id).toBe(
      ordinary.outcome === 'stored' && ordinary.event_id,
    );
    expect(
      await db()('webhook_events')
        .whereIn(
          'email_uuid',
          [spamFlag, spamOption, draft, imported].map((r) => r.uuid!),
        )
        .count(),
    ).toEqual([{ count: '0' }]);
  });

  it('delivers one event to every subscribed destination and to none that is not subscribed', async () => {
    const first = await receiver('127.0.0.10');
    const second = await receiver('127.0.0.11');
    const unsubscribed = await receiver('127.0.0.12');
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const other = await makeMailbox(workspace.uuid);
    const toFirst = await makeDestination(workspace.uuid, first.url(), [mailbox.uuid, other.uuid]);
    const toSecond = await makeDestination(workspace.uuid, second.url(), [mailbox.uuid]);
    const toNone = await makeDestination(workspace.uuid, unsubscribed.url(), []);
    const result = await deliver(mailbox.uuid, emlMessage());
    const [a] = await first.waitFor(1);
    const [b] = await second.waitFor(1);
    expect(JSON.parse(a!.raw.toString()).id).toBe(result.outcome === 'stored' && result.event_id);
    expect(a!.raw.equals(b!.raw)).toBe(true);
    expect(a!.headers['x-service-delivery-id']).not.toBe(b!.headers['x-service-delivery-id']);
    // Sentinel: both deliveries of the event have closed, and none to the third was started or left to start.
    await deliveryEnded(toFirst.uuid, eventIdOf(result));
    await deliveryEnded(toSecond.uuid, eventIdOf(result));
    await expectNeverDelivered(toNone.uuid, eventIdOf(result));
    expect(unsubscribed.requests).toHaveLength(0);
  });
});

describe('the retry schedule, on a worker whose four delays differ (1s, 6s, 2s, 4s)', () => {
  // Equal delays would not show a delay taken for the wrong attempt; these do, each gap judged against its own.
  const DELAYS_MS = [1000, 6000, 2000, 4000];
  beforeAll(
    () => restartWorker({ FOLIO_WEBHOOK_RETRY_DELAYS: DELAYS_MS.map((ms) => `${ms / 1000}s`).join(',') }),
    150_000,
  );
  afterAll(() => restartWorker(), 150_000);

  it('waits the n-th delay after attempt n, never less, and gives up after the fifth', async () => {
    const target = await receiver('127.0.0.25');
    target.answer(() => ({ status: 500 }));
    const { mailbox, destination } = await subscribed(target);
    const result = await deliver(mailbox.uuid, emlMessage());
    const requests = await target.waitFor(5, 60_000);
    await settled(destination.uuid, 'failed');
    expect(await deliveryEnded(destination.uuid, eventIdOf(result))).toEqual({
      outcome: 'failed',
      attempts: 5,
    });
    // The delay the workflow chose after each attempt, from its history: the n-th after attempt n.
    expect(await waitsTaken(destination.uuid, eventIdOf(result))).toEqual(DELAYS_MS);
    for (const [index, delay] of DELAYS_MS.entries()) {
      const gap = requests[index + 1]!.at - requests[index]!.at;
      // And it was waited in full: a durable timer never fires early (how much later is the engine's latency, for bench/).
      expect(gap, `wait after attempt ${index + 1}`).toBeGreaterThanOrEqual(delay - 50);
    }
    const numbers = (await attemptsOf(destination.uuid)).map((attempt) => attempt.attempt);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
  }, 120_000);
});
