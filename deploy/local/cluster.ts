// `npm run cluster`: Folio on the production engine, on this machine — the Temporal server's four services as separate
// processes on PostgreSQL (deploy/temporal/cluster.yaml), MinIO as one erasure set of four drives, two Folio APIs behind
// one entry point (deploy/local/entry-proxy.ts) and two workers. Loopback ports 17233–17299 only; data in
// .tools/cluster/ (FOLIO_CLUSTER_DIR) and the PostgreSQL databases folio_cluster and temporal_cluster(_visibility),
// kept between runs. Ctrl-C stops it all. docs/operations.md § The local cluster.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrateLatest } from '../../db/migrate.js';
import { createDb } from '../../platform/database.js';
import { replicaEnv } from './ephemeral-stack.js';
import { startApi, startWorker, waitForApi } from './folio-processes.js';
import {
  createDatabaseIfMissing,
  ensurePostgres,
  spawnService,
  startMinio,
  stopRecorded,
  stopOnSignals,
} from './services.js';
import {
  CLUSTER_PORTS,
  defaultListeningPort,
  startClusterUi,
  startTemporalCluster,
  type ClusterService,
} from './temporal-cluster.js';
import { ensureClusterTools, ensureTools } from './tools.js';

const DATA = resolve(process.env.FOLIO_CLUSTER_DIR ?? '.tools/cluster');
/** One API on each port of `apis`: deploy/k8s runs as many. */
export const PORTS = {
  entry: 17260,
  apis: [17261, 17262],
  smtp: 17263,
  apiMetrics: 17270,
  workerMetrics: 17271,
  workerTemporalMetrics: 17272,
  minio: 17290,
  minioConsole: 17291,
  temporalUi: 17254,
};
/** The workers, by number: the first logs to worker.log, the others to worker-<n>.log. deploy/k8s runs as many. */
export const WORKER_REPLICAS = [1, 2];
const S3 = { accessKey: 'folio-cluster', secretKey: 'folio-cluster-secret' };

const say = (line: string) => process.stdout.write(`${line}\n`);

/** A service and the port it listens on (the worker service's membership port: it serves no gRPC). */
const servicePort = (service: ClusterService) =>
  `${service}:${defaultListeningPort(service)}${service === 'worker' ? ' (membership)' : ''}`;

