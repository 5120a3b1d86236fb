// Recurring maintenance, kept as Temporal Schedules so operators can see, pause and trigger them in the UI.
import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptionsStartWorkflowAction,
  type Workflow,
} from '@temporalio/client';
import { isDeepStrictEqual } from 'node:util';
import { config } from '../platform/config.js';
import { temporalClient } from '../platform/temporal.js';
import {
  CHANGE_LOG_PRUNE_SCHEDULE_ID,
  STAGED_UPLOAD_SWEEP_SCHEDULE_ID,
  TOKEN_CLEANUP_SCHEDULE_ID,
  WEBHOOK_HISTORY_PURGE_SCHEDULE_ID,
  WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID,
} from '../workflows/ids.js';

const KEEP_DEAD_TOKENS_MS = 30 * 86_400_000;

export interface MaintenanceSchedule {
  scheduleId: string;
  every: string;
  workflowType: string;
  /** Fixed when the schedule is written: ids and constants only; settings are read by the activity when it runs. */
  args: unknown[];
}

const SCHEDULES: MaintenanceSchedule[] = [
  {
    scheduleId: TOKEN_CLEANUP_SCHEDULE_ID,
    every: '1 day',
    workflowType: 'tokenCleanupWorkflow',
    args: [{ keepDeadForMs: KEEP_DEAD_TOKENS_MS }],
  },
  {
    scheduleId: CHANGE_LOG_PRUNE_SCHEDULE_ID,
    every: '1 day',
    workflowType: 'changeLogPruneWorkflow',
    args: [{}],
  },
  // Picks up outbox rows whose dispatch after commit failed or never ran; a minute bounds how late such a start is.
  {
    scheduleId: WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID,
    every: '1 minute',
    workflowType: 'workflowOutboxSweepWorkflow',
    args: [],
  },
  // Simple uploads whose API process died mid-upload: a minute bounds how long their bytes linger.
  {
    scheduleId: STAGED_UPLOAD_SWEEP_SCHEDULE_ID,
    every: '1 minute',
    workflowType: 'stagedUploadSweepWorkflow',
    args: [],
  },
  {
    scheduleId: WEBHOOK_HISTORY_PURGE_SCHEDULE_ID,
    every: '1 day',
    workflowType: 'webhookHistoryPurgeWorkflow',
    args: [{}],
  },
];

/**
 * Creates each maintenance schedule, or brings an existing one's action up to what this code runs (a deploy may
 * change a workflow's arguments). The rest stays as it is: an operator's pause, note or changed interval is kept.
 */
export async function ensureSchedules(): Promise<void> {
  const client = await temporalClient();
  for (const schedule of SCHEDULES) await ensureSchedule(client, schedule);
}

export async function ensureSchedule(client: Client, schedule: MaintenanceSchedule): Promise<void> {
  const action: ScheduleOptionsStartWorkflowAction<(...args: unknown[]) => Promise<unknown>> = {
    type: 'startWorkflow',
    workflowType: schedule.workflowType,
    workflowId: schedule.scheduleId,
    taskQueue: config().temporal.taskQueue,
    args: schedule.args,
  };
  try {
    await client.schedule.create({
      scheduleId: schedule.scheduleId,
      spec: { intervals: [{ every: schedule.every }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action,
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    const handle = client.schedule.getHandle(schedule.scheduleId);
    // An update writes the whole schedule back as it was read a moment before, so a pause an operator makes in between
    // is lost. Only a deploy that changes the action takes that chance; a worker start of the same code writes nothing.
    if (isCurrent((await handle.describe()).action, action)) return;
    await handle.update((previous) => ({ ...previous, action }));
  }
}

const isCurrent = (
  stored: ScheduleDescription['action'],
  wanted: ScheduleOptionsStartWorkflowAction<Workflow>,
) =>
  stored.type === 'startWorkflow' &&
  stored.workflowType === wanted.workflowType &&
  stored.workflowId === wanted.workflowId &&
  stored.taskQueue === wanted.taskQueue &&
  isDeepStrictEqual(stored.args, wanted.args);
