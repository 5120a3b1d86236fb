// Recurring maintenance, kept as Temporal Schedules so operators can see, pause and trigger them in the UI.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { config } from '../platform/config.js';
import { temporalClient } from '../platform/temporal.js';
import { TOKEN_CLEANUP_SCHEDULE_ID } from '../workflows/ids.js';

const KEEP_DEAD_TOKENS_MS = 30 * 86_400_000;

export async function ensureSchedules(): Promise<void> {
  const client = await temporalClient();
  try {
    await client.schedule.create({
      scheduleId: TOKEN_CLEANUP_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 day' }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action: {
        type: 'startWorkflow',
        workflowType: 'tokenCleanupWorkflow',
        workflowId: TOKEN_CLEANUP_SCHEDULE_ID,
        taskQueue: config().temporal.taskQueue,
        args: [{ keepDeadForMs: KEEP_DEAD_TOKENS_MS }],
      },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
