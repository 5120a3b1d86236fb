// A throw-away Folio stack on free ports, removed by stop(): a fresh PostgreSQL database, an in-memory
// Temporal dev server (or one keeping its data in a SQLite file, with `persistentTemporal`), MinIO on a temporary
// folder, then the worker and API as child processes. The integration suite (test/setup/global.ts), the fault suite
// (test/faults/) and the benchmarks (bench/) run on it.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateLatest } from '../../db/migrate.js';
import { createDb } from '../../platform/database.js';
import { startApi, startWorker, waitForApi } from './folio-processes.js';
import {
  createDatabaseIfMissing,
  dropDatabase,
  ensurePostgres,
  freePort,
  startMinio,
  startOnFreshPorts,
  startTemporal,
  stopPid,
  stopRecorded,
  type RunningService,
} from './services.js';
import {
  CLUSTER_SERVICES,
  freeClusterPorts,
  restartClusterService,
  runsCluster,
  startTemporalCluster,
} from './temporal-cluster.js';
import { ensureClusterTools, ensureTools } from './tools.js';

export interface EphemeralStack {
  /** The temporary folder: logs (api.log, worker.log, …) and pid files. */
  root: string;
  /** The Folio configuration of the stack's processes. */
  env: Record<string, string>;
  apiUrl: string;
  /** Every API process's address, the first being apiUrl (more than one with `replicas`). */
  apiUrls: string[];
  databaseUrl: string;
  stop(): Promise<void>;
}

export interface EphemeralStackOptions {
  /** Names the temporary folder, database, bucket and task queue: folio-<label>-…. */
  label: string;
  /** Extra Folio configuration for the worker and API (durations, log level). */
  env?: Record<string, string>;
  /** Start a worker too (default true). */
  worker?: boolean;
  /** Use a private PostgreSQL cluster even when one answers on 127.0.0.1:5432. */
  preferPrivatePostgres?: boolean;
  /** Keep the temporary folder and its logs after stop(). */
  keep?: boolean;
  /**
   * API processes and workers of each kind (default 1). Replicas share the database, Temporal, the bucket and the task
   * queue; they differ only in the API port, and leave the ports only one process can hold (SMTP, metrics) to the first.
   */
  replicas?: number;
  /** Serve the API over HTTPS with this certificate and key, issued by the authority in caFile (test/support/test-ca.ts). */
  tls?: { certFile: string; keyFile: string; caFile: string };
  /**
   * Temporal keeps its data in root/temporal.sqlite, and Temporal and MinIO get pid files in root, so that
   * restartTemporal and restartMinio can stop either and start it again, data kept (the fault suite).
   */
  persistentTemporal?: boolean;
  /**
   * The production engine instead of the dev server (FOLIO_TEST_CLUSTER=1): Temporal's four services as processes on
   * this stack's PostgreSQL (deploy/local/temporal-cluster.ts) and MinIO as an erasure set of four drives, each with
   * a pid file in root so the fault suite can kill and restart any of them.
   */
  cluster?: boolean;
}

/** What a second (third, …) process of a kind changes in the stack's configuration. */
export function replicaEnv(kind: 'api' | 'worker', apiPort?: number): Record<string, string> {
  return kind === 'api'
    ? { FOLIO_PORT: String(apiPort), FOLIO_SMTP_PORT: '0', FOLIO_METRICS_PORT: '0' }
    : { FOLIO_WORKER_METRICS_PORT: '0', FOLIO_TEMPORAL_METRICS_PORT: '0' };
}

