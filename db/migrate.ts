// Runs Folio's migrations. The list is explicit so compiled and source builds migrate the same way.
import type { Knex } from 'knex';
import * as accounts from './migrations/001_accounts.js';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '001_accounts': accounts,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}
