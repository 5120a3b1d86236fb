// Starts and stops the real services Folio needs on this machine: Temporal's dev server, MinIO and
// PostgreSQL. Used by `npm start` (deploy/dev-stack.ts) and by the integration tests (test/setup/global.ts).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { SEARCH_ATTRIBUTES } from '../../workflows/registry.js';
import { toolPath } from './tools.js';

export interface RunningService {
  name: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The services a local stack script starts, stopped newest first on Ctrl-C or SIGTERM (once, however many signals
 * arrive), after which the process exits.
 */
export function stopOnSignals(say: (line: string) => void, stoppingLine: string) {
  const running: RunningService[] = [];
  const stopAll = async () => {
    for (const service of running.reverse()) await service.stop().catch(() => undefined);
  };
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      say(stoppingLine);
      void stopAll().then(() => process.exit(0));
    });
  }
  return { running, stopAll };
}

/** The ports freePort has answered in this process. */
const handedOut = new Set<number>();

/**
 * A port nothing listens on, picked below the kernel's ephemeral range (32768–60999 on Linux by default): a port the
 * kernel handed out as free (listen on 0) can be taken by any outbound connection of a busy machine before the service
 * that was given it listens, which showed as EADDRINUSE when several suites ran at once.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    // Nothing listens on a port handed out a moment ago until its service starts: two picks made together (a stack's
    // ports, or two stacks in one process) must not both get it.
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port found between 20000 and 32000');
}

/**
 * Starts a service on ports that `start` picks (freePort): if another process of the machine took one of them between
 * the pick and the service's listen, the service exits saying so in its log, and it is started again on new ports, up
 * to `attempts` times. Any other failure is thrown at once.
 */
export async function startOnFreshPorts<T>(
  logFile: string,
  start: () => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const logged = existsSync(logFile) ? statSync(logFile).size : 0;
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !lostPortRace(logFile, logged)) throw error;
    }
  }
}

/** Whether the log, from byte `from` on, says a port was taken. */
function lostPortRace(logFile: string, from: number): boolean {
  if (!existsSync(logFile)) return false;
  return /address already in use/i.test(readFileSync(logFile).subarray(from).toString('utf8'));
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
  child?: ChildProcess,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not become healthy within ${timeoutMs / 1000}s`);
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends SIGTERM, then SIGKILL after a grace period, to exactly this pid. */
export async function stopPid(pid: number, graceMs = 10_000): Promise<void> {
  if (!processAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (processAlive(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * Spawns a long-running process with its output in a log file and its pid in pidDir, so a later run can
 * stop exactly what an interrupted run left behind (see stopRecorded), never a process found by name.
 */
export function spawnService(
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; logFile: string; pidDir?: string; cwd?: string; unref?: boolean },
): { child: ChildProcess; service: RunningService } {
  const log = openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  // A process started for someone else to stop (through its pid file) must not keep this one alive.
  if (options.unref) child.unref();
  const pid = child.pid;
  const pidFile = options.pidDir ? join(options.pidDir, `${name}.pid`) : undefined;
  if (pidFile) writeFileSync(pidFile, `${pid}\n${command}\n`);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    service: {
      name,
      pid,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }
        if (pidFile) rmSync(pidFile, { force: true });
      },
    },
  };
}

/** Stops processes an earlier, interrupted run recorded in pidDir, if they still run the same command. */
export async function stopRecorded(pidDir: string): Promise<void> {
  if (!existsSync(pidDir)) return;
  for (const file of readdirSync(pidDir).filter((f) => f.endsWith('.pid'))) {
    const [pidText, command] = readFileSync(join(pidDir, file), 'utf8').split('\n');
    const pid = Number(pidText);
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    } catch {
      // Gone already.
    }
    if (pid > 0 && command && cmdline === command) await stopPid(pid);
    rmSync(join(pidDir, file), { force: true });
  }
}

// --- Temporal -----------------------------------------------------------------------------------------

export interface TemporalOptions {
  port: number;
  uiPort: number;
  /** SQLite file for a persistent server; omitted means in-memory. */
  dbFile?: string;
  logFile: string;
  pidDir?: string;
  namespace?: string;
  unref?: boolean;
}

export async function startTemporal(
  options: TemporalOptions,
): Promise<RunningService & { address: string; uiUrl: string }> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--ui-port',
    String(options.uiPort),
    '--http-port',
    String(await freePort()),
    '--metrics-port',
    String(await freePort()),
    '--namespace',
    options.namespace ?? 'default',
    '--log-level',
    'warn',
    ...SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]),
    ...(options.dbFile ? ['--db-filename', options.dbFile] : []),
  ];
  const { child, service } = spawnService('temporal', toolPath('temporal'), args, options);
  const address = `127.0.0.1:${options.port}`;
  await waitFor(
    'Temporal dev server',
    async () => {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return true;
      } finally {
        await connection.close();
      }
    },
    60_000,
    child,
  );
  return { ...service, address, uiUrl: `http://127.0.0.1:${options.uiPort}` };
}

