// Crash tests: kill the suite's workers (or API processes) outright (SIGKILL, no graceful shutdown) and start new
// ones. With replicas (FOLIO_TEST_REPLICAS) every process of the kind goes and comes back, so "no worker runs" holds
// in between.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replicaEnv } from '../../deploy/local/ephemeral-stack.js';
import { startApi, startWorker, waitForApi } from '../../deploy/local/folio-processes.js';

type Kind = 'worker' | 'api';
const root = () => process.env.FOLIO_TEST_ROOT!;
export const namesOf = (kind: Kind) =>
  readdirSync(root())
    .filter((file) => new RegExp(`^${kind}(-\\d+)?\\.pid$`).test(file))
    .map((file) => file.replace(/\.pid$/, ''));
const killed: Record<Kind, string[]> = { worker: [], api: [] };

/** SIGKILLs every process of the kind the stack's pid files name. */
export function killAll(kind: Kind): void {
  killed[kind] = namesOf(kind);
  for (const name of killed[kind]) {
    try {
      process.kill(Number(readFileSync(join(root(), `${name}.pid`), 'utf8').split('\n')[0]), 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

/** The JSON lines of the stack's worker (or API) logs that contain `text`: worker.log, and worker-2.log with replicas. */
export const logLinesWith = (kind: Kind, text: string) =>
  readdirSync(root())
    .filter((file) => file.startsWith(kind) && file.endsWith('.log'))
    .flatMap((file) => readFileSync(join(root(), file), 'utf8').split('\n'))
    .filter((line) => line.includes(text))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

export const startedLines = (log: string) =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"msg":"worker started"')).length
    : 0;

/** Waits until the worker logging to `log` has written one more "worker started" line than `before`. */
export async function workerStarted(
  log: string,
  before: number,
  child: { exitCode: number | null },
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (startedLines(log) <= before) {
    if (child.exitCode !== null) throw new Error(`the worker exited with code ${child.exitCode}; see ${log}`);
    if (Date.now() > deadline)
      throw new Error(`the worker did not start within ${timeoutMs / 1000}s; see ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Starts a replacement for each process of the kind killed; the suite's teardown stops them through their pid files.
 * With `ready`, answers once each one serves (an API answers /readyz, a worker logged that it polls).
 */
export async function startAllAgain(kind: Kind, options: { ready?: boolean } = {}): Promise<void> {
  const apiUrls = process.env.FOLIO_TEST_API_URLS?.split(',') ?? [process.env.FOLIO_API_URL!];
  for (const name of killed[kind].length ? killed[kind] : [kind]) {
    const replica = Number(/-(\d+)$/.exec(name)?.[1] ?? 1);
    const url = apiUrls[replica - 1]!;
    const env =
      replica === 1 ? process.env : { ...process.env, ...replicaEnv(kind, Number(new URL(url).port)) };
    const log = join(root(), `${name}.log`);
    const before = startedLines(log);
    const started = (kind === 'worker' ? startWorker : startApi)(env, log, root(), name);
    started.child.unref();
    if (kind === 'api') await waitForApi(url, started);
    else if (options.ready) await workerStarted(log, before, started.child);
  }
  killed[kind] = [];
}

export const killWorker = (): void => killAll('worker');

/** Starts a replacement for each worker killed. */
export function startWorkerAgain(): void {
  void startAllAgain('worker');
}
