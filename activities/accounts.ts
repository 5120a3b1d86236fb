// Activities over accounts: thin wrappers of domain/accounts, safe to retry.
import type { Knex } from 'knex';
import { deleteDeadAccessTokens } from '../domain/accounts/credentials.js';

export function createAccountActivities(deps: { db: Knex }) {
  return {
    /** Deleting what is already gone deletes nothing, so a retry is harmless. */
    async deleteDeadAccessTokens(input: { cutoff: string }): Promise<number> {
      return deleteDeadAccessTokens(deps.db, new Date(input.cutoff));
    },
  };
}
