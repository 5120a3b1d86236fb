// Drive request benchmark (issue 12): small simple uploads and file reads under concurrent clients, each beside its
// target or its peer measured in the same run.
//
//   node --import tsx bench/drive-requests.ts
//
// - simple upload of a 1 KB file, FOLIO_BENCH_UPLOAD_CLIENTS (default 8) clients: uploads/s and latency, beside the
//   issue's targets (≥ 300/s, p50 < 30 ms);
// - GET /v1/drive/files/{uuid}, FOLIO_BENCH_READ_CLIENTS (default 16) clients, beside a bare Koa JSON route in a
//   process of its own (bench/bare-koa-server.ts), measured with the same autocannon settings: target ≥ 0.4×;
// - GET /v1/drive/files?folder_uuid= (a folder of 20 files), the same clients, beside the same peer.
// Each lasts FOLIO_BENCH_SECONDS (default 10). Starts its own stack like the integration tests.
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { freePort } from '../deploy/local/services.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { SCOPES } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { createDb } from '../platform/database.js';
import { profileEnv, say } from './support.js';

const SECONDS = Number(process.env.FOLIO_BENCH_SECONDS ?? 10);
const UPLOAD_CLIENTS = Number(process.env.FOLIO_BENCH_UPLOAD_CLIENTS ?? 8);
const READ_CLIENTS = Number(process.env.FOLIO_BENCH_READ_CLIENTS ?? 16);

interface Load {
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

async function load(options: autocannon.Options): Promise<Load> {
  const result = await autocannon({ duration: SECONDS, ...options });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const describe = (load: Load, unit: string) =>
  `${load.perSecond.toFixed(0).padStart(6)} ${unit}/s  p50 ${load.p50.toFixed(1)} ms  p99 ${load.p99.toFixed(1)} ms${load.failures ? `  (${load.failures} failed)` : ''}`;

async function startBareKoa(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-koa-server.ts', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout!, 'data');
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

async function main() {
  say(
    `Folio Drive request benchmark — ${new Date().toISOString()}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  );
  say(
    `${SECONDS} s per measure; load average at start ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
  );
  const stack = await startEphemeralStack({
    label: 'bench',
    env: { FOLIO_LOG_LEVEL: process.env.FOLIO_LOG_LEVEL ?? 'warn', ...profileEnv() },
  });
  const knex = createDb(stack.databaseUrl);
  const bare = await startBareKoa();
  try {
    const workspace = await createWorkspace(knex, { name: 'bench', storageLimitBytes: 64 * 1024 ** 3 });
    const user = await createUser(knex, {
      workspaceUuid: workspace.uuid,
      email: `bench-${randomUUID()}@example.test`,
    });
    const { access_token } = await issueAccessToken(knex, {
      workspaceUuid: workspace.uuid,
      userUuid: user.uuid,
      scopes: [...SCOPES],
      expiresInMs: 86_400_000,
    });
    const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    const kilobyte = Buffer.alloc(1024, 7).toString('base64');

    const folder = (await (
      await fetch(`${stack.apiUrl}/v1/drive/folders`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'bench' }),
      })
    ).json()) as { uuid: string };
    let fileUuid = '';
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${stack.apiUrl}/v1/drive/files`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: `seed-${i}.txt`,
          content_type: 'text/plain',
          data: kilobyte,
          folder_uuid: folder.uuid,
        }),
      });
      if (response.status !== 201)
        throw new Error(`seed upload answered ${response.status}: ${await response.text()}`);
      fileUuid = ((await response.json()) as { uuid: string }).uuid;
    }

    const rows: string[] = [];
    const uploads = await load({
      url: stack.apiUrl,
      connections: UPLOAD_CLIENTS,
      requests: [
        {
          method: 'POST',
          path: '/v1/drive/files',
          headers,
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ name: `${randomUUID()}.txt`, content_type: 'text/plain', data: kilobyte }),
          }),
        },
      ],
    });
    rows.push(`simple upload, 1 KB, ${UPLOAD_CLIENTS} clients        ${describe(uploads, 'uploads')}`);
    rows.push(
      `  target: ≥ 300 uploads/s (${(uploads.perSecond / 300).toFixed(2)}× of it), p50 < 30 ms (${uploads.p50.toFixed(1)} ms)`,
    );

    const peer = await load({ url: `${bare.url}/`, connections: READ_CLIENTS });
    const read = await load({
      url: `${stack.apiUrl}/v1/drive/files/${fileUuid}`,
      connections: READ_CLIENTS,
      headers,
    });
    const list = await load({
      url: `${stack.apiUrl}/v1/drive/files?folder_uuid=${folder.uuid}`,
      connections: READ_CLIENTS,
      headers,
    });
    rows.push(`bare Koa JSON route, ${READ_CLIENTS} clients (peer)      ${describe(peer, 'req')}`);
    rows.push(
      `GET /v1/drive/files/{uuid}, ${READ_CLIENTS} clients     ${describe(read, 'req')}  → ${(read.perSecond / peer.perSecond).toFixed(2)}× the peer (target ≥ 0.4×)`,
    );
    rows.push(
      `GET /v1/drive/files?folder_uuid= (20 files)    ${describe(list, 'req')}  → ${(list.perSecond / peer.perSecond).toFixed(2)}× the peer`,
    );
    for (const row of rows) say(row);
    say(
      `\nload average at end ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    bare.stop();
    await knex.destroy();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
