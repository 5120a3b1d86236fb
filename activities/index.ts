// All activities, built from their dependencies. Workflows import only the Activities type.
import type { Knex } from 'knex';
import { createAccountActivities } from './accounts.js';

export interface ActivityDeps {
  db: Knex;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createAccountActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
