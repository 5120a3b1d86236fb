// The production engine on this machine: the Temporal server's four services (frontend, history, matching, worker) as
// separate processes of go.temporal.io/server on PostgreSQL, with SQL visibility, from deploy/temporal/cluster.yaml.
// `npm run cluster` (deploy/local/cluster.ts) and the suites' FOLIO_TEST_CLUSTER=1 option (deploy/local/ephemeral-stack.ts)
// start it; docs/cluster.md describes it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import pg from 'pg';
import { SEARCH_ATTRIBUTES } from '../../workflows/registry.js';
import { createDatabaseIfMissing, freePort, spawnService, stopPid, type RunningService } from './services.js';
import { TEMPORAL_SERVER_MODULE, toolPath } from './tools.js';

export const CLUSTER_SERVICES = ['history', 'matching', 'frontend', 'worker'] as const;
export type ClusterService = (typeof CLUSTER_SERVICES)[number];

/** The ports of `npm run cluster` (loopback only), the defaults of deploy/temporal/cluster.yaml. */
export const CLUSTER_PORTS = {
  frontend: 17233,
  history: 17234,
  matching: 17235,
  worker: 17239,
  frontendMembership: 17243,
  historyMembership: 17244,
  matchingMembership: 17245,
  workerMembership: 17249,
  frontendHttp: 17253,
  metrics: { frontend: 17280, history: 17281, matching: 17282, worker: 17283 },
};
export type ClusterPorts = typeof CLUSTER_PORTS;

// Every port below 32768 (freePort): the SQL schema keeps a host's membership port in a smallint column
// (cluster_membership.rpc_port), so a port from the kernel's ephemeral range would fail the host's start.
export async function freeClusterPorts(): Promise<ClusterPorts> {
  const next = freePort;
  return {
    frontend: await next(),
    history: await next(),
    matching: await next(),
    worker: await next(),
    frontendMembership: await freePort(),
    historyMembership: await freePort(),
    matchingMembership: await freePort(),
    workerMembership: await freePort(),
    frontendHttp: await next(),
    metrics: { frontend: await next(), history: await next(), matching: await next(), worker: await next() },
  };
}

export interface ClusterOptions {
  /** PostgreSQL server URL without a database (services.ts ensurePostgres). */
  serverUrl: string;
  /** The persistence database; the visibility database is <database>_visibility. */
  database: string;
  ports: ClusterPorts;
  namespace: string;
  /** Logs (temporal-<service>.log), pid files and temporal-cluster.json, which restartClusterService reads. */
  root: string;
  /** Started processes do not keep the caller alive; they are stopped through their pid files. */
  unref?: boolean;
  say?: (line: string) => void;
}

interface ClusterRecord {
  env: Record<string, string>;
  metrics: ClusterPorts['metrics'];
}

/** Where `go install` of the server left its source: the PostgreSQL v12 schemas come with it. */
function schemaDir(): string {
  const modCache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  const dir = join(modCache, TEMPORAL_SERVER_MODULE, 'schema', 'postgresql', 'v12');
  if (!existsSync(dir))
    execFileSync('go', ['mod', 'download', TEMPORAL_SERVER_MODULE], { stdio: 'ignore', env: process.env });
  return dir;
}

