// Named prepared statements straight through pg (domain/prepared.ts): named bindings rewritten once, by knex itself,
// then bound by name on every call; the same answers as knex's own path, inside a transaction and out.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { db } from '../../../platform/database.js';
import { prepared } from '../../../domain/prepared.js';

const NAMED = `select :a::int + :b::int as sum, :a::int as a_again, cast(:tags as text[]) as tags, :note::text as note`;

describe('prepared statements', () => {
  it('binds named bindings by name on every call: a name used twice, casts, arrays, nulls, bytes', async () => {
    const name = `test_named_${randomUUID().replace(/-/g, '_')}`;
    const first = await prepared(db(), name, NAMED, { a: 2, b: 3, tags: ['x', 'y'], note: null });
    expect(first.rows).toEqual([{ sum: 5, a_again: 2, tags: ['x', 'y'], note: null }]);
    // Later calls reuse the rewritten text, in any key order.
    const second = await prepared(db(), name, NAMED, { note: 'n', tags: [], b: -10, a: 7 });
    expect(second.rows).toEqual([{ sum: -3, a_again: 7, tags: [], note: 'n' }]);
    const bytes = await prepared(db(), `${name}_bytes`, `select length(:blob::bytea) as n`, {
      blob: Buffer.from([1, 2, 3]),
    });
    expect(bytes.rows).toEqual([{ n: 3 }]);
  });

  it('answers as knex.raw does with the same bindings', async () => {
    const name = `test_same_${randomUUID().replace(/-/g, '_')}`;
    const bindings = { a: 40, b: 2, tags: ['q'], note: 'same' };
    const direct = await prepared(db(), name, NAMED, bindings);
    const throughKnex = (await db().raw(NAMED, bindings)) as { rows: unknown[] };
    expect(direct.rows).toEqual(throughKnex.rows);
    const inTransaction = await db().transaction((tx) => prepared(tx, name, NAMED, bindings));
    expect(inTransaction.rows).toEqual(throughKnex.rows);
  });

  it('refuses an undefined named binding rather than send null, as knex does', async () => {
    const name = `test_undefined_${randomUUID().replace(/-/g, '_')}`;
    await prepared(db(), name, NAMED, { a: 1, b: 1, tags: [], note: null });
    await expect(
      prepared(db(), name, NAMED, { a: 1, b: undefined as unknown as number, tags: [], note: null }),
    ).rejects.toThrow(/binding :b is undefined/);
  });

  it('still takes positional bindings', async () => {
    const name = `test_positional_${randomUUID().replace(/-/g, '_')}`;
    const { rows } = await prepared(db(), name, 'select ?::int * ?::int as product', [6, 7]);
    expect(rows).toEqual([{ product: 42 }]);
  });
});
