// Crash tests: kill the suite's worker outright (SIGKILL, no graceful shutdown) and start a new one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../../deploy/local/folio-processes.js';

const pidFile = () => join(process.env.FOLIO_TEST_ROOT!, 'worker.pid');

export function killWorker(): void {
  const pid = Number(readFileSync(pidFile(), 'utf8').split('\n')[0]);
  process.kill(pid, 'SIGKILL');
}

/** Starts a replacement worker; the suite's teardown stops it through the pid file. */
export function startWorkerAgain(): void {
  const { child } = startWorker(process.env, join(process.env.FOLIO_TEST_ROOT!, 'worker.log'), process.env.FOLIO_TEST_ROOT!);
  child.unref();
}
