// Benchmark: a full first sync of a large Drive through GET /v1/drive/changes, in items per second.
//
//   node --import tsx bench/changes-feed.ts
//
// Seeds FOLIO_BENCH_ITEMS items (default 100000) for one user with bulk SQL (folders 3 levels deep, files
// spread across them, one create change each), then pages the first sync with limit=1000 through @folio/client
// until has_more is false. Against a running stack set FOLIO_API_URL and FOLIO_DATABASE_URL (the same database the API uses);
// otherwise it starts its own throw-away stack the way the integration tests do (PostgreSQL database,
// in-memory Temporal, MinIO, the API; no worker) and removes it afterwards. Beside each rate it prints the CPU time per
// item of each process the work passes through (the API's with a stack of its own, PostgreSQL's on the whole machine,
// this client's own). The client asks for each next page once the answer before names it (its Link header), while it
// reads that answer, so its parsing overlaps the API's next page; the raw read overlaps PostgreSQL and its decoding.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { FolioClient } from '../clients/typescript/src/index.js';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { createDb } from '../platform/database.js';
import { profileEnv, say } from './support.js';
import { postgresCpuMs, processCpuMs } from './yardstick.js';

const ITEMS = Number(process.env.FOLIO_BENCH_ITEMS ?? 100_000);
const PAGE = 1000;

interface Stack {
  apiUrl: string;
  databaseUrl: string;
  /** The API process of a stack of its own, for its CPU time. */
  apiPid?: number;
  stop(): Promise<void>;
}

async function ownStack(): Promise<Stack> {
  say('Starting a throw-away stack...');
  const stack = await startEphemeralStack({
    label: 'bench',
    worker: false,
    env: { FOLIO_LOG_LEVEL: 'warn', ...profileEnv() },
  });
  return { ...stack, apiPid: Number(readFileSync(join(stack.root, 'api.pid'), 'utf8').split('\n')[0]) };
}

/** CPU time so far of the processes a sync passes through, in ms. */
interface CpuReading {
  api: number;
  postgres: number;
  client: number;
}

function cpuNow(apiPid: number | undefined): CpuReading {
  const { user, system } = process.cpuUsage();
  return {
    api: apiPid ? processCpuMs(apiPid) : NaN,
    postgres: postgresCpuMs(),
    client: (user + system) / 1000,
  };
}

/** `work`, with the CPU time per item each process spent on it, in µs. */
async function withCpu<T extends { items: number }>(
  apiPid: number | undefined,
  work: () => Promise<T>,
): Promise<T & { cpuPerItem: CpuReading }> {
  const before = cpuNow(apiPid);
  const result = await work();
  const after = cpuNow(apiPid);
  const perItem = (key: keyof CpuReading) => ((after[key] - before[key]) * 1000) / result.items;
  return {
    ...result,
    cpuPerItem: { api: perItem('api'), postgres: perItem('postgres'), client: perItem('client') },
  };
}

