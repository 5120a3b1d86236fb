// Named prepared statements for the statements Folio runs on every request or delivery.
import type { Knex } from 'knex';

/** pg's own client, as knex's pool lends it. */
interface PooledClient {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Each statement's text with pg's $n placeholders, by name: converted from knex's `?` once. */
const positionalTexts = new Map<string, string>();

/**
 * Runs `sql` as a named prepared statement: each pooled connection parses and plans its text once instead of on
 * every call (pg sends the text only the first time a connection meets the name). A name must stay with one text for
 * the life of the process. Bindings are positional (`?`) or named (`:name`), as knex.raw takes them.
 *
 * With positional bindings outside a transaction the statement goes to a pooled connection straight through pg:
 * knex's runner (the raw's binding rewrite, its events and response handling) costs more than pg does on the hot
 * reads. A connection that fails is still told apart and dropped by knex's pool, which checks each one it lends.
 */
export async function prepared<Row>(
  knex: Knex,
  name: string,
  sql: string,
  bindings: readonly unknown[] | Knex.ValueDict,
): Promise<{ rows: Row[] }> {
  const statement = `folio_${name}`;
  if (knex.isTransaction || !Array.isArray(bindings))
    return (await knex.raw(sql, bindings as Knex.ValueDict).options({ name: statement })) as { rows: Row[] };
  let text = positionalTexts.get(statement);
  if (text === undefined) {
    text = knex.client.positionBindings(sql) as string;
    positionalTexts.set(statement, text);
  }
  const connection = (await knex.client.acquireConnection()) as PooledClient;
  try {
    return (await connection.query({ name: statement, text, values: bindings })) as { rows: Row[] };
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
