// Starts Folio's own processes (worker and API) from source, as `npm start` and the integration tests do.
import { resolve } from 'node:path';
import { spawnService, type RunningService } from './services.js';

const TSX = ['--import', 'tsx'];

/** `name` names the pid file (<name>.pid): a second worker of the same stack is worker-2. */
export function startWorker(env: NodeJS.ProcessEnv, logFile: string, pidDir?: string, name = 'worker') {
  return spawnService(name, process.execPath, [...TSX, resolve('worker/main.ts')], { env, logFile, pidDir });
}

export function startApi(env: NodeJS.ProcessEnv, logFile: string, pidDir?: string, name = 'api') {
  return spawnService(name, process.execPath, [...TSX, resolve('api/server.ts')], { env, logFile, pidDir });
}

/** Waits until the API answers /readyz with 200, or fails with the reason it gave. */
export async function waitForApi(baseUrl: string, api: { child: { exitCode: number | null } }, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (api.child.exitCode !== null) throw new Error(`API exited with code ${api.child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.ok) return;
      last = await response.text();
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`API not ready within ${timeoutMs / 1000}s: ${last}`);
}

export type { RunningService };
