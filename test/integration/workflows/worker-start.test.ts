// A worker that starts while Temporal cannot be reached (a restart of the Temporal service, a deploy that starts both at
// once) waits for it with backoff and starts polling once it is back, instead of exiting: the fault suite once saw a
// restarted worker die at start on a slow Temporal and stay dead (docs/faults.md).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replicaEnv } from '../../../deploy/local/ephemeral-stack.js';
import { startWorker } from '../../../deploy/local/folio-processes.js';
import { freePort, stopPid } from '../../../deploy/local/services.js';
import { waitUntil } from '../../support/cascades.js';
import { openRelay } from '../../support/tcp-relay.js';
import { startedLines, workerStarted } from '../../support/worker.js';

const WAITING = 'Temporal not available yet; trying again';

// The worker stops (gracefully, while it can still reach Temporal) before the relay goes.
let stopWorker = async () => {};
let closeRelay = async () => {};
afterAll(async () => {
  await stopWorker();
  await closeRelay();
});

describe('a worker started before Temporal is reachable', () => {
  it('keeps trying, logs why, and polls once Temporal answers', async () => {
    const root = process.env.FOLIO_TEST_ROOT!;
    const port = await freePort();
    const log = join(root, 'worker-late.log');
    const { child } = startWorker(
      { ...process.env, ...replicaEnv('worker'), FOLIO_TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
      log,
      undefined,
      'worker-late',
    );
    stopWorker = async () => {
      if (child.exitCode === null) await stopPid(child.pid!);
    };

    // It has failed to reach Temporal at least twice (so it retried) and is still running.
    await waitUntil(
      async () => existsSync(log) && readFileSync(log, 'utf8').split(WAITING).length > 2,
      120_000,
    );
    expect(child.exitCode).toBeNull();
    expect(startedLines(log)).toBe(0);

    closeRelay = (await openRelay(port, process.env.FOLIO_TEMPORAL_ADDRESS!)).close;
    await workerStarted(log, 0, child);
  });
});
