// Named prepared statements for the statements Folio runs on every request or delivery.
import type { Knex } from 'knex';

/** pg's own client, as knex's pool lends it. */
interface PooledClient {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

/** A statement's text with pg's $n placeholders and, for named bindings, the name each placeholder takes. */
interface PositionalText {
  text: string;
  names?: string[];
}

/** Each statement's positional text, by name: rewritten from knex's `?` or `:name` bindings once. */
const positionalTexts = new Map<string, PositionalText>();

/** Marks the stand-in values a statement's named bindings are rewritten with (positionalText). */
const STAND_IN = '\u0000folio-binding:';

/**
 * Runs `sql` as a named prepared statement: each pooled connection parses and plans its text once instead of on
 * every call (pg sends the text only the first time a connection meets the name). A name must stay with one text for
 * the life of the process. Bindings are positional (`?`) or named (`:name`), as knex.raw takes them (plain values).
 *
 * Outside a transaction the statement goes to a pooled connection straight through pg: knex's runner (the raw's
 * binding rewrite, its events and response handling) costs more than pg does on the hot reads. A connection that
 * fails is still told apart and dropped by knex's pool, which checks each one it lends.
 */
export async function prepared<Row>(
  knex: Knex,
  name: string,
  sql: string,
  bindings: readonly unknown[] | Knex.ValueDict,
): Promise<{ rows: Row[] }> {
  const statement = `folio_${name}`;
  if (knex.isTransaction)
    return (await knex.raw(sql, bindings as Knex.ValueDict).options({ name: statement })) as { rows: Row[] };
  let positional = positionalTexts.get(statement);
  if (positional === undefined) {
    positional = positionalText(knex, sql, bindings);
    positionalTexts.set(statement, positional);
  }
  const values = positional.names
    ? positional.names.map((key) => namedValue(bindings as Knex.ValueDict, key, name))
    : (bindings as readonly unknown[]);
  const connection = (await knex.client.acquireConnection()) as PooledClient;
  try {
    return (await connection.query({ name: statement, text: positional.text, values })) as { rows: Row[] };
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

/**
 * knex's own rewriting of the bindings into pg's, done once per statement: named bindings are rewritten with stand-ins
 * that carry their names, so the order knex puts them in (a name used twice takes two places) is read back from them.
 */
function positionalText(
  knex: Knex,
  sql: string,
  bindings: readonly unknown[] | Knex.ValueDict,
): PositionalText {
  if (Array.isArray(bindings)) return { text: knex.client.positionBindings(sql) as string };
  const standIns = Object.fromEntries(Object.keys(bindings).map((key) => [key, STAND_IN + key]));
  const native = knex.raw(sql, standIns).toSQL().toNative();
  const names = native.bindings.map((value) => {
    if (typeof value !== 'string' || !value.startsWith(STAND_IN))
      throw new Error(`prepared statement ${sql.slice(0, 60)}…: a binding knex did not take by name`);
    return value.slice(STAND_IN.length);
  });
  return { text: native.sql, names };
}

/** A named binding's value; as knex would, an undefined one is refused rather than sent as null. */
function namedValue(bindings: Knex.ValueDict, key: string, statement: string): unknown {
  const value = bindings[key];
  if (value === undefined) throw new Error(`prepared statement ${statement}: binding :${key} is undefined`);
  return value;
}