async function hasSchema(serverUrl: string, database: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${serverUrl}/${database}` });
  await client.connect();
  try {
    const { rows } = await client.query(`select to_regclass('public.schema_version') is not null as present`);
    return Boolean(rows[0]?.present);
  } finally {
    await client.end();
  }
}

/**
 * Creates the persistence and visibility databases if missing and brings both to the server's schema version with
 * temporal-sql-tool: setup-schema once on a new database, then update-schema, which applies only newer versions.
 */
async function prepareClusterDatabases(serverUrl: string, database: string): Promise<void> {
  const url = new URL(serverUrl);
  const dir = schemaDir();
  for (const [name, schema] of [
    [database, 'temporal'],
    [`${database}_visibility`, 'visibility'],
  ] as const) {
    await createDatabaseIfMissing(serverUrl, name);
    const tool = (args: string[]) =>
      execFileSync(
        toolPath('temporal-sql-tool'),
        [
          '--plugin',
          'postgres12',
          '--ep',
          url.hostname,
          '-p',
          url.port || '5432',
          '-u',
          decodeURIComponent(url.username) || 'postgres',
          '--db',
          name,
          ...args,
        ],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, SQL_PASSWORD: decodeURIComponent(url.password) },
        },
      );
    if (!(await hasSchema(serverUrl, name))) tool(['setup-schema', '-v', '0.0']);
    tool(['update-schema', '-d', join(dir, schema, 'versioned')]);
  }
}

/** The variables deploy/temporal/cluster.yaml reads, for every process of the cluster. */
function clusterEnv(options: ClusterOptions): Record<string, string> {
  const url = new URL(options.serverUrl);
  const { ports } = options;
  return {
    FOLIO_CLUSTER_PG_ADDR: `${url.hostname}:${url.port || '5432'}`,
    FOLIO_CLUSTER_PG_USER: decodeURIComponent(url.username) || 'postgres',
    FOLIO_CLUSTER_PG_PASSWORD: decodeURIComponent(url.password),
    FOLIO_CLUSTER_DB: options.database,
    FOLIO_CLUSTER_VISIBILITY_DB: `${options.database}_visibility`,
    FOLIO_CLUSTER_FRONTEND_PORT: String(ports.frontend),
    FOLIO_CLUSTER_HISTORY_PORT: String(ports.history),
    FOLIO_CLUSTER_MATCHING_PORT: String(ports.matching),
    FOLIO_CLUSTER_WORKER_PORT: String(ports.worker),
    FOLIO_CLUSTER_FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
    FOLIO_CLUSTER_HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
    FOLIO_CLUSTER_MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
    FOLIO_CLUSTER_WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
    FOLIO_CLUSTER_FRONTEND_HTTP_PORT: String(ports.frontendHttp),
    FOLIO_CLUSTER_DYNAMIC_CONFIG: resolve('deploy/temporal/dynamicconfig.yaml'),
  };
}

/**
 * What follows the configuration's location in a service's command line: the `cluster` environment (the server reads
 * <config>/cluster.yaml) and the one service the process runs. deploy/k8s/temporal.yaml starts each service so.
 */
export const serviceStartArgs = (service: ClusterService) => [
  '--env',
  'cluster',
  '--allow-no-auth',
  'start',
  '--service',
  service,
];

function startService(
  root: string,
  record: ClusterRecord,
  service: ClusterService,
  unref?: boolean,
  host: { name: string; env: Record<string, string> } = { name: `temporal-${service}`, env: {} },
) {
  return spawnService(
    host.name,
    toolPath('temporal-server'),
    ['--root', resolve('.'), '--config', 'deploy/temporal', ...serviceStartArgs(service)],
    {
      env: {
        ...process.env,
        ...record.env,
        FOLIO_CLUSTER_METRICS_PORT: String(record.metrics[service]),
        ...host.env,
      },
      logFile: join(root, `${host.name}.log`),
      pidDir: root,
      unref,
    },
  );
}

const recordFile = (root: string) => join(root, 'temporal-cluster.json');

async function until(what: string, check: () => Promise<unknown>, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000}s: ${String(last)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const KEYWORD = 2; // temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD
const ALREADY_EXISTS = 6; // gRPC status code

/**
 * Registers the namespace (once) and Folio's search attributes in its SQL visibility (each once), then waits until a
 * visibility query by them is accepted: the frontend's namespace cache takes up to its refresh interval to see both.
 */
async function registerNamespace(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 5_000 });
  try {
    await until('the namespace was not registered', async () => {
      try {
        await connection.workflowService.registerNamespace({
          namespace,
          workflowExecutionRetentionPeriod: msToTs('3 days'),
        });
      } catch (error) {
        if ((error as { code?: number }).code !== ALREADY_EXISTS) throw error;
      }
    });
    await until('the search attributes were not added', async () => {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      const missing = SEARCH_ATTRIBUTES.filter((key) => !(key.name in (customAttributes ?? {})));
      if (missing.length)
        await connection.operatorService.addSearchAttributes({
          namespace,
          searchAttributes: Object.fromEntries(missing.map((key) => [key.name, KEYWORD])),
        });
    });
    await until('visibility did not accept a query by Folio search attributes', () =>
      connection.workflowService.listWorkflowExecutions({
        namespace,
        pageSize: 1,
        query: SEARCH_ATTRIBUTES.map((key) => `${key.name} = "probe"`).join(' AND '),
      }),
    );
  } finally {
    await connection.close();
  }
}

export interface RunningCluster {
  address: string;
  services: RunningService[];
  stop(): Promise<void>;
}

/** Prepares the databases, starts the four services, and registers the namespace and search attributes. */
export async function startTemporalCluster(options: ClusterOptions): Promise<RunningCluster> {
  const say = options.say ?? (() => undefined);
  say(`Temporal cluster: preparing databases ${options.database} and ${options.database}_visibility`);
  await prepareClusterDatabases(options.serverUrl, options.database);
  const record: ClusterRecord = { env: clusterEnv(options), metrics: options.ports.metrics };
  writeFileSync(recordFile(options.root), JSON.stringify(record, null, 2));
  // History first, alone: each service writes the cluster's metadata at its first start on new databases, and of
  // services starting at once the losers of that insert exit ("failed to initialize current cluster metadata").
  const first = startService(options.root, record, 'history', options.unref);
  const started = [first];
  try {
    await listening('temporal-history', options.ports.history, first.child);
  } catch (error) {
    await first.service.stop();
    throw error;
  }
  for (const service of CLUSTER_SERVICES.filter((s) => s !== 'history'))
    started.push(startService(options.root, record, service, options.unref));
  const address = `127.0.0.1:${options.ports.frontend}`;
  say(`Temporal cluster: four services started; waiting for the frontend at ${address}`);
  try {
    await until('the frontend did not answer', async () => {
      const exited = started.find((s) => s.child.exitCode !== null);
      if (exited) throw new Error(`${exited.service.name} exited with code ${exited.child.exitCode}`);
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
      } finally {
        await connection.close();
      }
    });
    await registerNamespace(address, options.namespace);
  } catch (error) {
    for (const s of started) await s.service.stop();
    throw error;
  }
  const services = started.map((s) => s.service);
  return {
    address,
    services,
    async stop() {
      // The frontend first, so no new work arrives; history last, as it owns the shards.
      for (const service of [...services].reverse()) await service.stop();
    },
  };
}

const pidOf = (root: string, service: ClusterService) =>
  Number(readFileSync(join(root, `temporal-${service}.pid`), 'utf8').split('\n')[0]);

/** SIGKILLs one service of the cluster a stack started in root (the fault suite). */
export function killClusterService(root: string, service: ClusterService): void {
  try {
    process.kill(pidOf(root, service), 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Starts one service of the cluster in root again, with the configuration it started with; with `graceful`, stops it
 * first (SIGTERM, SIGKILL after a grace period). The new process is stopped through its pid file by the stack's stop().
 */
export async function restartClusterService(
  root: string,
  service: ClusterService,
  options: { graceful?: boolean } = {},
): Promise<void> {
  if (options.graceful) await stopPid(pidOf(root, service));
  const record = JSON.parse(readFileSync(recordFile(root), 'utf8')) as ClusterRecord;
  // A service that fails its start (PostgreSQL out of connections, its old membership entry not yet expired) exits;
  // it is started again, as a supervisor would, up to five times.
  for (let attempt = 1; ; attempt++) {
    const { child } = startService(root, record, service, true);
    try {
      // A service is back when it listens again; history then takes its shards back through membership.
      await listening(`temporal-${service}`, listensOn(service, recordedPorts(record, service)), child);
      return;
    } catch (error) {
      if (child.exitCode === null || attempt === 5) throw error;
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
}

/**
 * The port a service listens on once it runs: its gRPC port, except for the worker service, which serves no gRPC (it
 * is a client of the frontend that runs Temporal's system workflows) and only joins the ring on its membership port.
 * The probes of deploy/k8s/temporal.yaml check the same ports.
 */
const listensOn = (service: ClusterService, ports: { grpc: number; membership: number }) =>
  service === 'worker' ? ports.membership : ports.grpc;

/** The port a service of `npm run cluster` listens on once it runs (CLUSTER_PORTS, the defaults of cluster.yaml). */
export const defaultListeningPort = (service: ClusterService) =>
  listensOn(service, { grpc: CLUSTER_PORTS[service], membership: CLUSTER_PORTS[`${service}Membership`] });

const recordedPorts = (record: ClusterRecord, service: ClusterService) => ({
  grpc: Number(record.env[`FOLIO_CLUSTER_${service.toUpperCase()}_PORT`]),
  membership: Number(record.env[`FOLIO_CLUSTER_${service.toUpperCase()}_MEMBERSHIP_PORT`]),
});

async function listening(name: string, port: number, child: { exitCode: number | null }): Promise<void> {
  await until(`${name} did not listen`, async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    await new Promise<void>((done, fail) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        done();
      });
      socket.on('error', fail);
    });
  });
}

/**
 * Starts a second history host, `temporal-history-2`, on ports of its own: it joins the ring through the membership
 * table in PostgreSQL and takes over part of the shards, and all of them once the first host is gone (the fault suite).
 */
export async function startSecondHistoryHost(root: string): Promise<void> {
  const record = JSON.parse(readFileSync(recordFile(root), 'utf8')) as ClusterRecord;
  const [grpc, membership, metrics] = [await freePort(), await freePort(), await freePort()];
  const { child } = startService(root, record, 'history', true, {
    name: 'temporal-history-2',
    env: {
      FOLIO_CLUSTER_HISTORY_PORT: String(grpc),
      FOLIO_CLUSTER_HISTORY_MEMBERSHIP_PORT: String(membership),
      FOLIO_CLUSTER_METRICS_PORT: String(metrics),
    },
  });
  await listening('temporal-history-2', grpc, child);
}

/** Each history shard's range id: it grows by one every time a host acquires the shard. */
export async function shardRangeIds(root: string): Promise<Map<number, number>> {
  const { env } = JSON.parse(readFileSync(recordFile(root), 'utf8')) as ClusterRecord;
  const client = new pg.Client({
    host: env.FOLIO_CLUSTER_PG_ADDR!.split(':')[0],
    port: Number(env.FOLIO_CLUSTER_PG_ADDR!.split(':')[1]),
    user: env.FOLIO_CLUSTER_PG_USER,
    password: env.FOLIO_CLUSTER_PG_PASSWORD || undefined,
    database: env.FOLIO_CLUSTER_DB,
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ shard_id: number; range_id: string }>(
      'select shard_id, range_id from shards order by shard_id',
    );
    return new Map(rows.map((row) => [Number(row.shard_id), Number(row.range_id)]));
  } finally {
    await client.end();
  }
}

/**
 * Starts the Temporal UI (`temporal-ui`, deploy/temporal/ui.yaml) against the cluster's frontend, on loopback `port`;
 * answers its address once it serves. Its log is temporal-ui.log in root, and its pid file lets a stack's stop() end it.
 */
export async function startClusterUi(
  root: string,
  frontendPort: number,
  port: number,
  unref?: boolean,
): Promise<{ url: string; service: RunningService }> {
  const { child, service } = spawnService(
    'temporal-ui',
    toolPath('temporal-ui'),
    ['--root', resolve('.'), '--config', 'deploy/temporal', '--env', 'ui', 'start'],
    {
      env: {
        ...process.env,
        FOLIO_CLUSTER_FRONTEND_PORT: String(frontendPort),
        FOLIO_CLUSTER_UI_PORT: String(port),
      },
      logFile: join(root, 'temporal-ui.log'),
      pidDir: root,
      unref,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await until('the Temporal UI did not answer', async () => {
    if (child.exitCode !== null) throw new Error(`temporal-ui exited with code ${child.exitCode}`);
    const answer = await fetch(`${url}/api/v1/settings`);
    if (!answer.ok) throw new Error(`GET /api/v1/settings answered ${answer.status}`);
  });
  return { url, service };
}

/** Whether the stack in root runs the cluster (a temporal-cluster.json there) rather than the dev server. */
export const runsCluster = (root: string): boolean => existsSync(recordFile(root));
