// One more API process of the suite's stack, with settings of a test's own (shutdown timings, TLS, trusted proxies), on
// a port of its own; its log and pid file sit beside the stack's, so the suite's end scans and stops it too. Also how a
// test sees what two processes share (a revocation), or kills one outright in the middle of a request.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replicaEnv } from '../../deploy/local/ephemeral-stack.js';
import { startApi, waitForApi } from '../../deploy/local/folio-processes.js';
import { freePort } from '../../deploy/local/services.js';

export interface ExtraApi {
  url: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGKILL, no graceful shutdown: the process and its PostgreSQL sessions end as in a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts it with the stack's environment plus `overrides` (an empty value removes a variable), and waits until /readyz answers 200. */
export async function startExtraApi(name: string, overrides: Record<string, string> = {}): Promise<ExtraApi> {
  const root = process.env.FOLIO_TEST_ROOT!;
  const port = await freePort();
  const env = { ...process.env, ...replicaEnv('api', port), ...overrides };
  for (const [name, value] of Object.entries(overrides)) if (value === '') delete env[name];
  const scheme = env.FOLIO_TLS_CERT ? 'https' : 'http';
  const url = `${scheme}://127.0.0.1:${port}`;
  const logFile = join(root, `${name}.log`);
  const { child, service } = startApi(env, logFile, root, name);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ca = env.FOLIO_TEST_CA_DIR ? readFileSync(join(env.FOLIO_TEST_CA_DIR, 'ca.crt')) : undefined;
  try {
    await waitForApi(url, { child }, 120_000, ca);
  } catch (error) {
    await service.stop();
    throw error;
  }
  const kill = async () => {
    child.kill('SIGKILL');
    await exited;
    await service.stop();
  };
  return { url, port, child, logFile, exited, kill, stop: () => service.stop() };
}
