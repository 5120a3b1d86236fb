// Keeps the Drive change log to its retention (FOLIO_CHANGE_LOG_RETENTION); run daily by a Temporal Schedule.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { pruneChangeLogs } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { maximumAttempts: 10 },
});

export interface ChangeLogPruneInput {
  retentionMs: number;
}

export interface ChangeLogPruneResult {
  workspaces: number;
}

export async function changeLogPruneWorkflow(input: ChangeLogPruneInput): Promise<ChangeLogPruneResult> {
  return pruneChangeLogs({ cutoff: new Date(Date.now() - input.retentionMs).toISOString() });
}
