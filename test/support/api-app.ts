// Apps started inside the test process, each from a services object of its own (api/services.ts), as api/server.ts
// builds one: for tests of what one app keeps to itself, and of the routers themselves.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.js';
import { createApiServices, type ApiServices } from '../../api/services.js';
import { loadConfig } from '../../platform/config.js';
import { createDb } from '../../platform/database.js';

/**
 * Services for tests that only build routers: nothing connects until a request uses it (knex, MinIO and Temporal
 * connect lazily), and no request is sent.
 */
export function routerServices(): ApiServices {
  const settings = loadConfig({ FOLIO_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') });
  return createApiServices(settings, createDb(settings.databaseUrl));
}

export interface InProcessApp {
  url: string;
  services: ApiServices;
  server: Server;
  /** What api/server.ts does on SIGTERM, without a ready delay or a grace: drain, close the listener, close. */
  stop(): Promise<void>;
}

/**
 * An app on a loopback port of its own, configured as the suite's APIs are plus `env`, from services of its own (or,
 * to show what sharing them would mean, from `shared`).
 */
export async function startInProcessApp(
  env: Record<string, string> = {},
  shared?: ApiServices,
): Promise<InProcessApp> {
  const settings = loadConfig({ ...process.env, ...env });
  const services = shared ?? createApiServices(settings, createDb(settings.databaseUrl));
  await services.session.open();
  const handle = createApp(services).callback();
  const server = createServer(handle);
  server.on('checkContinue', (req, res) => {
    services.uploadSlots.onExpectContinue(req, res);
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    server,
    async stop() {
      await services.shutdown.run('drain');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.shutdown.run('close');
    },
  };
}
