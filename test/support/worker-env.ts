// Restarting the suite's worker with other settings (a test of long retry delays), and back: stop the one the pid
// file names, start a new one with the stack's environment plus the overrides.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../../deploy/local/folio-processes.js';
import { stopPid } from '../../deploy/local/services.js';

export async function restartWorker(overrides: Record<string, string> = {}): Promise<void> {
  const root = process.env.FOLIO_TEST_ROOT!;
  const pid = Number(readFileSync(join(root, 'worker.pid'), 'utf8').split('\n')[0]);
  await stopPid(pid);
  const { child } = startWorker({ ...process.env, ...overrides }, join(root, 'worker.log'), root);
  child.unref();
}
