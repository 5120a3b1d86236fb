// The worker process: runs Folio's workflows and activities on its task queue until SIGTERM/SIGINT.
import '../platform/check-config.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { config } from '../platform/config.js';
import { closeDb, db } from '../platform/database.js';
import { logger } from '../platform/logger.js';
import { bucket, ensureBucket, storage } from '../platform/storage.js';
import { workflowClient } from '../workflows/client.js';
import { ensureSchedules } from './schedules.js';

// Production images ship a prebuilt bundle (deploy/Dockerfile); development bundles from source at start.
function workflowSource(): { workflowBundle: { codePath: string } } | { workflowsPath: string } {
  const bundle = fileURLToPath(new URL('../workflow-bundle.js', import.meta.url));
  if (existsSync(bundle)) return { workflowBundle: { codePath: bundle } };
  const here = fileURLToPath(import.meta.url);
  return { workflowsPath: fileURLToPath(new URL(`../workflows/index${here.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)) };
}

const TEMPORAL_TO_PINO_LEVEL = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

async function main() {
  Runtime.install({
    logger: new DefaultLogger('INFO', ({ level, message, meta }) =>
      logger[TEMPORAL_TO_PINO_LEVEL[level]]({ category: 'temporal', ...meta }, message),
    ),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) } },
  });
  const { temporal } = config();
  await ensureBucket();
  const connection = await NativeConnection.connect({ address: temporal.address });
  await ensureSchedules();
  const worker = await Worker.create({
    connection,
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    ...workflowSource(),
    activities: createActivities({ db: db(), storage: storage(), bucket: bucket(), masterKey: config().masterKey, settings: config, workflows: workflowClient() }),
    shutdownGraceTime: '10 seconds',
  });
  logger.info({ category: 'lifecycle', task_queue: temporal.taskQueue }, 'worker started');
  await worker.run(); // Runtime shuts the worker down on SIGINT/SIGTERM and run() then resolves.
  await connection.close();
  await closeDb();
  logger.info({ category: 'lifecycle' }, 'worker stopped');
}

main().catch((error) => {
  logger.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
