// Starts Folio's own processes (worker and API) from source, as `npm start` and the integration tests do.
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { resolve } from 'node:path';
import { spawnService } from './services.js';

const TSX = ['--import', 'tsx'];

/** `name` names the pid file (<name>.pid): a second worker of the same stack is worker-2. */
export function startWorker(env: NodeJS.ProcessEnv, logFile: string, pidDir?: string, name = 'worker') {
  return spawnService(name, process.execPath, [...TSX, resolve('worker/main.ts')], { env, logFile, pidDir });
}

export function startApi(env: NodeJS.ProcessEnv, logFile: string, pidDir?: string, name = 'api') {
  return spawnService(name, process.execPath, [...TSX, resolve('api/server.ts')], { env, logFile, pidDir });
}

/** GET url: its status and body. Over HTTPS, `ca` is the authority to trust (this process may have started before it existed). */
function getText(url: string, ca?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const request = url.startsWith('https:') ? httpsGet(url, { ca }) : httpGet(url);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', fail);
  });
}

/**
 * Waits until the API answers /readyz with 200, or fails with the reason it gave. The default matches the five minutes
 * an API itself waits for its database and object storage (platform/startup.ts): three cluster stacks starting at once
 * on the loaded 2-core machine (load average 70-84) left each API without a log line after 120 s, still loading.
 */
export async function waitForApi(
  baseUrl: string,
  api: { child: { exitCode: number | null } },
  timeoutMs = 300_000,
  ca?: Buffer,
) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (api.child.exitCode !== null) throw new Error(`API exited with code ${api.child.exitCode}`);
    try {
      const response = await getText(`${baseUrl}/readyz`, ca);
      if (response.status === 200) return;
      last = response.text;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`API not ready within ${timeoutMs / 1000}s: ${last}`);
}
