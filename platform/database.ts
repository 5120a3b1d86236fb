// The knex connection to PostgreSQL, shared by the API, the worker and the CLI.
import knexFactory, { type Knex } from 'knex';
import { config } from './config.js';

export type Db = Knex;
export type Tx = Knex.Transaction;

export function createDb(databaseUrl = config().databaseUrl): Db {
  return knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 10 } });
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
