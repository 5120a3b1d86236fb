// The worker process: runs Folio's workflows and activities on its task queue until SIGTERM/SIGINT.
import '../platform/check-config.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  makeTelemetryFilterString,
} from '@temporalio/worker';
import { permanentFailures } from '../activities/failures.js';
import { activityScope } from '../activities/activity-scope.js';
import { createActivities, type ActivityDeps } from '../activities/index.js';
import { config } from '../platform/config.js';
import { closeDb, db } from '../platform/database.js';
import { logger } from '../platform/logger.js';
import { observeDatabasePool, startMetricsServer } from '../platform/metrics.js';
import { S3ObjectStore } from '../platform/object-store.js';
import { bucket, ensureBucket, storage } from '../platform/storage.js';
import { createWebhookTransport, type WebhookTransport } from '../platform/webhook-transport.js';
import { workflowClient } from '../workflows/client.js';
import { whenAvailable } from '../platform/startup.js';
import { startTracing } from '../platform/tracing.js';
import { temporalConnectionOptions } from '../platform/temporal.js';
import { ensureSchedules } from './schedules.js';
import { workerTracing } from './tracing.js';

// Production images ship a prebuilt bundle (deploy/Dockerfile), built with the workflow interceptors in it, and so
// does the fault suite through FOLIO_WORKFLOW_BUNDLE (its workers restart often); development bundles from source at
// start, with the interceptors named here.
function workflowSource(): {
  code: { workflowBundle: { codePath: string } } | { workflowsPath: string };
  interceptorModules: string[];
} {
  const bundle =
    process.env.FOLIO_WORKFLOW_BUNDLE || fileURLToPath(new URL('../workflow-bundle.js', import.meta.url));
  if (existsSync(bundle)) return { code: { workflowBundle: { codePath: bundle } }, interceptorModules: [] };
  const extension = fileURLToPath(import.meta.url).endsWith('.ts') ? '.ts' : '.js';
  return {
    code: { workflowsPath: fileURLToPath(new URL(`../workflows/index${extension}`, import.meta.url)) },
    interceptorModules: [fileURLToPath(new URL(`../workflows/interceptors${extension}`, import.meta.url))],
  };
}

/** Built once from configuration; `settings` is read again by each activity run, never copied out of it. */
function activityDeps(webhookTransport: WebhookTransport): ActivityDeps {
  return {
    webhookTransport,
    db: db(),
    objects: new S3ObjectStore(storage(), bucket()),
    masterKey: config().masterKey,
    settings: config,
    workflows: workflowClient(),
  };
}

const TEMPORAL_TO_PINO_LEVEL = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
} as const;

async function main() {
  const { metrics } = config();
  Runtime.install({
    logger: new DefaultLogger('INFO', ({ level, message, meta }) =>
      logger[TEMPORAL_TO_PINO_LEVEL[level]]({ category: 'temporal', ...meta }, message),
    ),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) },
      // The SDK's own worker metrics (task slots, poll latency, schedule-to-start, sticky cache) on their own port.
      ...(metrics.temporalPort
        ? { metrics: { prometheus: { bindAddress: `${metrics.host}:${metrics.temporalPort}` } } }
        : {}),
    },
  });
  const tracing = await startTracing('folio-worker');
  const traced = await workerTracing(tracing);
  observeDatabasePool(db());
  const metricsServer = await startMetricsServer(metrics.host, metrics.workerPort);
  const { temporal } = config();
  // Its kept connections outlive any one worker that whenAvailable may build.
  const webhookTransport = createWebhookTransport();
  await whenAvailable('object storage', () => ensureBucket());
  // Temporal may be restarting when this process starts (a deploy, a lost node).
  const { connection, worker } = await whenAvailable('Temporal', async () => {
    const connection = await NativeConnection.connect(temporalConnectionOptions());
    try {
      await ensureSchedules();
      return { connection, worker: await createWorker(connection, traced, webhookTransport) };
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  });
  logger.info({ category: 'lifecycle', task_queue: temporal.taskQueue }, 'worker started');
  await worker.run(); // Runtime shuts the worker down on SIGINT/SIGTERM and run() then resolves.
  await connection.close();
  webhookTransport.close();
  metricsServer?.close();
  await tracing?.shutdown();
  await closeDb();
  logger.info({ category: 'lifecycle' }, 'worker stopped');
}

function createWorker(
  connection: NativeConnection,
  traced: Awaited<ReturnType<typeof workerTracing>>,
  webhookTransport: WebhookTransport,
): Promise<Worker> {
  const { temporal } = config();
  const { code, interceptorModules } = workflowSource();
  return Worker.create({
    connection,
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    ...code,
    activities: createActivities(activityDeps(webhookTransport)),
    // An activity error that no retry can fix ends the activity instead of retrying forever (activities/failures.ts);
    // activities log the id of the request that started their workflow (workflows/interceptors.ts).
    interceptors: {
      activity: [...traced.activity, activityScope, permanentFailures],
      // A prebuilt bundle holds its workflow interceptors already (deploy/workflow-bundle.ts).
      workflowModules: 'workflowBundle' in code ? [] : [...interceptorModules, ...traced.workflowModules],
    },
    sinks: traced.sinks,
    // SIGTERM: no new tasks are polled, and running activities get this long to finish before they are cancelled.
    shutdownGraceTime: config().shutdown.graceMs,
  });
}

main().catch((error) => {
  logger.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