export async function startEphemeralStack(options: EphemeralStackOptions): Promise<EphemeralStack> {
  ensureTools();
  const root = mkdtempSync(join(tmpdir(), `folio-${options.label}-`));
  chmodSync(root, 0o755); // A private PostgreSQL cluster runs as the postgres user and must reach its folder.
  const stops: (() => Promise<void>)[] = [];
  // What SIGINT or SIGTERM of this process stops, besides the processes root's pid files name.
  const unrecorded: { pid: number; cmdline?: string }[] = [];
  let stopPrivatePostgres: (() => void) | undefined;
  const release = stopOnSignals(() => {
    // Twice: a test may start a process (a restarted service) while the first pass waits for the others to exit.
    for (let pass = 0; pass < 2; pass++) killNow([...unrecorded, ...recorded(root)]);
    stopPrivatePostgres?.();
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  });
  const stop = async () => {
    release();
    for (const step of stops.reverse()) await step().catch((error) => console.error(error));
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  };

  try {
    const postgres = await ensurePostgres({
      dataDir: join(root, 'pg'),
      logFile: join(root, 'postgres.log'),
      preferPrivate: options.preferPrivatePostgres,
    });
    stops.push(postgres.stop);
    // Its stop runs pg_ctl synchronously (execFileSync) before the promise it answers: done when the call returns.
    if (postgres.private) stopPrivatePostgres = () => void postgres.stop().catch(() => undefined);
    const database = `folio_${options.label}_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(postgres.serverUrl, database);
    stops.push(() => dropDatabase(postgres.serverUrl, database));
    const databaseUrl = `${postgres.serverUrl}/${database}`;
    const knex = createDb(databaseUrl);
    await migrateLatest(knex);
    await knex.destroy();

    const [apiPort, smtpPort] = await Promise.all([freePort(), freePort()]);
    const [metricsPort, workerMetricsPort, temporalMetricsPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
    ]);
    const s3 = { accessKey: `folio-${options.label}`, secretKey: `folio-${options.label}-secret` };
    const restartable =
      options.persistentTemporal || options.cluster ? { dbFile: temporalDbFile(root), pidDir: root } : {};
    if (options.cluster) {
      ensureClusterTools();
      stops.push(async () => {
        await dropDatabase(postgres.serverUrl, `${database}_temporal`);
        await dropDatabase(postgres.serverUrl, `${database}_temporal_visibility`);
      });
      // If one of the two starts below fails, the other's processes are still stopped, through their pid files.
      stops.push(() => stopRecorded(root));
    }
    // Each service is stopped with the stack from the moment it is up, so that when the other fails to start,
    // stop() still ends it.
    const track = <S extends { stop(): Promise<void>; pid?: number; services?: RunningService[] }>(
      service: S,
    ): S => {
      stops.push(service.stop);
      for (const { pid } of service.services ?? [{ pid: service.pid! }])
        unrecorded.push({ pid, cmdline: cmdlineOf(pid) });
      return service;
    };
    const temporalLog = join(root, 'temporal.log');
    const minioLog = join(root, 'minio.log');
    const [temporal, minio] = await Promise.all([
      options.cluster
        ? startTemporalCluster({
            serverUrl: postgres.serverUrl,
            database: `${database}_temporal`,
            ports: await freeClusterPorts(),
            namespace: 'default',
            root,
          })
            .then((cluster) => ({ ...cluster, uiUrl: '' }))
            .then(track)
        : startOnFreshPorts(temporalLog, async () =>
            startTemporal({
              port: await freePort(),
              uiPort: await freePort(),
              logFile: temporalLog,
              ...restartable,
            }),
          ).then(track),
      startOnFreshPorts(minioLog, async () =>
        startMinio({
          dataDir: join(root, 'minio'),
          port: await freePort(),
          consolePort: await freePort(),
          ...s3,
          logFile: minioLog,
          pidDir: restartable.pidDir,
          drives: options.cluster ? 4 : undefined,
        }),
      ).then(track),
    ]);

    const scheme = options.tls ? 'https' : 'http';
    const ca = options.tls ? readFileSync(options.tls.caFile) : undefined;
    const apiUrl = `${scheme}://127.0.0.1:${apiPort}`;
    const env: Record<string, string> = {
      FOLIO_ENV: 'test',
      FOLIO_LOG_LEVEL: 'info',
      FOLIO_HOST: '127.0.0.1',
      FOLIO_PORT: String(apiPort),
      FOLIO_SMTP_PORT: String(smtpPort),
      // Outgoing mail (admin sign-in links) goes to this stack's own inbound SMTP: it never leaves the machine.
      FOLIO_SMTP_SEND_URL: `smtp://127.0.0.1:${smtpPort}`,
      FOLIO_DATABASE_URL: databaseUrl,
      FOLIO_TEMPORAL_ADDRESS: temporal.address,
      FOLIO_TEMPORAL_UI_URL: temporal.uiUrl,
      FOLIO_TASK_QUEUE: `folio-${options.label}`,
      FOLIO_S3_ENDPOINT: minio.endpoint,
      FOLIO_S3_ACCESS_KEY: s3.accessKey,
      FOLIO_S3_SECRET_KEY: s3.secretKey,
      FOLIO_S3_BUCKET: `folio-${options.label}`,
      FOLIO_MASTER_KEY: randomBytes(32).toString('base64'),
      FOLIO_API_URL: apiUrl,
      // Links and URLs the API builds name this address whichever replica answers, as behind a load balancer.
      FOLIO_PUBLIC_URL: apiUrl,
      FOLIO_METRICS_PORT: String(metricsPort),
      FOLIO_WORKER_METRICS_PORT: String(workerMetricsPort),
      FOLIO_TEMPORAL_METRICS_PORT: String(temporalMetricsPort),
      // The stack's stop() sends SIGTERM and kills what still runs 10 s later; a live stream must not hold an API that long.
      FOLIO_SHUTDOWN_GRACE: '5s',
      ...(options.tls ? { FOLIO_TLS_CERT: options.tls.certFile, FOLIO_TLS_KEY: options.tls.keyFile } : {}),
      ...options.env,
    };

    // Pid files in root let a caller kill and restart the worker (test/support/worker.ts); stop() ends
    // whichever processes they name then.
    const processEnv = { ...process.env, ...env };
    stops.push(() => stopRecorded(root));
    if (options.worker !== false) startWorker(processEnv, join(root, 'worker.log'), root);
    const api = startApi(processEnv, join(root, 'api.log'), root);
    await waitForApi(apiUrl, api, undefined, ca);
    const apiUrls = [apiUrl];
    for (let replica = 2; replica <= (options.replicas ?? 1); replica++) {
      if (options.worker !== false)
        startWorker(
          { ...processEnv, ...replicaEnv('worker') },
          join(root, `worker-${replica}.log`),
          root,
          `worker-${replica}`,
        );
      const port = await freePort();
      const another = startApi(
        { ...processEnv, ...replicaEnv('api', port) },
        join(root, `api-${replica}.log`),
        root,
        `api-${replica}`,
      );
      await waitForApi(`${scheme}://127.0.0.1:${port}`, another, undefined, ca);
      apiUrls.push(`${scheme}://127.0.0.1:${port}`);
    }
    return { root, env, apiUrl, apiUrls, databaseUrl, stop };
  } catch (error) {
    // CI keeps nothing of this machine's /tmp, so the logs' ends go to the output where the failure is read.
    console.error(`The ${options.label} stack failed to start; logs in ${root}\n${logTails(root)}`);
    options.keep = true;
    await stop();
    throw error;
  }
}

