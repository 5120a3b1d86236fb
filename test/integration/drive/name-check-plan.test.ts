// The live-name check (domain/drive/items.ts isNameTaken) stays one probe of the live-name index on a connection that
// first ran it while the table was small: a named prepared statement kept the generic plan PostgreSQL chose then (a
// scan), so every later check read every item and a run of uploads to one root grew quadratically (docs/benchmarks.md
// § session 13). And a simple upload reads none of the root it writes to, even on a table never analysed (a server
// without autovacuum, where a benchmark's trace caught the check scanning the root): it leaves a taken name to the
// unique index at its insert (domain/drive/content.ts checkNewFileDestination; docs/benchmarks.md § session 15).
// Scratch databases of their own, so the table is small at first whatever the suite has written.
import { randomBytes, randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest } from '../../../db/migrate.js';
import { createDatabaseIfMissing, dropDatabase } from '../../../deploy/local/services.js';
import { isNameTaken } from '../../../domain/drive/items.js';
import { uploadWholeFile, type ContentDeps } from '../../../domain/drive/content.js';
import { nameTaken } from '../../../domain/drive/errors.js';
import { constraintError } from '../../../api/middleware/constraint-errors.js';
import { S3ObjectStore } from '../../../platform/object-store.js';
import { bucket, storage } from '../../../platform/storage.js';
import { outboxKit } from '../../../workflows/outbox.js';

const serverUrl = () => process.env.FOLIO_DATABASE_URL!.replace(/\/[^/]*$/, '');

/** A database of its own, migrated, on one connection, so every statement runs where the earlier ones were planned. */
function scratchDatabase(): () => Knex {
  const name = `folio_names_${randomUUID().slice(0, 8)}`;
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
  return () => one;
}

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

/**
 * Rows of drive_items the database's backends have read so far, by scans and index fetches: the counts flushed to the
 * shared statistics plus this connection's own not yet flushed (a backend flushes at most once a second, when idle).
 */
async function rowsReadSoFar(knex: Knex): Promise<number> {
  const { rows } = (await knex.raw(
    `select pg_stat_get_tuples_returned(t) + pg_stat_get_tuples_fetched(t)
       + pg_stat_get_xact_tuples_returned(t) + pg_stat_get_xact_tuples_fetched(t) as n
     from (select 'drive_items'::regclass as t) as drive_items`,
  )) as { rows: { n: string }[] };
  return Number(rows[0]!.n);
}

async function makeOwner(knex: Knex): Promise<{ workspaceUuid: string; userUuid: string }> {
  const [workspace] = await knex('workspaces')
    .insert({ name: 'names', storage_limit_bytes: 1_000_000 })
    .returning('uuid');
  const [user] = await knex('users').insert({ email: 'names@example.test' }).returning('uuid');
  return { workspaceUuid: workspace.uuid as string, userUuid: user.uuid as string };
}

describe('the live-name check', () => {
  const database = scratchDatabase();

  it('reads one index entry, not the root, after the root grew on the connection that first checked it', async () => {
    const one = database();
    const rootOf = await makeOwner(one);
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

describe('a simple upload on a table never analysed', () => {
  const database = scratchDatabase();

  /** uploadWholeFile's dependencies over the scratch database and the suite's object storage; it starts no workflow. */
  function contentDeps(knex: Knex): ContentDeps {
    const noWorkflow = () => Promise.reject(new Error('a simple upload of text starts no workflow'));
    const { runInTransaction, runOneStatement } = outboxKit({
      start: noWorkflow,
      wakes: {
        uploadLifecycle: noWorkflow,
        replaceLifecycle: noWorkflow,
        documentPurge: noWorkflow,
        retryWebhookDelivery: noWorkflow,
        terminateWebhookDelivery: noWorkflow,
      },
      log: { warn: () => undefined },
    });
    return {
      db: knex,
      objects: new S3ObjectStore(storage(), bucket()),
      masterKey: randomBytes(32),
      lifecycles: { startUploadLifecycle: noWorkflow, startReplaceLifecycle: noWorkflow },
      runInTransaction: runInTransaction(knex),
      runOneStatement: runOneStatement(knex),
      uploadOwnerLock: () => Promise.resolve('1'),
      log: { warn: () => undefined },
    };
  }

  it('reads no item of a root of 3,000 to store a new name or to refuse a taken one', async () => {
    const one = database();
    const deps = contentDeps(one);
    const rootOf = await makeOwner(one);
    const upload = (name: string) =>
      uploadWholeFile(deps, rootOf, {
        name,
        contentType: 'text/plain',
        folderUuid: null,
        data: Buffer.from('1 KB'),
      });
    for (let run = 0; run < 8; run++) await upload(`first-${run}.txt`);
    await one.raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, depth, upload_status,
         content_type, file_size_bytes)
       select ?, ?, 'file', null, 'file-' || n || '.txt', 0, 'completed', 'text/plain', 1 from generate_series(1, 3000) n`,
      [rootOf.workspaceUuid, rootOf.userUuid],
    );
    expect(
      (
        await one.raw(
          `select last_analyze, last_autoanalyze from pg_stat_user_tables where relname = 'drive_items'`,
        )
      ).rows,
    ).toEqual([{ last_analyze: null, last_autoanalyze: null }]);

    const before = await rowsReadSoFar(one);
    expect(await upload('new.txt')).toMatchObject({ name: 'new.txt', trashed: false });
    const refused = await upload('FILE-1500.TXT').catch((error: unknown) => error);
    // As the API answers it (api/middleware/errors.ts): a unique violation mapped by its index's name.
    expect(constraintError(refused) ?? refused).toEqual(nameTaken());
    expect(await rowsReadSoFar(one)).toBeLessThanOrEqual(before + 20);
    expect(await one('drive_staged_uploads')).toEqual([]);
  });
});
