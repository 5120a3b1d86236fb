// Crash tests: kill the suite's workers outright (SIGKILL, no graceful shutdown) and start new ones. With replicas
// (FOLIO_TEST_REPLICAS) every worker goes and comes back, so "no worker runs" holds in between.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replicaEnv } from '../../deploy/local/ephemeral-stack.js';
import { startWorker } from '../../deploy/local/folio-processes.js';

const root = () => process.env.FOLIO_TEST_ROOT!;
const workerNames = () => readdirSync(root()).filter((file) => /^worker(-\d+)?\.pid$/.test(file)).map((file) => file.replace(/\.pid$/, ''));
let killed: string[] = [];

export function killWorker(): void {
  killed = workerNames();
  for (const name of killed) process.kill(Number(readFileSync(join(root(), `${name}.pid`), 'utf8').split('\n')[0]), 'SIGKILL');
}

/** Starts a replacement for each worker killed; the suite's teardown stops them through their pid files. */
export function startWorkerAgain(): void {
  for (const name of killed.length ? killed : ['worker']) {
    const env = name === 'worker' ? process.env : { ...process.env, ...replicaEnv('worker') };
    const { child } = startWorker(env, join(root(), `${name}.log`), root(), name);
    child.unref();
  }
  killed = [];
}
