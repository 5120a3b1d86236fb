// An API process that starts while object storage cannot be reached (MinIO restarting or still initialising, a deploy
// that starts everything at once) waits for it with backoff and serves once it is back, instead of exiting: the fault
// suite's stack once failed in CI because its API exited on a MinIO that answered `live` but was not yet ready.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replicaEnv } from '../../../deploy/local/ephemeral-stack.js';
import { startApi, waitForApi } from '../../../deploy/local/folio-processes.js';
import { freePort, stopPid } from '../../../deploy/local/services.js';
import { waitUntil } from '../../support/cascades.js';
import { openRelay } from '../../support/tcp-relay.js';

const WAITING = 'object storage not available yet; trying again';

// The API stops before the relay goes.
let stopApi = async () => {};
let closeRelay = async () => {};
afterAll(async () => {
  await stopApi();
  await closeRelay();
});

describe('an API started before object storage is reachable', () => {
  it('keeps trying, logs why, and serves once object storage answers', async () => {
    const root = process.env.FOLIO_TEST_ROOT!;
    const [apiPort, storagePort] = [await freePort(), await freePort()];
    const log = join(root, 'api-late.log');
    const env = {
      ...process.env,
      ...replicaEnv('api', apiPort),
      FOLIO_S3_ENDPOINT: `http://127.0.0.1:${storagePort}`,
    };
    const api = startApi(env, log, undefined, 'api-late');
    stopApi = async () => {
      if (api.child.exitCode === null) await stopPid(api.child.pid!);
    };

    // It has failed to reach object storage at least twice (so it retried), is still running, and does not listen yet.
    await waitUntil(
      async () => existsSync(log) && readFileSync(log, 'utf8').split(WAITING).length > 2,
      120_000,
    );
    expect(api.child.exitCode).toBeNull();
    expect(readFileSync(log, 'utf8')).not.toContain('api listening');

    closeRelay = (await openRelay(storagePort, process.env.FOLIO_S3_ENDPOINT!)).close;
    const scheme = process.env.FOLIO_TLS_CERT ? 'https' : 'http';
    await waitForApi(`${scheme}://127.0.0.1:${apiPort}`, api, 120_000);
  });
});
