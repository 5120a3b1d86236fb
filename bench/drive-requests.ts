// Drive request benchmark (issues 12 and 24): metadata reads, a folder listing and small simple uploads, each beside a
// peer that does the same work with nothing else (bench/peer-server.ts: one SELECT, or one PUT and one INSERT),
// measured with bench/yardstick.ts: load from a separate process, warmed up, Folio and the peer alternated three
// times, medians reported with the client's and each server's CPU time per request.
//
//   node --import tsx bench/drive-requests.ts
//
// - GET /v1/drive/files/{uuid}, FOLIO_BENCH_READ_CLIENTS (default 16) connections, beside the bare read: ≥ 0.5×;
// - GET /v1/drive/files?folder_uuid= (a folder of 20 files), the same connections, beside the bare list: ≥ 0.4×;
// - simple upload of a 1 KB file, FOLIO_BENCH_UPLOAD_CLIENTS (default 8) connections, beside the bare write: ≥ 0.5×,
//   p50 < 30 ms.
// Each measurement lasts FOLIO_BENCH_SECONDS (default 10) after FOLIO_BENCH_WARMUP_SECONDS (default 2) of warm-up.
// FOLIO_BENCH_ROWS (comma-separated: read, list, upload; default all three) picks the rows, e.g. while iterating on one.
// Starts its own stack like the integration tests.
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { once } from 'node:events';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { freePort } from '../deploy/local/services.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { SCOPES } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { createDb } from '../platform/database.js';
import type { LoadSpec } from './load-client.js';
import { profileEnv, say } from './support.js';
import { minioPidOf } from './stack.js';
import {
  compare,
  postgresCpuMs,
  processCpuMs,
  report,
  summary,
  type SharedGauges,
  type Side,
} from './yardstick.js';

const SECONDS = Number(process.env.FOLIO_BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.FOLIO_BENCH_WARMUP_SECONDS ?? 2);
const UPLOAD_CLIENTS = Number(process.env.FOLIO_BENCH_UPLOAD_CLIENTS ?? 8);
const READ_CLIENTS = Number(process.env.FOLIO_BENCH_READ_CLIENTS ?? 16);
const ROWS = new Set((process.env.FOLIO_BENCH_ROWS ?? 'read,list,upload').split(','));

async function startPeer(env: Record<string, string>): Promise<{ url: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/peer-server.ts', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  await once(child.stdout!, 'data');
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

const spec = (url: string, connections: number, extra: Partial<LoadSpec> = {}): LoadSpec => ({
  url,
  connections,
  seconds: SECONDS,
  warmupSeconds: WARMUP_SECONDS,
  ...extra,
});

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
  const peer = await startPeer(stack.env);
  const apiPid = Number(readFileSync(join(stack.root, 'api.pid'), 'utf8').split('\n')[0]);
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
    const minioPid = minioPidOf(stack.env.FOLIO_S3_ENDPOINT!);
    const gauges: SharedGauges = {
      PostgreSQL: postgresCpuMs,
      ...(minioPid && { MinIO: () => processCpuMs(minioPid) }),
    };
    const side = (name: string, pid: number, load: LoadSpec): Side => ({ name, pid, spec: load, gauges });

    if (ROWS.has('read')) {
      const readFolio = side(
        'GET /v1/drive/files/{uuid}',
        apiPid,
        spec(`${stack.apiUrl}/v1/drive/files/${fileUuid}`, READ_CLIENTS, { headers }),
      );
      const readPeer = side('bare read', peer.pid, spec(`${peer.url}/files/${fileUuid}`, READ_CLIENTS));
      rows.push(
        ...report(
          `metadata read, ${READ_CLIENTS} connections`,
          readFolio,
          readPeer,
          await compare(readFolio, readPeer),
          0.5,
        ),
      );
    }

    if (ROWS.has('list')) {
      const listFolio = side(
        'GET /v1/drive/files?folder_uuid= (20)',
        apiPid,
        spec(`${stack.apiUrl}/v1/drive/files?folder_uuid=${folder.uuid}`, READ_CLIENTS, { headers }),
      );
      const listPeer = side(
        'bare list of the same 20 rows',
        peer.pid,
        spec(`${peer.url}/files?folder_uuid=${folder.uuid}`, READ_CLIENTS),
      );
      rows.push(
        ...report(
          `folder listing of 20 files, ${READ_CLIENTS} connections`,
          listFolio,
          listPeer,
          await compare(listFolio, listPeer),
          0.4,
        ),
      );
    }

    if (ROWS.has('upload')) {
      const uploadBody = JSON.stringify({ name: '$UUID.txt', content_type: 'text/plain', data: kilobyte });
      const uploadFolio = side(
        'POST /v1/drive/files (1 KB)',
        apiPid,
        spec(`${stack.apiUrl}/v1/drive/files`, UPLOAD_CLIENTS, {
          headers,
          post: { bodyTemplate: uploadBody },
        }),
      );
      const uploadPeer = side(
        'bare write (PUT + INSERT)',
        peer.pid,
        spec(`${peer.url}/files`, UPLOAD_CLIENTS, {
          headers: { 'content-type': 'application/json' },
          post: { bodyTemplate: uploadBody },
        }),
      );
      const uploads = await compare(uploadFolio, uploadPeer);
      rows.push(
        ...report(
          `simple upload of 1 KB, ${UPLOAD_CLIENTS} connections`,
          uploadFolio,
          uploadPeer,
          uploads,
          0.5,
        ),
        `  p50 target < 30 ms: ${summary(uploads.folio).p50.toFixed(1)} ms`,
      );
    }
    for (const row of rows) say(row);
    say(
      `\nload average at end ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    peer.stop();
    await knex.destroy();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
