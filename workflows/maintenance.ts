// Scheduled maintenance, each run by a Temporal Schedule (worker/schedules.ts): access-token cleanup, the Drive
// change-log prune, the workflow outbox sweep and the staged simple-upload sweep. Each is one activity; what it keeps is decided when it runs.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { SCHEDULED_MAINTENANCE } from './activity-profiles.js';

const { deleteDeadAccessTokens, pruneChangeLogs, sweepWorkflowOutbox, sweepStagedUploads } =
  proxyActivities<Activities>(SCHEDULED_MAINTENANCE);

export interface TokenCleanupInput {
  /** Tokens dead for longer than this are deleted; dead ones stay a while so a 401 can still be explained. */
  keepDeadForMs: number;
}

export interface TokenCleanupResult {
  deleted: number;
}

/** Deletes access tokens that expired or were revoked long ago, so the token table does not grow forever. */
export async function tokenCleanupWorkflow(input: TokenCleanupInput): Promise<TokenCleanupResult> {
  const cutoff = new Date(Date.now() - input.keepDeadForMs).toISOString();
  return { deleted: await deleteDeadAccessTokens({ cutoff }) };
}

export interface ChangeLogPruneInput {
  /**
   * For a one-off run only (an operator, a test). The schedule passes none: the activity then reads
   * FOLIO_CHANGE_LOG_RETENTION when it runs, so a changed setting applies without touching the schedule.
   */
  retentionMs?: number;
}

export interface ChangeLogPruneResult {
  workspaces: number;
}

/** Keeps the Drive change log to its retention; a sync token behind what remains then answers 410. */
export async function changeLogPruneWorkflow(input: ChangeLogPruneInput = {}): Promise<ChangeLogPruneResult> {
  return pruneChangeLogs({ retentionMs: input.retentionMs });
}

export interface WorkflowOutboxSweepResult {
  started: number;
  failed: number;
}

/** Starts the workflows that the transactional outbox still holds after their dispatch failed or never ran. */
export async function workflowOutboxSweepWorkflow(): Promise<WorkflowOutboxSweepResult> {
  return sweepWorkflowOutbox();
}

export interface StagedUploadSweepResult {
  swept: number;
}

/** Discards the bytes and rows of simple uploads whose API process died mid-upload (domain/drive/staged-uploads.ts). */
export async function stagedUploadSweepWorkflow(): Promise<StagedUploadSweepResult> {
  return sweepStagedUploads();
}
