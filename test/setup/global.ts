// Integration suite global setup: real, ephemeral services for this run only: a fresh PostgreSQL database,
// an in-memory Temporal dev server and MinIO on a temporary folder, all on free ports, then Folio's worker and
// API as child processes. Test files read the environment through test/support/stack.ts.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../platform/database.js';
import { migrateLatest } from '../../db/migrate.js';
import { ensureTools } from '../../deploy/local/tools.js';
import { createDatabaseIfMissing, dropDatabase, ensurePostgres, freePort, startMinio, startTemporal, stopRecorded } from '../../deploy/local/services.js';
import { startApi, startWorker, waitForApi } from '../../deploy/local/folio-processes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  ensureTools();
  const root = mkdtempSync(join(tmpdir(), 'folio-test-'));
  chmodSync(root, 0o755); // A private PostgreSQL cluster runs as the postgres user and must reach its folder.
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop().catch((error) => console.error(error));
    if (!process.env.FOLIO_TEST_KEEP) rmSync(root, { recursive: true, force: true });
  };

  try {
    const postgres = await ensurePostgres({
      dataDir: join(root, 'pg'),
      logFile: join(root, 'postgres.log'),
      preferPrivate: process.env.FOLIO_TEST_PRIVATE_POSTGRES === '1',
    });
    stops.push(postgres.stop);
    const database = `folio_test_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(postgres.serverUrl, database);
    stops.push(() => dropDatabase(postgres.serverUrl, database));

    const [temporalPort, uiPort, minioPort, consolePort, apiPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const [temporal, minio] = await Promise.all([
      startTemporal({ port: temporalPort, uiPort, logFile: join(root, 'temporal.log') }),
      startMinio({ dataDir: join(root, 'minio'), port: minioPort, consolePort, accessKey: 'folio-test', secretKey: 'folio-test-secret', logFile: join(root, 'minio.log') }),
    ]);
    stops.push(temporal.stop, minio.stop);

    const env: Record<string, string> = {
      FOLIO_ENV: 'test',
      FOLIO_LOG_LEVEL: process.env.FOLIO_LOG_LEVEL ?? 'info',
      FOLIO_HOST: '127.0.0.1',
      FOLIO_PORT: String(apiPort),
      FOLIO_DATABASE_URL: `${postgres.serverUrl}/${database}`,
      FOLIO_TEMPORAL_ADDRESS: temporal.address,
      FOLIO_TASK_QUEUE: 'folio-test',
      FOLIO_S3_ENDPOINT: minio.endpoint,
      FOLIO_S3_ACCESS_KEY: 'folio-test',
      FOLIO_S3_SECRET_KEY: 'folio-test-secret',
      FOLIO_S3_BUCKET: 'folio-test',
      FOLIO_MASTER_KEY: randomBytes(32).toString('base64'),
      FOLIO_TEST_ROOT: root,
      FOLIO_API_URL: `http://127.0.0.1:${apiPort}`,
      FOLIO_TEMPORAL_UI_URL: temporal.uiUrl,
      // Durations the spec fixes, shortened so lifecycle tests run in seconds.
      FOLIO_UPLOAD_EXPIRY: process.env.FOLIO_UPLOAD_EXPIRY ?? '8s',
      FOLIO_FILE_VERSION_RETENTION: process.env.FOLIO_FILE_VERSION_RETENTION ?? '4s',
      FOLIO_DOCUMENT_TRASH_RETENTION: process.env.FOLIO_DOCUMENT_TRASH_RETENTION ?? '4s',
    };

    const knex = createDb(env.FOLIO_DATABASE_URL);
    await migrateLatest(knex);
    await knex.destroy();

    const processEnv = { ...process.env, ...env };
    // Pid files in the test root let tests kill and restart the worker (test/support/worker.ts), and let
    // teardown stop whichever worker is current.
    stops.push(() => stopRecorded(root));
    startWorker(processEnv, join(root, 'worker.log'), root);
    const api = startApi(processEnv, join(root, 'api.log'), root);
    await waitForApi(env.FOLIO_API_URL!, api);

    project.provide('stackEnv', env);
  } catch (error) {
    process.env.FOLIO_TEST_KEEP = '1';
    console.error(`Integration stack failed to start; logs kept in ${root}`);
    await teardown();
    throw error;
  }
  return teardown;
}