/**
 * Runs `now` when this process gets SIGINT or SIGTERM (Ctrl-C of a suite, a CI job cancelled): vitest exits 1 ms after
 * either without its global teardown, so a stack's processes (the Temporal cluster's services, MinIO, the APIs and
 * workers) would run on, holding ports, connections and CPU. `now` must be synchronous: nothing scheduled after the
 * signal runs. Then the signal's default action, unless another listener (vitest's) handles it. Answers the release.
 */
function stopOnSignals(now: () => void): () => void {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    try {
      now();
    } finally {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    }
  };
  const release = () => signals.forEach((signal) => process.off(signal, onSignal));
  signals.forEach((signal) => process.on(signal, onSignal));
  return release;
}

const cmdlineOf = (pid: number): string | undefined => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined; // Gone.
  }
};

/** The processes root's pid files name (services.ts spawnService: pid, then the command), if they still run it. */
function recorded(root: string): { pid: number; command: string }[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => name.endsWith('.pid'))
    .map((name) => readFileSync(join(root, name), 'utf8').split('\n'))
    .map(([pid, command]) => ({ pid: Number(pid), command: command ?? '' }));
}

/**
 * SIGTERM to each process that still runs what it ran when recorded (a pid may have been reused since), up to 10 s for
 * them to exit, then SIGKILL to what is left; synchronously, blocking this process, which is about to exit anyway.
 */
