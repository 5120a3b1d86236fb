// Deletes access tokens that expired or were revoked long ago, so the token table does not grow forever.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { deleteDeadAccessTokens } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});

export interface TokenCleanupInput {
  /** Tokens dead for longer than this are deleted; dead ones stay a while so a 401 can still be explained. */
  keepDeadForMs: number;
}

export interface TokenCleanupResult {
  deleted: number;
}

export async function tokenCleanupWorkflow(input: TokenCleanupInput): Promise<TokenCleanupResult> {
  const cutoff = new Date(Date.now() - input.keepDeadForMs).toISOString();
  const deleted = await deleteDeadAccessTokens({ cutoff });
  return { deleted };
}
