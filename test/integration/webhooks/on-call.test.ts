// On call (docs/webhooks-on-call.md): `folio delivery list|retry|terminate` on a worker with long retry delays, the
// history purge schedule, and a worker killed (SIGKILL) in the middle of 1,000 deliveries to three receivers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_HISTORY_PURGE_SCHEDULE_ID, webhookDeliveryWorkflowId } from '../../../workflows/ids.js';
import { retryWebhookDeliverySignal } from '../../../workflows/webhook-delivery.js';
import { db } from '../../../platform/database.js';
import { temporalClient } from '../../../platform/temporal.js';
import { CLI_TIMEOUT_MS, folio } from '../../support/cli.js';
import { makeWorkspace } from '../../support/api.js';
import { attemptsOf, deliver, emlMessage, makeDestination, makeMailbox } from '../../support/mail.js';
import { killWorker, startWorkerAgain } from '../../support/worker.js';
import { restartWorker } from '../../support/worker-env.js';
import { receiverPool, until, type Receiver } from '../../support/webhook-receivers.js';

const receiver = receiverPool();

const deliveryOf = (destinationUuid: string) =>
  db()('webhook_deliveries').where({ destination_uuid: destinationUuid }).first();

/** How many of the delivery's waits ran out, from its history: a retry ends the wait before its timer fires. */
async function waitsRunOut(destinationUuid: string, eventId: string): Promise<number> {
  const handle = (await temporalClient()).workflow.getHandle(
    webhookDeliveryWorkflowId(destinationUuid, eventId.slice('whevt_'.length)),
  );
  const { events } = await handle.fetchHistory();
  return (events ?? []).filter((event) => event.timerFiredEventAttributes).length;
}

/** One event whose first attempt the receiver failed, now waiting (two minutes) for its second. */
async function waitingDelivery(target: Receiver) {
  const workspace = await makeWorkspace();
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
  const result = await deliver(mailbox.uuid, emlMessage());
  await target.waitFor(1, 60_000);
  await until('waiting', async () => (await deliveryOf(destination.uuid))?.state === 'waiting');
  return { destination, eventId: result.outcome === 'stored' ? result.event_id! : '' };
}

