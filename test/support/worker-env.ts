// Restarting the suite's workers with other settings (a test of long retry delays), and back: stop every worker the
// pid files name (two with FOLIO_TEST_REPLICAS=2, so none is left on the old settings), start each again with the
// stack's environment plus the overrides, and wait until each polls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replicaEnv } from '../../deploy/local/ephemeral-stack.js';
import { startWorker } from '../../deploy/local/folio-processes.js';
import { stopPid } from '../../deploy/local/services.js';
import { namesOf, startedLines, workerStarted } from './worker.js';

export async function restartWorker(
  overrides: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<void> {
  const root = process.env.FOLIO_TEST_ROOT!;
  const names = namesOf('worker');
  for (const name of names)
    await stopPid(Number(readFileSync(join(root, `${name}.pid`), 'utf8').split('\n')[0]));
  for (const name of names) {
    const log = join(root, `${name}.log`);
    const before = startedLines(log);
    const env = name === 'worker' ? process.env : { ...process.env, ...replicaEnv('worker') };
    const { child } = startWorker({ ...env, ...overrides }, log, root, name);
    child.unref();
    await workerStarted(log, before, child, timeoutMs);
  }
}