function killNow(processes: { pid: number; cmdline?: string; command?: string }[]): void {
  const same = ({ pid, cmdline, command }: (typeof processes)[number]) => {
    const now = cmdlineOf(pid);
    return pid > 0 && now !== undefined && (command ? now.split('\0')[0] === command : now === cmdline);
  };
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // Exited in between.
    }
  };
  let running = processes.filter(same);
  running.forEach(({ pid }) => signal(pid, 'SIGTERM'));
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + 10_000; running.length && Date.now() < deadline;) {
    Atomics.wait(pause, 0, 0, 100); // A wait-until loop's poll interval, synchronous.
    running = running.filter(same);
  }
  running.forEach(({ pid }) => signal(pid, 'SIGKILL'));
}

/** The last lines of every log in root, each under its file's name. */
function logTails(root: string, lines = 40): string {
  return readdirSync(root)
    .filter((name) => name.endsWith('.log'))
    .map(
      (name) =>
        `--- ${name} (last ${lines} lines)\n${readFileSync(join(root, name), 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`,
    )
    .join('\n');
}

const temporalDbFile = (root: string) => join(root, 'temporal.sqlite');
const portOf = (url: string) => Number(new URL(url.includes('://') ? url : `tcp://${url}`).port);
const recordedPid = (root: string, name: string) =>
  Number(readFileSync(join(root, `${name}.pid`), 'utf8').split('\n')[0]);

/**
 * Stops the Temporal dev server of a stack started with `persistentTemporal` (SIGTERM, SIGKILL after a grace period)
 * and starts it again on the same address with the same SQLite file: workflows, timers and schedules survive.
 */
export async function restartTemporal(root: string, env: Record<string, string | undefined>): Promise<void> {
  // On the cluster (FOLIO_TEST_CLUSTER=1), every service goes down and comes back, one after another.
  if (runsCluster(root)) {
    for (const service of CLUSTER_SERVICES) await restartClusterService(root, service, { graceful: true });
    return;
  }
  await stopPid(recordedPid(root, 'temporal'));
  // The new process is stopped through its pid file by the stack's stop(), so it does not hold the caller open.
  await startTemporal({
    port: portOf(env.FOLIO_TEMPORAL_ADDRESS!),
    uiPort: portOf(env.FOLIO_TEMPORAL_UI_URL!),
    dbFile: temporalDbFile(root),
    logFile: join(root, 'temporal.log'),
    pidDir: root,
    unref: true,
  });
}

/** Stops a `persistentTemporal` stack's MinIO and starts it again on the same address and data folder. */
export async function restartMinio(root: string, env: Record<string, string | undefined>): Promise<void> {
  await stopPid(recordedPid(root, 'minio'));
  await startMinio({
    dataDir: join(root, 'minio'),
    port: portOf(env.FOLIO_S3_ENDPOINT!),
    consolePort: await freePort(),
    accessKey: env.FOLIO_S3_ACCESS_KEY!,
    secretKey: env.FOLIO_S3_SECRET_KEY!,
    logFile: join(root, 'minio.log'),
    pidDir: root,
    unref: true,
    drives: existsSync(join(root, 'minio', 'drive1')) ? 4 : undefined,
  });
}
