// Recurring maintenance, kept as Temporal Schedules so operators can see, pause and trigger them in the UI.
import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptionsStartWorkflowAction,
  type Workflow,
} from '@temporalio/client';
import { encodeToPayloads } from '@temporalio/common/lib/internal-non-workflow/index.js';
import { randomUUID } from 'node:crypto';
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

/** Writes of one schedule's action a worker start makes before it gives up (each loses only to a concurrent change). */
const MAX_SCHEDULE_WRITES = 10;

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
    await updateAction(client, schedule.scheduleId, action);
  }
}

/**
 * Writes `action` into an existing schedule unless it is current already (a worker start of the same code writes
 * nothing). The SDK's `update` writes the whole schedule back as read a moment before, so a pause an operator made in
 * between would be lost. Here the write carries the conflict token of the read it is based on: the server drops a write
 * whose token is stale (it still answers success), so the schedule is read again until the action is the one written,
 * with whatever an operator changed meanwhile kept.
 */
async function updateAction(
  client: Client,
  scheduleId: string,
  action: ScheduleOptionsStartWorkflowAction<Workflow>,
): Promise<void> {
  const { workflowService, options } = client.schedule;
  for (let write = 0; ; write++) {
    const description = await client.schedule.getHandle(scheduleId).describe();
    if (isCurrent(description.action, action)) return;
    if (write === MAX_SCHEDULE_WRITES)
      throw new Error(`Schedule ${scheduleId}: its action was not updated after ${write} writes`);
    const { schedule, conflictToken } = description.raw;
    await workflowService.updateSchedule({
      namespace: options.namespace,
      scheduleId,
      schedule: {
        ...schedule,
        action: {
          startWorkflow: {
            ...schedule?.action?.startWorkflow,
            workflowType: { name: action.workflowType as string },
            workflowId: action.workflowId,
            taskQueue: { name: action.taskQueue },
            input: { payloads: await encodeToPayloads(options.loadedDataConverter, ...(action.args ?? [])) },
          },
        },
      },
      conflictToken,
      identity: options.identity,
      requestId: randomUUID(),
    });
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