describe('folio delivery, on a worker whose retry delays are two minutes', () => {
  beforeAll(() => restartWorker({ FOLIO_WEBHOOK_RETRY_DELAYS: '120s,120s,120s,120s' }), 150_000);
  afterAll(() => restartWorker(), 150_000);

  it(
    'lists a waiting delivery and makes its next attempt now on retry, keeping the number sequence',
    async () => {
      const target = await receiver('127.0.0.35');
      target.answer((index) => ({ status: index === 1 ? 500 : 200 }));
      const { destination, eventId } = await waitingDelivery(target);

      const listed = await folio('delivery', 'list', '--destination', destination.uuid, '--state', 'waiting');
      expect(listed.data).toEqual([
        expect.objectContaining({
          destination_uuid: destination.uuid,
          event_id: eventId,
          state: 'waiting',
          attempts: 1,
          workflow_id: `webhook-delivery:${destination.uuid}:${eventId.slice(6)}`,
        }),
      ]);
      expect(
        Date.parse(listed.data[0].next_attempt_at) - Date.parse(listed.data[0].created_at),
      ).toBeGreaterThan(100_000);

      const retried = await folio('delivery', 'retry', '--destination', destination.uuid, '--event', eventId);
      expect(retried).toMatchObject({ state: 'waiting', attempts: 1 });
      const requests = await target.waitFor(2, 60_000);
      expect(requests[1]!.headers['x-service-attempt']).toBe('2');
      await until('succeeded', async () => (await deliveryOf(destination.uuid))?.state === 'succeeded');
      // Made by the retry, not by the two-minute delay running out, however slow the CLI was on a busy machine.
      expect(await waitsRunOut(destination.uuid, eventId)).toBe(0);
      await expect(
        folio('delivery', 'retry', '--destination', destination.uuid, '--event', eventId),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('succeeded'),
      });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'ends the wait after attempt n for a retry that arrived before the wait began',
    async () => {
      // The row says "waiting" as soon as attempt n is recorded, a moment before the workflow starts its timer; the
      // request `folio delivery retry` sends in that moment names attempt n and must not be lost. Forced here: attempt
      // 1 is held at the receiver while the request arrives, then fails.
      const target = await receiver('127.0.0.24');
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      target.answer((index) => (index === 1 ? { status: 500, hold: gate } : { status: 200 }));
      const workspace = await makeWorkspace();
      const mailbox = await makeMailbox(workspace.uuid);
      const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
      const stored = await deliver(mailbox.uuid, emlMessage());
      const eventUuid = stored.outcome === 'stored' ? stored.event_id!.slice('whevt_'.length) : '';
      await target.waitFor(1, 60_000);

      const handle = (await temporalClient()).workflow.getHandle(
        webhookDeliveryWorkflowId(destination.uuid, eventUuid),
      );
      await handle.signal(retryWebhookDeliverySignal, { afterAttempt: 1 });
      release();

      const requests = await target.waitFor(2, 60_000);
      expect(requests[1]!.headers['x-service-attempt']).toBe('2');
      await until('succeeded', async () => (await deliveryOf(destination.uuid))?.state === 'succeeded');
      // The retry ended the wait: the two-minute delay never ran out.
      expect(await waitsRunOut(destination.uuid, stored.outcome === 'stored' ? stored.event_id! : '')).toBe(
        0,
      );
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'terminates a delivery, recording who and why, and it makes no further attempt',
    async () => {
      const target = await receiver('127.0.0.36');
      target.answer(() => ({ status: 500 }));
      const { destination, eventId } = await waitingDelivery(target);

      const terminated = await folio(
        'delivery',
        'terminate',
        '--destination',
        destination.uuid,
        '--event',
        eventId,
        '--reason',
        'receiver decommissioned',
        '--actor',
        'alice@oncall',
      );
      expect(terminated).toMatchObject({
        state: 'terminated',
        terminated_by: 'alice@oncall',
        terminated_reason: 'receiver decommissioned',
        finished_at: expect.any(String),
      });
      const handle = (await temporalClient()).workflow.getHandle(terminated.workflow_id);
      await until(
        'terminated in Temporal',
        async () => (await handle.describe()).status.name === 'TERMINATED',
      );
      const retry = folio('delivery', 'retry', '--destination', destination.uuid, '--event', eventId);
      await expect(retry).rejects.toMatchObject({ stderr: expect.stringContaining('terminated') });
      expect((await folio('delivery', 'list', '--destination', destination.uuid)).data).toEqual([]);
      expect(target.requests).toHaveLength(1);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('history retention', () => {
  it('the purge schedule deletes attempts, finished deliveries and events older than 30 days', async () => {
    const target = await receiver('127.0.0.37');
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
    await Promise.all([deliver(mailbox.uuid, emlMessage()), deliver(mailbox.uuid, emlMessage())]);
    await target.waitFor(2);
    await until(
      'both succeeded',
      async () =>
        (await db()('webhook_deliveries').where({ destination_uuid: destination.uuid, state: 'succeeded' }))
          .length === 2,
    );
    const [old] = await attemptsOf(destination.uuid);
    const ago = db().raw(`now() - interval '31 days'`);
    await db()('webhook_attempts').where({ uuid: old.uuid }).update({ started_at: ago });
    await db()('webhook_deliveries')
      .where({ destination_uuid: destination.uuid, event_uuid: old.event_uuid })
      .update({ finished_at: ago, created_at: ago });
    await db()('webhook_events').where({ uuid: old.event_uuid }).update({ created_at: ago });

    await (await temporalClient()).schedule.getHandle(WEBHOOK_HISTORY_PURGE_SCHEDULE_ID).trigger();
    await until(
      'purged',
      async () => !(await db()('webhook_events').where({ uuid: old.event_uuid }).first()),
      30_000,
    );
    expect(await attemptsOf(destination.uuid)).toHaveLength(1);
    expect(await db()('webhook_deliveries').where({ destination_uuid: destination.uuid })).toHaveLength(1);
  });
});

describe('a worker killed in the middle of 1,000 deliveries', () => {
  it('delivers every event to each of three receivers, never repeats an attempt number, and records every attempt', async () => {
    const receivers = await Promise.all(
      ['127.0.0.38', '127.0.0.39', '127.0.0.40'].map((host) => receiver(host)),
    );
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const destinations = await Promise.all(
      receivers.map((target) => makeDestination(workspace.uuid, target.url(), [mailbox.uuid])),
    );
    const EVENTS = 334; // × 3 destinations: 1,002 deliveries
    const eventIds: string[] = [];
    const total = () => receivers.reduce((sum, target) => sum + target.requests.length, 0);
    let killed = false;
    for (let sent = 0; sent < EVENTS; sent += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, EVENTS - sent) }, () => deliver(mailbox.uuid, emlMessage())),
      );
      for (const result of batch) if (result.outcome === 'stored') eventIds.push(result.event_id!);
      if (!killed && total() >= 150) {
        killWorker();
        killed = true;
        startWorkerAgain();
      }
    }
    if (!killed) {
      await until('some deliveries', () => total() >= 150, 60_000);
      killWorker();
      startWorkerAgain();
    }
    expect(eventIds).toHaveLength(EVENTS);

    for (const [index, target] of receivers.entries()) {
      await until(
        `every event at receiver ${index}`,
        () => new Set(target.requests.map((r) => JSON.parse(r.raw.toString()).id)).size === EVENTS,
        240_000,
        500,
      );
    }
    const uuids = destinations.map((destination) => destination.uuid);
    await until(
      'all deliveries finished',
      async () =>
        (await db()('webhook_deliveries').whereIn('destination_uuid', uuids).whereNot({ state: 'succeeded' }))
          .length === 0,
      120_000,
      500,
    );

    for (const [index, target] of receivers.entries()) {
      const seen = new Set<string>();
      for (const request of target.requests) {
        const key = `${JSON.parse(request.raw.toString()).id}#${request.headers['x-service-attempt']}`;
        expect(seen.has(key), `attempt repeated: ${key}`).toBe(false);
        seen.add(key);
      }
      const recorded = new Set(
        (await attemptsOf(destinations[index]!.uuid)).map((attempt) => `whdel_${attempt.uuid}`),
      );
      for (const request of target.requests)
        expect(recorded.has(request.headers['x-service-delivery-id']!)).toBe(true);
    }
    const attempts = await db()('webhook_attempts').whereIn('destination_uuid', uuids);
    expect(attempts.filter((attempt) => attempt.outcome === 'pending')).toEqual([]);
    // Every delivery's attempts are numbered 1..n without a gap, and only the last one succeeded.
    const byDelivery = new Map<string, number[]>();
    for (const attempt of attempts)
      byDelivery.set(`${attempt.destination_uuid}:${attempt.event_uuid}`, [
        ...(byDelivery.get(`${attempt.destination_uuid}:${attempt.event_uuid}`) ?? []),
        attempt.attempt,
      ]);
    expect(byDelivery.size).toBe(EVENTS * 3);
    for (const numbers of byDelivery.values())
      expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
  }, 600_000);
});
