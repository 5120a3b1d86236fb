// Recurring maintenance, kept as Temporal Schedules so operators can see, pause and trigger them in the UI.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { config } from '../platform/config.js';
import { temporalClient } from '../platform/temporal.js';
import { CHANGE_LOG_PRUNE_SCHEDULE_ID, TOKEN_CLEANUP_SCHEDULE_ID, WEBHOOK_HISTORY_PURGE_SCHEDULE_ID } from '../workflows/ids.js';

const KEEP_DEAD_TOKENS_MS = 30 * 86_400_000;

/** Creates each daily maintenance schedule unless it exists (an operator's pause or edit is kept). */
export async function ensureSchedules(): Promise<void> {
  await ensureDailySchedule(TOKEN_CLEANUP_SCHEDULE_ID, 'tokenCleanupWorkflow', { keepDeadForMs: KEEP_DEAD_TOKENS_MS });
  await ensureDailySchedule(CHANGE_LOG_PRUNE_SCHEDULE_ID, 'changeLogPruneWorkflow', { retentionMs: config().changeLogRetentionMs });
  await ensureDailySchedule(WEBHOOK_HISTORY_PURGE_SCHEDULE_ID, 'webhookHistoryPurgeWorkflow', {});
}

async function ensureDailySchedule(scheduleId: string, workflowType: string, input: object): Promise<void> {
  const client = await temporalClient();
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1 day' }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action: { type: 'startWorkflow', workflowType, workflowId: scheduleId, taskQueue: config().temporal.taskQueue, args: [input] },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
