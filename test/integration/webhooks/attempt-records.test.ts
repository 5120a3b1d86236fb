// What each attempt records (issues 23 and 25): the receiver's answer (status, headers and exactly the first 4 KB of
// its body), and the delivery's next attempt at the delay the retry schedule gives after that attempt, read from the
// recorded rows, never timed. The worker runs here with four long, distinct delays, so every wait lasts until the
// test ends it with a retry request, and each recorded next-attempt time can be read while the delivery waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventUuidOf } from '../../../domain/webhooks/events.js';
import { db } from '../../../platform/database.js';
import { temporalClient } from '../../../platform/temporal.js';
import { webhookDeliveryWorkflowId } from '../../../workflows/ids.js';
import { retryWebhookDeliverySignal } from '../../../workflows/webhook-delivery.js';
import { makeWorkspace } from '../../support/api.js';
import { attemptsOf, deliver, emlMessage, makeDestination, makeMailbox } from '../../support/mail.js';
import { deliveryEnded, eventIdOf } from '../../support/sentinels.js';
import { receiverPool, until, type Receiver } from '../../support/webhook-receivers.js';
import { restartWorker } from '../../support/worker-env.js';

const MINUTE = 60_000;
const DELAYS_MS = [7 * MINUTE, 3 * MINUTE, 11 * MINUTE, 5 * MINUTE];
const receiver = receiverPool();

async function subscribed(target: Receiver) {
  const workspace = await makeWorkspace();
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
  return { mailbox, destination };
}

const deliveryRow = (destinationUuid: string) =>
  db()('webhook_deliveries').where({ destination_uuid: destinationUuid }).first();

describe('attempt records, on a worker whose four delays are long and differ (7m, 3m, 11m, 5m)', () => {
  beforeAll(
    () => restartWorker({ FOLIO_WEBHOOK_RETRY_DELAYS: DELAYS_MS.map((ms) => `${ms / MINUTE}m`).join(',') }),
    150_000,
  );
  afterAll(() => restartWorker(), 150_000);

  it("keeps the receiver's status, headers and exactly the first 4 KB of a longer body", async () => {
    const target = await receiver('127.0.0.30');
    // Byte 4,096 is the first half of "é": kept, it decodes as U+FFFD; one byte more and it would read "é".
    const body = Buffer.from('k'.repeat(4095) + 'é' + 'x'.repeat(20_000));
    target.answer(() => ({ status: 202, headers: { 'x-receiver-trace': 'abc-123' }, body }));
    const { mailbox, destination } = await subscribed(target);
    const result = await deliver(mailbox.uuid, emlMessage());
    await deliveryEnded(destination.uuid, eventIdOf(result));
    const [attempt] = await attemptsOf(destination.uuid);
    expect(attempt).toMatchObject({ attempt: 1, outcome: 'success', status_code: 202, error_class: null });
    expect(attempt.response_headers).toMatchObject({
      'content-type': 'text/plain',
      'x-receiver-trace': 'abc-123',
    });
    expect(attempt.response_body).toBe('k'.repeat(4095) + '\ufffd');
  });

  it('keeps the answer of a failed attempt too', async () => {
    const target = await receiver('127.0.0.31');
    target.answer(() => ({ status: 503, body: '{"error":"busy"}' }));
    const { mailbox, destination } = await subscribed(target);
    const result = await deliver(mailbox.uuid, emlMessage());
    const [attempt] = await until('attempt 1 recorded', async () => {
      const attempts = await attemptsOf(destination.uuid);
      return attempts[0]?.outcome === 'failure' && attempts;
    });
    expect(attempt).toMatchObject({ status_code: 503, response_body: '{"error":"busy"}' });
    // Ended here (its long wait is not this test's subject): paused, the next attempt stops the delivery.
    await db()('webhook_destinations').where({ uuid: destination.uuid }).update({ status: 'paused' });
    const eventUuid = eventUuidOf(eventIdOf(result))!;
    await (
      await temporalClient()
    ).workflow
      .getHandle(webhookDeliveryWorkflowId(destination.uuid, eventUuid))
      .signal(retryWebhookDeliverySignal, { afterAttempt: 1 });
    expect(await deliveryEnded(destination.uuid, eventIdOf(result))).toMatchObject({ outcome: 'stopped' });
  });

  it('sets the next attempt after attempt n at the n-th delay of the schedule, and none after the fifth', async () => {
    const target = await receiver('127.0.0.32');
    target.answer(() => ({ status: 500 }));
    const { mailbox, destination } = await subscribed(target);
    const result = await deliver(mailbox.uuid, emlMessage());
    const eventUuid = eventUuidOf(eventIdOf(result))!;
    const handle = (await temporalClient()).workflow.getHandle(
      webhookDeliveryWorkflowId(destination.uuid, eventUuid),
    );
    for (const [index, delay] of DELAYS_MS.entries()) {
      const attempt = index + 1;
      const waiting = await until(`waiting after attempt ${attempt}`, async () => {
        const row = await deliveryRow(destination.uuid);
        return row?.state === 'waiting' && row.attempts === attempt && row;
      });
      const recorded = (await attemptsOf(destination.uuid)).find((row) => row.attempt === attempt);
      // Both written by the transaction that recorded the attempt, at its one now().
      expect(
        waiting.next_attempt_at.getTime() - recorded.finished_at.getTime(),
        `after attempt ${attempt}`,
      ).toBe(delay);
      await handle.signal(retryWebhookDeliverySignal, { afterAttempt: attempt });
    }
    expect(await deliveryEnded(destination.uuid, eventIdOf(result))).toEqual({
      outcome: 'failed',
      attempts: 5,
    });
    expect(await deliveryRow(destination.uuid)).toMatchObject({
      state: 'failed',
      attempts: 5,
      next_attempt_at: null,
    });
    expect((await attemptsOf(destination.uuid)).map((row) => [row.attempt, row.outcome])).toEqual([
      [1, 'failure'],
      [2, 'failure'],
      [3, 'failure'],
      [4, 'failure'],
      [5, 'failure'],
    ]);
    expect(target.requests.map((request) => request.headers['x-service-attempt'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  }, 60_000);
});
