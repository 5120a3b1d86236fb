// The API process: listens, and on SIGTERM/SIGINT stops taking requests, finishes those in flight, then exits.
import '../platform/check-config.js';
import { createServer } from 'node:http';
import { createApp } from './app.js';
import { config } from '../platform/config.js';
import { closeDb } from '../platform/database.js';
import { logger } from '../platform/logger.js';
import { ensureBucket } from '../platform/storage.js';
import { closeTemporalClient } from '../platform/temporal.js';
import { startSmtpIngress } from '../ingress/smtp.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  const { host, port } = config();
  await ensureBucket();
  const server = createServer(createApp().callback());
  server.requestTimeout = 0; // Large uploads stream for minutes; idle sockets are still reaped by keepAliveTimeout.
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  logger.info({ category: 'lifecycle', address: `http://${host}:${port}` }, 'api listening');
  await startSmtpIngress();

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ category: 'lifecycle', signal }, 'api stopping');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    server.close(async () => {
      await Promise.allSettled([closeDb(), closeTemporalClient()]);
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