async function main() {
  const began = Date.now();
  mkdirSync(DATA, { recursive: true });
  await stopRecorded(DATA); // Whatever an interrupted earlier run left behind, and only that.
  ensureTools(say);
  ensureClusterTools(say);

  const { running, stopAll } = stopOnSignals(say, '\nStopping the Folio cluster (data stays)...');

  try {
    const postgres = await ensurePostgres({
      dataDir: join(DATA, 'postgres'),
      logFile: join(DATA, 'postgres.log'),
    });
    if (postgres.private) running.push({ name: 'postgres', pid: 0, stop: postgres.stop });
    const databaseUrl = `${postgres.serverUrl}/folio_cluster`;
    await createDatabaseIfMissing(postgres.serverUrl, 'folio_cluster');
    const knex = createDb(databaseUrl);
    const applied = await migrateLatest(knex);
    await knex.destroy();
    if (applied.length) say(`Applied Folio migrations: ${applied.join(', ')}`);

    const temporal = await startTemporalCluster({
      serverUrl: postgres.serverUrl,
      database: 'temporal_cluster',
      ports: CLUSTER_PORTS,
      namespace: 'default',
      root: DATA,
      say,
    });
    running.push(...temporal.services);
    const ui = await startClusterUi(DATA, CLUSTER_PORTS.frontend, PORTS.temporalUi);
    running.push(ui.service);
    const minio = await startMinio({
      dataDir: join(DATA, 'minio'),
      drives: 4,
      port: PORTS.minio,
      consolePort: PORTS.minioConsole,
      ...S3,
      logFile: join(DATA, 'minio.log'),
      pidDir: DATA,
    });
    running.push(minio);

    const entryUrl = `http://127.0.0.1:${PORTS.entry}`;
    const env = {
      ...process.env,
      FOLIO_ENV: 'development',
      FOLIO_HOST: '127.0.0.1',
      FOLIO_PORT: String(PORTS.apis[0]),
      FOLIO_SMTP_PORT: String(PORTS.smtp),
      FOLIO_SMTP_SEND_URL: `smtp://127.0.0.1:${PORTS.smtp}`,
      FOLIO_DATABASE_URL: databaseUrl,
      FOLIO_TEMPORAL_ADDRESS: temporal.address,
      FOLIO_S3_ENDPOINT: minio.endpoint,
      FOLIO_S3_ACCESS_KEY: S3.accessKey,
      FOLIO_S3_SECRET_KEY: S3.secretKey,
      FOLIO_S3_BUCKET: 'folio-cluster',
      // Links name the entry point whichever API answers.
      FOLIO_PUBLIC_URL: entryUrl,
      FOLIO_API_URL: entryUrl,
      FOLIO_DOCS_URL: `${entryUrl}/docs`,
      FOLIO_METRICS_PORT: String(PORTS.apiMetrics),
      FOLIO_WORKER_METRICS_PORT: String(PORTS.workerMetrics),
      FOLIO_TEMPORAL_METRICS_PORT: String(PORTS.workerTemporalMetrics),
    };
    for (const replica of WORKER_REPLICAS) {
      const name = replica === 1 ? 'worker' : `worker-${replica}`;
      const workerEnv = replica === 1 ? env : { ...env, ...replicaEnv('worker') };
      running.push(startWorker(workerEnv, join(DATA, `${name}.log`), DATA, name).service);
    }
    for (const [index, port] of PORTS.apis.entries()) {
      const name = index === 0 ? 'api' : `api-${index + 1}`;
      const apiEnv = index === 0 ? env : { ...env, ...replicaEnv('api', port) };
      const api = startApi(apiEnv, join(DATA, `${name}.log`), DATA, name);
      running.push(api.service);
      await waitForApi(`http://127.0.0.1:${port}`, api);
    }
    const proxy = spawnService(
      'entry-proxy',
      process.execPath,
      [
        '--import',
        'tsx',
        resolve('deploy/local/entry-proxy.ts'),
        String(PORTS.entry),
        ...PORTS.apis.map(String),
      ],
      { logFile: join(DATA, 'entry-proxy.log'), pidDir: DATA },
    );
    running.push(proxy.service);
    await waitForApi(entryUrl, proxy);

    say('');
    say(`Folio cluster is up (${Math.round((Date.now() - began) / 1000)} s).`);
    say(`  Entry point        ${entryUrl}  (round robin over the two APIs)`);
    say(`  APIs               ${PORTS.apis.map((p) => `http://127.0.0.1:${p}`).join('  ')}`);
    say(`  Workers            2 (worker.log, worker-2.log), task queue folio`);
    say(
      `  Temporal frontend  ${temporal.address}  namespace default (temporal --address ${temporal.address} ...)`,
    );
    say(
      `  Temporal services  ${temporal.services.map((s) => servicePort(s.name.replace('temporal-', '') as ClusterService)).join('  ')}  (4 history shards)`,
    );
    say(
      `  Temporal UI        ${ui.url}  (deliveries by FolioWebhookDestination, FolioWebhookEvent, FolioMailbox, FolioWebhookOutcome)`,
    );
    say(
      `  PostgreSQL         ${postgres.serverUrl}  databases folio_cluster, temporal_cluster, temporal_cluster_visibility`,
    );
    say(
      `  MinIO              ${minio.endpoint}  (erasure set of 4 drives in ${join(DATA, 'minio')}; console ${minio.consoleUrl})`,
    );
    say(`  Logs and pids      ${DATA}`);
    say('Ctrl-C stops everything; data stays.');
  } catch (error) {
    say(
      `The cluster failed to start: ${error instanceof Error ? error.message : String(error)}; logs in ${DATA}`,
    );
    await stopAll();
    process.exit(1);
  }
}

// Run, not imported: the manifests' test reads the replica counts above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