/** 100 root folders × 9 subfolders × 1 sub-subfolder each, then files spread evenly over all folders. */
async function seed(knex: Knex): Promise<{ token: string; workspaceUuid: string }> {
  const workspace = await createWorkspace(knex, { name: 'bench', storageLimitBytes: 10 ** 15 });
  const user = await createUser(knex, {
    workspaceUuid: workspace.uuid,
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
    firstName: 'Bench',
  });
  const { access_token } = await issueAccessToken(knex, {
    workspaceUuid: workspace.uuid,
    userUuid: user.uuid,
    scopes: ['drive.read'],
    expiresInMs: 3_600_000,
  });
  const roots = 100;
  const folders = roots + roots * 9 + roots * 9;
  const files = Math.max(0, ITEMS - folders);
  await knex.transaction(async (tx) => {
    const bind = [workspace.uuid, user.uuid];
    await tx.raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, name, depth)
       select ?, ?, 'folder', 'root-' || n, 0 from generate_series(1, ${roots}) n`,
      bind,
    );
    await tx.raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, depth)
       select ?, ?, 'folder', p.uuid, 'sub-' || n, 1 from drive_items p, generate_series(1, 9) n
       where p.workspace_uuid = ? and p.depth = 0`,
      [...bind, workspace.uuid],
    );
    await tx.raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, depth)
       select ?, ?, 'folder', p.uuid, 'leaf', 2 from drive_items p where p.workspace_uuid = ? and p.depth = 1`,
      [...bind, workspace.uuid],
    );
    await tx.raw(
      `with parents as (select uuid, depth, row_number() over (order by uuid) - 1 as i, count(*) over () as total
                        from drive_items where workspace_uuid = ? and kind = 'folder')
       insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
       select ?, ?, 'file', p.uuid, 'file-' || n || '.txt', 'text/plain', 1024, 'completed', p.depth + 1
       from generate_series(0, ${files - 1}) n join parents p on p.i = n % p.total`,
      [workspace.uuid, ...bind],
    );
    await tx.raw(
      `insert into drive_changes (workspace_uuid, item_uuid, resource_type, change_type, item_version, parent_uuid, owner_uuid)
       select workspace_uuid, uuid, kind, 'create', version, parent_uuid, owner_uuid from drive_items
       where workspace_uuid = ? order by depth, uuid`,
      [workspace.uuid],
    );
  });
  // Both sides read a vacuumed, analysed table: a bulk insert leaves no visibility map, so index-only scans and the
  // planner's estimates would otherwise favour whichever side runs later.
  await knex.raw('vacuum analyze drive_items');
  await knex.raw('vacuum analyze drive_changes');
  return { token: access_token, workspaceUuid: workspace.uuid };
}

/**
 * The first sync as @folio/client runs it (changePages): each next page is asked for as soon as the answer before names
 * it in its Link header, so the API prepares it while this client reads and parses the page before.
 */
async function firstSync(
  apiUrl: string,
  token: string,
): Promise<{ items: number; pages: number; ms: number }> {
  const started = performance.now();
  const client = new FolioClient({ baseUrl: apiUrl, token });
  let items = 0;
  let pages = 0;
  for await (const page of client.changePages(undefined, PAGE)) {
    items += page.changes.length;
    pages += 1;
  }
  return { items, pages, ms: performance.now() - started };
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const PARENT_KEY = `coalesce(i.parent_uuid, '${NIL_UUID}'::uuid)`;

/**
 * The peer: the same rows read straight from PostgreSQL in the same pages (the items with their owner, keyset on
 * depth, parent and uuid on the same index as the snapshot pages), with no HTTP, visibility rules or JSON in between.
 */
async function rawRead(knex: Knex, workspaceUuid: string): Promise<{ items: number; ms: number }> {
  const started = performance.now();
  let after: { depth: number; parent_uuid: string | null; uuid: string } | undefined;
  let items = 0;
  for (;;) {
    const page = (await knex('drive_items as i')
      .join('users as o', 'o.uuid', 'i.owner_uuid')
      .select('i.*', 'o.first_name', 'o.last_name')
      .where('i.workspace_uuid', workspaceUuid)
      .modify((query) => {
        if (after)
          query.whereRaw(`(i.depth, ${PARENT_KEY}, i.uuid) > (?, ?::uuid, ?::uuid)`, [
            after.depth,
            after.parent_uuid ?? NIL_UUID,
            after.uuid,
          ]);
      })
      .orderByRaw(`i.depth, ${PARENT_KEY}, i.uuid`)
      .limit(PAGE)) as { depth: number; parent_uuid: string | null; uuid: string }[];
    items += page.length;
    if (page.length < PAGE) break;
    after = page[page.length - 1]!;
  }
  return { items, ms: performance.now() - started };
}

async function main() {
  const given = process.env.FOLIO_API_URL && process.env.FOLIO_DATABASE_URL;
  const stack: Stack = given
    ? {
        apiUrl: process.env.FOLIO_API_URL!,
        databaseUrl: process.env.FOLIO_DATABASE_URL!,
        stop: async () => undefined,
      }
    : await ownStack();
  const knex = createDb(stack.databaseUrl);
  try {
    say(`seeding ${ITEMS} items...`);
    const seeded = performance.now();
    const { token, workspaceUuid } = await seed(knex);
    say(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    // Warm-up of both sides (caches, JIT, connections), then the raw read and the first sync alternated three times;
    // the medians are reported.
    await rawRead(knex, workspaceUuid);
    await firstSync(stack.apiUrl, token);
    const sync = () => withCpu(stack.apiPid, () => firstSync(stack.apiUrl, token));
    const raw = () => withCpu(undefined, () => rawRead(knex, workspaceUuid));
    const syncs: Array<Awaited<ReturnType<typeof sync>>> = [];
    const raws: Array<Awaited<ReturnType<typeof raw>>> = [];
    for (let round = 0; round < 3; round++) {
      if (round % 2 === 0) raws.push(await raw());
      syncs.push(await sync());
      if (round % 2 === 1) raws.push(await raw());
    }
    for (const sync of syncs)
      if (sync.items !== ITEMS) throw new Error(`first sync returned ${sync.items} items, expected ${ITEMS}`);
    const perSecond = (items: number, ms: number) => Math.round(items / (ms / 1000));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    const syncRates = syncs.map((sync) => perSecond(sync.items, sync.ms));
    const rawRates = raws.map((raw) => perSecond(raw.items, raw.ms));
    say(
      `first sync: ${ITEMS} items in ${syncs[0]!.pages} pages of ${PAGE}, median ${median(syncRates)} items/s ` +
        `(rounds ${syncRates.join(', ')})`,
    );
    say(
      `  peer, raw SQL read of the same rows in the same pages: median ${median(rawRates)} items/s (rounds ${rawRates.join(', ')})`,
    );
    say(`  → ${(median(syncRates) / median(rawRates)).toFixed(2)}× the raw read (target ≥ 0.5×)`);
    const cpu = (runs: Array<{ cpuPerItem: CpuReading }>, key: keyof CpuReading) =>
      median(runs.map((run) => run.cpuPerItem[key])).toFixed(1);
    say(
      `  CPU µs per item, medians: first sync API ${cpu(syncs, 'api')}, PostgreSQL ${cpu(syncs, 'postgres')}, ` +
        `client ${cpu(syncs, 'client')} (wall ${(1e6 / median(syncRates)).toFixed(1)}); raw read PostgreSQL ` +
        `${cpu(raws, 'postgres')}, client ${cpu(raws, 'client')} (wall ${(1e6 / median(rawRates)).toFixed(1)})`,
    );
  } finally {
    await knex.destroy();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
