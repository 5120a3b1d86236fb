// Activities over accounts: thin wrappers of domain/accounts, safe to retry.
import { deleteDeadAccessTokens } from '../domain/accounts/credentials.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export function createAccountActivities(deps: Pick<ActivityDeps, 'db'>) {
  return {
    /** Deleting what is already gone deletes nothing, so a retry is harmless. One statement, long on a big table. */
    async deleteDeadAccessTokens(input: { cutoff: string }): Promise<number> {
      return heartbeating(() => deleteDeadAccessTokens(deps.db, new Date(input.cutoff)));
    },
  };
}
