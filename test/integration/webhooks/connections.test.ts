// Connections to receivers (docs/webhooks.md § Connections): a connection to the judged address is kept for the next
// attempt while its certificate stays valid for longer than it may sit idle, and a kept connection the receiver closes
// as a request crosses it costs no attempt. The suite keeps idle connections 10 minutes (test/setup/global.ts), and
// the receivers as long, so what is counted here does not depend on how fast the machine is.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { makeWorkspace } from '../../support/api.js';
import { attemptsOf, deliver, emlMessage, makeDestination, makeMailbox } from '../../support/mail.js';
import { issueLeaf } from '../../support/test-ca.js';
import { receiverPool, until, type Receiver } from '../../support/webhook-receivers.js';

const receiver = receiverPool();
/** Each worker process keeps its own connections (two with FOLIO_TEST_REPLICAS=2 or on the cluster). */
const workers = Number(process.env.FOLIO_TEST_WORKERS ?? 1);

async function subscribed(target: Receiver) {
  const workspace = await makeWorkspace();
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
  return { mailbox, destination };
}

/** Delivers one email and waits until its delivery succeeded. */
async function deliveredOnce(mailboxUuid: string, destinationUuid: string) {
  const result = await deliver(mailboxUuid, emlMessage({ subject: 'kept' }));
  if (result.outcome !== 'stored') throw new Error('not stored');
  const eventUuid = result.event_id!.replace(/^whevt_/, '');
  await until(
    'delivery succeeded',
    async () => {
      const row = await db()('webhook_deliveries')
        .where({ destination_uuid: destinationUuid, event_uuid: eventUuid })
        .first('state');
      return row?.state === 'succeeded';
    },
    30_000,
  );
}

describe('connections to a receiver', () => {
  it('carries the next delivery over the connection the last one made, each POST signed and numbered as its own', async () => {
    const target = await receiver('127.0.0.41');
    const { mailbox, destination } = await subscribed(target);
    await deliveredOnce(mailbox.uuid, destination.uuid);
    await deliveredOnce(mailbox.uuid, destination.uuid);
    await deliveredOnce(mailbox.uuid, destination.uuid);

    expect(target.requests).toHaveLength(3);
    // One connection per worker at most: with one worker, the three POSTs crossed one connection; with two, at least
    // two of the three went over a kept one.
    expect(target.connections).toBeLessThanOrEqual(workers);
    const deliveryIds = target.requests.map((request) => request.headers['x-service-delivery-id']);
    expect(new Set(deliveryIds).size).toBe(3);
    expect(target.requests.map((request) => request.headers['x-service-attempt'])).toEqual(['1', '1', '1']);
    const attempts = await attemptsOf(destination.uuid);
    expect(attempts.map((attempt) => attempt.status_code)).toEqual([200, 200, 200]);
  });

  it('makes a new, checked connection for every delivery when the certificate expires before a kept one would close', async () => {
    // Valid for 5 minutes: longer than the test takes, shorter than the suite's 10 minutes of keep-alive.
    const leaf = issueLeaf(process.env.FOLIO_TEST_CA_DIR!, 'expiring', 'expiring.folio.test', {
      expiresAt: new Date(Date.now() + 5 * 60_000),
    });
    const target = await receiver('127.0.0.42', {
      certificate: { cert: readFileSync(leaf.certFile), key: readFileSync(leaf.keyFile) },
    });
    const { mailbox, destination } = await subscribed(target);
    await deliveredOnce(mailbox.uuid, destination.uuid);
    await deliveredOnce(mailbox.uuid, destination.uuid);

    expect(target.requests).toHaveLength(2);
    expect(target.connections).toBe(2);
  });

  it('sends again over a new connection, in the same attempt, when the receiver closes a kept one as the request arrives', async () => {
    const target = await receiver('127.0.0.43', { closeKeptConnections: true });
    const { mailbox, destination } = await subscribed(target);
    await deliveredOnce(mailbox.uuid, destination.uuid);
    await deliveredOnce(mailbox.uuid, destination.uuid);

    // The second delivery's POST met the closing connection, went again over a new one, and was answered: one attempt.
    expect(target.requests).toHaveLength(2);
    expect(target.connections).toBe(2);
    const attempts = await attemptsOf(destination.uuid);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status_code, attempt.error_class])).toEqual([
      [1, 200, null],
      [1, 200, null],
    ]);
  });
});
