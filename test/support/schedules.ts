// Running a maintenance schedule now, as an operator's "trigger" in the Temporal UI does, and waiting for that run.
import { ScheduleOverlapPolicy } from '@temporalio/client';
import { temporalClient } from '../../platform/temporal.js';
import { waitUntil } from './cascades.js';

/** Triggers the schedule and answers the result of the run it started (not of an earlier or a later one). */
export async function runScheduleNow<T = unknown>(scheduleId: string): Promise<T> {
  const client = await temporalClient();
  const handle = client.schedule.getHandle(scheduleId);
  const runsBefore = new Set(
    (await handle.describe()).info.recentActions.map((action) => action.action.workflow.firstExecutionRunId),
  );
  // ALLOW_ALL: a run the schedule started on its own may be going; this one must start all the same.
  await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
  let runId: string | undefined;
  let workflowId = '';
  await waitUntil(async () => {
    const taken = (await handle.describe()).info.recentActions.find(
      (action) => !runsBefore.has(action.action.workflow.firstExecutionRunId),
    );
    if (taken) ({ workflowId, firstExecutionRunId: runId } = taken.action.workflow);
    return runId !== undefined;
  });
  return client.workflow.getHandle(workflowId, runId).result() as Promise<T>;
}
