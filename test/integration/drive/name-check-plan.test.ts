// The live-name check (domain/drive/items.ts isNameTaken) stays one probe of the live-name index on a connection that
// first ran it while the table was small: a named prepared statement kept the generic plan PostgreSQL chose then (a
// scan), so every later check read every item and a run of uploads to one root grew quadratically (docs/benchmarks.md
// § session 13). A scratch database of its own, so the table is small at first whatever the suite has written.
import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest } from '../../../db/migrate.js';
import { createDatabaseIfMissing, dropDatabase } from '../../../deploy/local/services.js';
import { isNameTaken } from '../../../domain/drive/items.js';

const serverUrl = () => process.env.FOLIO_DATABASE_URL!.replace(/\/[^/]*$/, '');
const name = `folio_names_${randomUUID().slice(0, 8)}`;
/** One connection, so every check runs where the earlier ones were planned. */
let one: Knex;

beforeAll(async () => {
  await createDatabaseIfMissing(serverUrl(), name);
  one = knexFactory({ client: 'pg', connection: `${serverUrl()}/${name}`, pool: { min: 1, max: 1 } });
  await migrateLatest(one);
}, 120_000);

afterAll(async () => {
  await one?.destroy();
  await dropDatabase(serverUrl(), name);
});

const owned = (rootOf: { workspaceUuid: string; userUuid: string }) => ({
  workspace_uuid: rootOf.workspaceUuid,
  owner_uuid: rootOf.userUuid,
});
const file = (rootOf: { workspaceUuid: string; userUuid: string }, fileName: string) => ({
  ...owned(rootOf),
  kind: 'file',
  name: fileName,
  depth: 0,
  upload_status: 'completed',
  content_type: 'text/plain',
  file_size_bytes: 1,
});

/** Rows of drive_items the current transaction read, by scans and index fetches (this backend's own counters). */
async function rowsRead(tx: Knex.Transaction): Promise<number> {
  const { rows } = (await tx.raw(
    `select pg_stat_get_xact_tuples_returned('drive_items'::regclass) + pg_stat_get_xact_tuples_fetched('drive_items'::regclass) as n`,
  )) as { rows: { n: string }[] };
  return Number(rows[0]!.n);
}

describe('the live-name check', () => {
  it('reads one index entry, not the root, after the root grew on the connection that first checked it', async () => {
    const [workspace] = await one('workspaces')
      .insert({ name: 'names', storage_limit_bytes: 1_000_000 })
      .returning('uuid');
    const [user] = await one('users').insert({ email: 'names@example.test' }).returning('uuid');
    const rootOf = { workspaceUuid: workspace.uuid as string, userUuid: user.uuid as string };
    // A small table with statistics (a folder of 20 files, one file at the root), as a new workspace has: then more than
    // five runs, where PostgreSQL settles on a generic plan for a prepared statement.
    const [folder] = await one('drive_items')
      .insert({ ...owned(rootOf), kind: 'folder', name: 'Folder', depth: 0 })
      .returning('uuid');
    await one('drive_items').insert([
      ...Array.from({ length: 20 }, (_, n) => ({
        ...file(rootOf, `in-${n}.txt`),
        parent_uuid: folder.uuid,
        depth: 1,
      })),
      file(rootOf, 'read.txt'),
    ]);
    await one.raw('analyze drive_items');
    for (let run = 0; run < 8; run++)
      expect(await isNameTaken(one, { rootOf }, `probe-${run}.txt`)).toBe(false);
    await one.raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, depth, upload_status,
         content_type, file_size_bytes)
       select ?, ?, 'file', null, 'file-' || n || '.txt', 0, 'completed', 'text/plain', 1 from generate_series(1, 3000) n`,
      [rootOf.workspaceUuid, rootOf.userUuid],
    );
    await one.transaction(async (tx) => {
      const before = await rowsRead(tx);
      expect(await isNameTaken(tx, { rootOf }, 'FILE-1500.TXT')).toBe(true);
      expect(await isNameTaken(tx, { rootOf }, 'absent.txt')).toBe(false);
      expect(await rowsRead(tx)).toBeLessThanOrEqual(before + 2);
    });
  });
});
