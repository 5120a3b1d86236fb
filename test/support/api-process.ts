// A test's own API process beside the suite's: to see what two processes share (a revocation), or to kill one outright
// (SIGKILL, no graceful shutdown) in the middle of a request, while the suite's API keeps serving the other tests.
import { join } from 'node:path';
import { replicaEnv } from '../../deploy/local/ephemeral-stack.js';
import { startApi, waitForApi } from '../../deploy/local/folio-processes.js';
import { freePort } from '../../deploy/local/services.js';

export interface ExtraApi {
  url: string;
  /** SIGKILL: the process and its PostgreSQL sessions end as in a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

let started = 0;

export async function startExtraApi(): Promise<ExtraApi> {
  const root = process.env.FOLIO_TEST_ROOT!;
  const name = `api-extra-${++started}`;
  const port = await freePort();
  const { child, service } = startApi({ ...process.env, ...replicaEnv('api', port) }, join(root, `${name}.log`), root, name);
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  const url = `http://127.0.0.1:${port}`;
  await waitForApi(url, { child });
  return {
    url,
    async kill() {
      child.kill('SIGKILL');
      await exited;
      await service.stop();
    },
    stop: () => service.stop(),
  };
}
