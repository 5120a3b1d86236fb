// The knex connection to PostgreSQL, shared by the API, the worker and the CLI.
import knexFactory, { type Knex } from 'knex';
import { config } from './config.js';

export type Db = Knex;
export type Tx = Knex.Transaction;

/**
 * Every session reads and prints times in UTC, whatever the server's default: a timestamp read as text
 * (domain/answer-times.ts) is then already in the form an answer carries.
 *
 * How often a session running a statement checks that its client is still there (PostgreSQL's
 * client_connection_check_interval). A statement that commits as it ends (a simple upload's commit,
 * domain/unit-of-work.ts RunOneStatement) must not commit for a process that died while it waited on a lock: its
 * request failed, and the staged-upload sweep cleans up after it (docs/drive-encryption.md § Crash safety).
 */
const CLIENT_CHECK_INTERVAL_MS = 1000;

export function createDb(databaseUrl = config().databaseUrl): Db {
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: databaseUrl,
      options: `-c client_connection_check_interval=${CLIENT_CHECK_INTERVAL_MS} -c TimeZone=UTC`,
    },
    pool: { min: 0, max: 10 },
  });
}

let shared: Db | undefined;

export function db(): Db {
  shared ??= createDb();
  return shared;
}

export async function closeDb(): Promise<void> {
  await shared?.destroy();
  shared = undefined;
}