// --- MinIO --------------------------------------------------------------------------------------------

export interface MinioOptions {
  dataDir: string;
  port: number;
  consolePort: number;
  accessKey: string;
  secretKey: string;
  logFile: string;
  pidDir?: string;
  unref?: boolean;
  /** Drives of one erasure set, as folders dataDir/drive1… (the local cluster: 4); omitted means dataDir, one drive. */
  drives?: number;
}

export async function startMinio(
  options: MinioOptions,
): Promise<RunningService & { endpoint: string; consoleUrl: string }> {
  mkdirSync(options.dataDir, { recursive: true });
  for (let drive = 1; drive <= (options.drives ?? 0); drive++)
    mkdirSync(join(options.dataDir, `drive${drive}`), { recursive: true });
  const args = [
    'server',
    // MinIO expands the ellipsis itself: one process, one erasure set over the drives.
    options.drives ? join(options.dataDir, `drive{1...${options.drives}}`) : options.dataDir,
    '--address',
    `127.0.0.1:${options.port}`,
    '--console-address',
    `127.0.0.1:${options.consolePort}`,
    '--quiet',
  ];
  const env = {
    ...process.env,
    MINIO_ROOT_USER: options.accessKey,
    MINIO_ROOT_PASSWORD: options.secretKey,
    MINIO_BROWSER: 'on',
    MINIO_UPDATE: 'off',
    // An erasure set's drives here are folders on the root disk, which MinIO refuses ("drive not found") outside its
    // CI mode; production drives are disks of their own.
    ...(options.drives ? { MINIO_CI_CD: 'on' } : {}),
  };
  const { child, service } = spawnService('minio', toolPath('minio'), args, { ...options, env });
  const endpoint = `http://127.0.0.1:${options.port}`;
  // `live` answers before the object layer is ready (requests then get 503 XMinioServerNotInitialized); `cluster` waits
  // for write quorum, so the first bucket call succeeds.
  await waitFor('MinIO', async () => (await fetch(`${endpoint}/minio/health/cluster`)).ok, 60_000, child);
  return { ...service, endpoint, consoleUrl: `http://127.0.0.1:${options.consolePort}` };
}

// --- PostgreSQL ---------------------------------------------------------------------------------------

const SHARED_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = join(root, version, 'bin');
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  throw new Error(
    'No PostgreSQL server binaries found (looked in /usr/lib/postgresql/*/bin); install postgresql.',
  );
}

// initdb and postgres refuse to run as root; as root we hand the cluster to the postgres system user.
function asClusterOwner(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function uidOf(user: string): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no ${user} user to own the PostgreSQL cluster`);
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}

/**
 * A PostgreSQL server URL (without database): the one on 127.0.0.1:5432 when it answers (unless
 * preferPrivate), else a private cluster in dataDir, initialised on first use and started on a free port.
 */
export async function ensurePostgres(options: {
  dataDir: string;
  logFile: string;
  preferPrivate?: boolean;
  sharedUrl?: string;
}): Promise<{ serverUrl: string; private: boolean; stop(): Promise<void> }> {
  const sharedUrl = options.sharedUrl ?? SHARED_POSTGRES_URL;
  if (!options.preferPrivate && (await answers(sharedUrl))) {
    return { serverUrl: sharedUrl.replace(/\/[^/]*$/, ''), private: false, stop: async () => undefined };
  }
  const bin = postgresBinDir();
  const dataDir = resolve(options.dataDir);
  const socketDir = `${dataDir}-socket`;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  mkdirSync(socketDir, { recursive: true });
  if (process.getuid?.() === 0) {
    const [uid, gid] = uidOf('postgres');
    chownSync(dataDir, uid, gid);
    chownSync(socketDir, uid, gid);
    if (!existsSync(options.logFile)) writeFileSync(options.logFile, '');
    chownSync(options.logFile, uid, gid);
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const [cmd, args] = asClusterOwner(join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    execFileSync(cmd, args, { stdio: 'ignore' });
  }
  const port = await freePort();
  const [cmd, args] = asClusterOwner(join(bin, 'pg_ctl'), [
    '-D',
    dataDir,
    '-l',
    options.logFile,
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  execFileSync(cmd, args, { stdio: 'ignore' });
  const serverUrl = `postgres://postgres@127.0.0.1:${port}`;
  await waitFor('private PostgreSQL', () => answers(`${serverUrl}/postgres`));
  return {
    serverUrl,
    private: true,
    async stop() {
      const [stopCmd, stopArgs] = asClusterOwner(join(bin, 'pg_ctl'), [
        '-D',
        dataDir,
        '-m',
        'fast',
        '-w',
        'stop',
      ]);
      execFileSync(stopCmd, stopArgs, { stdio: 'ignore' });
    },
  };
}

export async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
