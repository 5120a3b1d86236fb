// `npm start`: brings up the whole development stack on this machine — tools, PostgreSQL, Temporal (SQLite
// under .data/), MinIO (.data/minio), migrations, the worker and the API — and stops all of it on Ctrl-C.
// Data persists in .data/ between runs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDb } from '../platform/database.js';
import { loadConfig } from '../platform/config.js';
import { migrateLatest } from '../db/migrate.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { createSignInLink, signInUrl } from '../domain/admin/sessions.js';
import { SCOPES } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { ensureTools } from './local/tools.js';
import {
  createDatabaseIfMissing,
  ensurePostgres,
  startMinio,
  startTemporal,
  stopRecorded,
  stopOnSignals,
} from './local/services.js';
import { startApi, startWorker, waitForApi } from './local/folio-processes.js';

const DATA = resolve('.data');
const PIDS = join(DATA, 'pids');
const LOGS = join(DATA, 'logs');
const DEMO_FILE = join(DATA, 'demo.json');

const say = (line: string) => process.stdout.write(`${line}\n`);

async function demoSignInLink(databaseUrl: string, adminUrl: string, userUuid: string): Promise<string> {
  const knex = createDb(databaseUrl);
  try {
    return signInUrl(adminUrl, (await createSignInLink(knex, { user: userUuid })).token);
  } finally {
    await knex.destroy();
  }
}

interface Demo {
  workspace_uuid: string;
  user_uuid: string;
  access_token: string;
}

// Development only: the demo token is kept in .data/demo.json (mode 600) so every start can print a working curl.
async function ensureDemo(databaseUrl: string): Promise<Demo> {
  if (existsSync(DEMO_FILE)) return JSON.parse(readFileSync(DEMO_FILE, 'utf8')) as Demo;
  const knex = createDb(databaseUrl);
  try {
    const workspace = await createWorkspace(knex, {
      name: 'Demo workspace',
      storageLimitBytes: 15 * 1024 ** 3,
    });
    const user = await createUser(knex, {
      workspaceUuid: workspace.uuid,
      email: 'demo@folio.local',
      firstName: 'Demo',
      lastName: 'User',
      admin: true,
    });
    const token = await issueAccessToken(knex, {
      workspaceUuid: workspace.uuid,
      userUuid: user.uuid,
      scopes: [...SCOPES],
      expiresInMs: 365 * 86_400_000,
    });
    const demo = { workspace_uuid: workspace.uuid, user_uuid: user.uuid, access_token: token.access_token };
    writeFileSync(DEMO_FILE, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 });
    say('Created a demo workspace, user (demo@folio.local) and a token with every scope.');
    return demo;
  } finally {
    await knex.destroy();
  }
}

async function main() {
  const settings = loadConfig({ FOLIO_ENV: 'development', ...process.env });
  if (settings.env === 'production')
    throw new Error('npm start runs the development stack; run the API and worker directly in production.');
  mkdirSync(PIDS, { recursive: true });
  mkdirSync(LOGS, { recursive: true });
  await stopRecorded(PIDS); // Whatever an interrupted earlier run left behind, and only that.
  ensureTools(say);

  const { running, stopAll } = stopOnSignals(say, '\nStopping the Folio stack...');

  try {
    const postgres = await ensurePostgres({
      dataDir: join(DATA, 'postgres'),
      logFile: join(LOGS, 'postgres.log'),
    });
    if (postgres.private) running.push({ name: 'postgres', pid: 0, stop: postgres.stop });
    const databaseUrl = process.env.FOLIO_DATABASE_URL ?? `${postgres.serverUrl}/folio`;
    await createDatabaseIfMissing(
      databaseUrl.replace(/\/[^/]*$/, ''),
      new URL(databaseUrl).pathname.slice(1),
    );

    const temporalPort = Number(settings.temporal.address.split(':').pop());
    const temporal = await startTemporal({
      port: temporalPort,
      uiPort: temporalPort + 1000,
      dbFile: join(DATA, 'temporal.db'),
      logFile: join(LOGS, 'temporal.log'),
      pidDir: PIDS,
    });
    running.push(temporal);
    const s3Port = Number(new URL(settings.storage.endpoint).port || 9000);
    const minio = await startMinio({
      dataDir: join(DATA, 'minio'),
      port: s3Port,
      consolePort: s3Port + 1,
      accessKey: settings.storage.accessKey,
      secretKey: settings.storage.secretKey,
      logFile: join(LOGS, 'minio.log'),
      pidDir: PIDS,
    });
    running.push(minio);

    const knex = createDb(databaseUrl);
    const applied = await migrateLatest(knex);
    await knex.destroy();
    if (applied.length) say(`Applied migrations: ${applied.join(', ')}`);

    const env = { ...process.env, FOLIO_ENV: 'development', FOLIO_DATABASE_URL: databaseUrl };
    running.push(startWorker(env, join(LOGS, 'worker.log'), PIDS).service);
    const api = startApi(env, join(LOGS, 'api.log'), PIDS);
    running.push(api.service);
    const apiUrl = `http://${settings.host}:${settings.port}`;
    await waitForApi(apiUrl, api);

    const demo = await ensureDemo(databaseUrl);
    say('');
    say(`Folio is up.`);
    say(`  API            ${apiUrl}`);
    say(`  Temporal UI    ${temporal.uiUrl}`);
    say(`  MinIO console  ${minio.consoleUrl}  (user ${settings.storage.accessKey})`);
    say(`  Admin app      ${settings.admin.url}/webhooks`);
    say(`  Logs           ${LOGS}`);
    say('');
    say('Try it:');
    say(`  curl -s -H 'Authorization: Bearer ${demo.access_token}' ${apiUrl}/v1/drive/files`);
    say(`  open ${await demoSignInLink(databaseUrl, settings.admin.url, demo.user_uuid)}`);
    say(
      '  (a one-time admin sign-in link for demo@folio.local, valid 15 minutes; `npm run folio -- admin sign-in-link --user demo@folio.local` prints another)',
    );
    say('');
    say('Ctrl-C stops everything this command started; data stays in .data/.');
  } catch (error) {
    process.stderr.write(
      `Could not start the stack: ${error instanceof Error ? error.message : String(error)}\nLogs are in ${LOGS}.\n`,
    );
    await stopAll();
    process.exit(1);
  }
}

await main();
