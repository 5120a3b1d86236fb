// The API process and its composition root: reads the configuration, builds the one services object (api/services.ts)
// that the app and every route are handed, listens (HTTP, or HTTPS with FOLIO_TLS_CERT/KEY, reloaded on SIGHUP), and on
// SIGTERM/SIGINT runs the one shutdown sequence: fails readiness and ends live streams, stops taking connections, gives
// the requests in flight a bounded time to finish, lets the services' clients go, then exits.
import '../platform/check-config.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from './app.js';
import { createListener } from './listener.js';
import { watchEventLoop } from './middleware/request-context.js';
import { createApiServices } from './services.js';
import { config } from '../platform/config.js';
import { createDb } from '../platform/database.js';
import { logger } from '../platform/logger.js';
import {
  observeDatabasePool,
  observeEventLoopDelay,
  observeStoredState,
  startMetricsServer,
} from '../platform/metrics.js';
import { whenAvailable } from '../platform/startup.js';
import { ensureBucket } from '../platform/storage.js';
import { startTracing } from '../platform/tracing.js';
import { startSmtpIngress } from '../ingress/smtp.js';

/** Closing the database, Temporal and tracing after the last connection may take this long before the exit is forced. */
const CLOSE_CLIENTS_MS = 5_000;

// A stray rejected promise (a failed background query, a closed stream) is a bug to log, not a reason to drop every
// request in flight: the process keeps serving. An uncaught exception leaves state unknown, so that one still exits.
process.on('unhandledRejection', (reason) => {
  logger.error({ category: 'process', err: reason }, 'unhandled promise rejection; still serving');
});

async function main() {
  const tracing = await startTracing('folio-api');
  const settings = config();
  const { host, port, http, tls, shutdown } = settings;
  const services = createApiServices(settings, createDb(settings.databaseUrl));
  const { db } = services;
  await whenAvailable('object storage', () =>
    ensureBucket(services.storage.client, services.storage.bucket, settings.storage.region),
  );
  // Held for the process's life: its advisory lock marks its simple uploads as alive, its LISTEN keeps the credential
  // cache honest (platform/process-session.ts).
  await whenAvailable('database', () => services.session.open());
  const handle = createApp(services).callback();
  const listener = createListener(
    { headersTimeoutMs: http.headersTimeoutMs, requestTimeoutMs: http.requestTimeoutMs, tls },
    handle,
  );
  // `Expect: 100-continue`: the simple upload answers it only once it will read the body, so a client learns of a
  // 413 or 503 before sending 100 MB; every other route gets "100 Continue" at once, as Node's default.
  listener.server.on('checkContinue', (req, res) => {
    services.uploadSlots.onExpectContinue(req, res);
    void handle(req, res);
  });
  await new Promise<void>((resolve) => listener.server.listen(port, host, resolve));
  logger.info(
    { category: 'lifecycle', address: `${tls ? 'https' : 'http'}://${host}:${port}` },
    'api listening',
  );
  // Inbound mail stores with this app's pool, object store and transactions, so the services' shutdown lets them go.
  const smtp = await startSmtpIngress({
    settings,
    email: {
      db,
      store: services.content.objects,
      masterKey: settings.masterKey,
      maxBytes: settings.smtp.maxBytes,
      runInTransaction: services.runInTransaction,
    },
  });
  // It stops taking mail when the app begins to stop. A session still open when the pool closes gets a 451, and one
  // cut off by the exit has no answer: either way the sender's MTA delivers the message again later.
  if (smtp) services.shutdown.add('drain', 'smtp ingress', () => smtp.close());
  observeDatabasePool(db);
  observeStoredState(db);
  observeEventLoopDelay();
  watchEventLoop(services.running);
  const metricsServer = await startMetricsServer(settings.metrics.host, settings.metrics.apiPort);
  if (metricsServer)
    logger.info(
      {
        category: 'lifecycle',
        address: `http://${settings.metrics.host}:${settings.metrics.apiPort}/metrics`,
      },
      'metrics listening',
    );

  // A renewed certificate (cert-manager, certbot) is picked up without a restart: new handshakes get it, open
  // connections carry on. A file that cannot be read leaves the old certificate in place.
  process.on('SIGHUP', () => {
    if (!tls) return;
    try {
      listener.reloadCertificate();
      logger.info({ category: 'lifecycle' }, 'tls certificate reloaded');
    } catch (error) {
      logger.error(
        { category: 'lifecycle', err: error },
        'tls certificate reload failed; still serving the previous one',
      );
    }
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Readiness fails first and live streams end; for FOLIO_SHUTDOWN_READY_DELAY the process still serves, while load
    // balancers take it out.
    await services.shutdown.run('drain');
    logger.info(
      { category: 'lifecycle', signal, ready_delay_ms: shutdown.readyDelayMs, grace_ms: shutdown.graceMs },
      'api stopping',
    );
    if (shutdown.readyDelayMs) await sleep(shutdown.readyDelayMs);
    metricsServer?.close();
    const { cutOff } = await listener.close(shutdown.graceMs);
    if (cutOff)
      logger.warn(
        { category: 'lifecycle', connections: cutOff },
        'shutdown grace over; connections still open were closed',
      );
    setTimeout(() => process.exit(1), CLOSE_CLIENTS_MS).unref();
    // The services' clients in their order (api/services.ts), then tracing.
    await services.shutdown.run('close');
    await tracing?.shutdown().catch(() => undefined);
    logger.info({ category: 'lifecycle' }, 'api stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  logger.fatal({ err: error }, 'api failed to start');
  process.exit(1);
});
