// The API process: listens, and on SIGTERM/SIGINT stops taking requests, finishes those in flight, then exits.
import '../platform/check-config.js';
import { createServer } from 'node:http';
import { createApp } from './app.js';
import { onExpectContinue } from './middleware/upload-slots.js';
import { config } from '../platform/config.js';
import { closeDb, db } from '../platform/database.js';
import { logger } from '../platform/logger.js';
import { observeDatabasePool, observeStoredState, startMetricsServer } from '../platform/metrics.js';
import { closeProcessSession, processSession } from '../platform/process-session.js';
import { ensureBucket } from '../platform/storage.js';
import { closeTemporalClient } from '../platform/temporal.js';
import { startTracing } from '../platform/tracing.js';
import { startSmtpIngress } from '../ingress/smtp.js';

const SHUTDOWN_GRACE_MS = 10_000;

// A stray rejected promise (a failed background query, a closed stream) is a bug to log, not a reason to drop every
// request in flight: the process keeps serving. An uncaught exception leaves state unknown, so that one still exits.
process.on('unhandledRejection', (reason) => {
  logger.error({ category: 'process', err: reason }, 'unhandled promise rejection; still serving');
});

async function main() {
  const tracing = await startTracing('folio-api');
  const { host, port, http } = config();
  await ensureBucket();
  // Held for the process's life: its advisory lock marks its simple uploads as alive, its LISTEN keeps the credential
  // cache honest (platform/process-session.ts).
  await processSession().open();
  // A client that trickles its headers or its body cannot hold a socket (and a body buffer) forever. Node checks
  // both timeouts on an interval, so the interval must be well below the shorter one.
  const handle = createApp().callback();
  const server = createServer(
    {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: Math.max(http.requestTimeoutMs, http.headersTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, Math.ceil(http.headersTimeoutMs / 2)),
    },
    handle,
  );
  // `Expect: 100-continue`: the simple upload answers it only once it will read the body, so a client learns of a
  // 413 or 503 before sending 100 MB; every other route gets "100 Continue" at once, as Node's default.
  server.on('checkContinue', (req, res) => {
    onExpectContinue(req, res);
    void handle(req, res);
  });
  // An idle keep-alive connection is closed after this; a client may reuse it at that very moment and lose its request
  // (EPIPE), and a client whose timers run late (a busy process) sees that often at Node's 5 s default. Above the 60 s
  // idle timeout of common load balancers, as their guides recommend.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  logger.info({ category: 'lifecycle', address: `http://${host}:${port}` }, 'api listening');
  await startSmtpIngress();
  observeDatabasePool(db());
  observeStoredState(db());
  const metricsServer = await startMetricsServer(config().metrics.host, config().metrics.apiPort);
  if (metricsServer) logger.info({ category: 'lifecycle', address: `http://${config().metrics.host}:${config().metrics.apiPort}/metrics` }, 'metrics listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ category: 'lifecycle', signal }, 'api stopping');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    metricsServer?.close();
    server.close(async () => {
      await Promise.allSettled([closeDb(), closeProcessSession(), closeTemporalClient(), tracing?.shutdown()]);
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error) => {
  logger.fatal({ err: error }, 'api failed to start');
  process.exit(1);
});
