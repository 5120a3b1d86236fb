// Restarting the suite's worker with other settings (a test of long retry delays), and back: stop the one the pid
// file names, start a new one with the stack's environment plus the overrides, and wait until it polls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../../deploy/local/folio-processes.js';
import { stopPid } from '../../deploy/local/services.js';

const startedLines = (log: string) => readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('"msg":"worker started"')).length;

export async function restartWorker(overrides: Record<string, string> = {}, timeoutMs = 120_000): Promise<void> {
  const root = process.env.FOLIO_TEST_ROOT!;
  const log = join(root, 'worker.log');
  const pid = Number(readFileSync(join(root, 'worker.pid'), 'utf8').split('\n')[0]);
  await stopPid(pid);
  const before = startedLines(log);
  const { child } = startWorker({ ...process.env, ...overrides }, log, root);
  child.unref();
  const deadline = Date.now() + timeoutMs;
  while (startedLines(log) === before) {
    if (child.exitCode !== null) throw new Error(`the worker exited with code ${child.exitCode}; see ${log}`);
    if (Date.now() > deadline) throw new Error(`the worker did not start within ${timeoutMs / 1000}s; see ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
