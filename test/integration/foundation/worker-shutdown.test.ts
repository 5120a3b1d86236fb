// SIGTERM to the workers (docs/operations.md § Two of each): a worker stops polling and lets the work it holds finish
// within FOLIO_SHUTDOWN_GRACE, then exits 0. A webhook attempt whose receiver is still answering when the signal lands is
// completed and recorded once: no second POST, no attempt 2 after the workers come back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../../deploy/local/services.js';
import { db } from '../../../platform/database.js';
import { makeWorkspace } from '../../support/api.js';
import { attemptsOf, deliver, emlMessage, makeDestination, makeMailbox } from '../../support/mail.js';
import { receiverPool, until } from '../../support/webhook-receivers.js';
import { namesOf } from '../../support/worker.js';
import { restartWorker } from '../../support/worker-env.js';

const receiver = receiverPool();
const root = () => process.env.FOLIO_TEST_ROOT!;
const pidOf = (name: string) => Number(readFileSync(join(root(), `${name}.pid`), 'utf8').split('\n')[0]);
const drainingLines = (name: string) =>
  readFileSync(join(root(), `${name}.log`), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"state":"DRAINING"')).length;

// The suite's 2 s webhook timeout would end the held attempt on its own: these workers wait a minute for an answer.
beforeAll(() => restartWorker({ FOLIO_WEBHOOK_TIMEOUT: '60s' }), 240_000);
// Back to the suite's settings, whether or not the test got as far as stopping them.
afterAll(() => restartWorker(), 240_000);

describe('a worker told to stop', () => {
  it('finishes the webhook attempt in flight, records it once, and exits', { timeout: 240_000 }, async () => {
    const target = await receiver('127.0.0.35');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    target.answer(() => ({ status: 200, hold: gate }));
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const destination = await makeDestination(workspace.uuid, target.url(), [mailbox.uuid]);
    const stored = await deliver(mailbox.uuid, emlMessage({ subject: 'held while the worker stops' }));
    expect(stored.outcome).toBe('stored');
    await target.waitFor(1, 60_000);

    // Every worker is told to stop while the attempt waits on the receiver; each says it is draining.
    const names = namesOf('worker');
    const before = new Map(names.map((name) => [name, drainingLines(name)]));
    for (const name of names) process.kill(pidOf(name), 'SIGTERM');
    await until(
      'every worker draining',
      () => names.every((name) => drainingLines(name) > before.get(name)!),
      60_000,
    );
    const pids = names.map(pidOf);
    // The worker that holds the attempt is still up (with two workers, the other may already have exited).
    expect(pids.some(processAlive)).toBe(true);

    release();
    // They exit once the attempt is done, well inside the grace (30 s by default).
    await until('every worker exited', () => pids.every((pid) => !processAlive(pid)), 60_000);

    await restartWorker();
    await until(
      'delivery succeeded',
      async () =>
        (await db()('webhook_deliveries').where({ destination_uuid: destination.uuid }).first())?.state ===
        'succeeded',
      60_000,
    );
    const attempts = await attemptsOf(destination.uuid);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([[1, 200]]);
    expect(target.requests).toHaveLength(1);
  });
});
