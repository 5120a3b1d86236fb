// drive_items keeps one index led by trashed_with, the partial one over trashed rows (db/migrations/033): every lookup
// the trash and restore cascades make by trashed_with (domain/drive/trash-cascade.ts) is an equality that index
// answers, so no index over every row is kept for them.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';

/** The plan PostgreSQL would choose for `sql` with sequential scans priced out: which index, if any, can answer it. */
async function planWithoutSeqScan(sql: string, bindings: string[]): Promise<string> {
  return db().transaction(async (tx: Knex.Transaction) => {
    await tx.raw('set local enable_seqscan = off');
    const { rows } = (await tx.raw(`explain (costs off) ${sql}`, bindings)) as {
      rows: { 'QUERY PLAN': string }[];
    };
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe('drive_items indexes on trashed_with', () => {
  it('has no index over every row led by trashed_with', async () => {
    const { rows } = (await db().raw(
      `select indexname, indexdef from pg_indexes where tablename = 'drive_items' and indexdef like '%(trashed_with%'`,
    )) as { rows: { indexname: string; indexdef: string }[] };
    expect(rows.length).toBeGreaterThan(0);
    for (const index of rows) expect(index.indexdef, index.indexname).toMatch(/ WHERE /);
  });

  it("answers the trash cascade's lookup of the folders trashed with a root from a partial index", async () => {
    const plan = await planWithoutSeqScan(
      `select f.uuid from drive_items f
        where f.trashed_with = ? and f.kind = 'folder' and f.trashed and f.deleted_at is null`,
      [randomUUID()],
    );
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(/drive_items_trashed_(folders|with_parent)/);
  });

  it("answers the restore cascade's lookup of a folder's children trashed with the group from a partial index", async () => {
    const plan = await planWithoutSeqScan(
      `select c.uuid from drive_items c
        where c.trashed_with = ? and c.parent_uuid = ? and c.trashed and c.deleted_at is null limit 10`,
      [randomUUID(), randomUUID()],
    );
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(/drive_items_trashed_with_parent/);
  });
});
