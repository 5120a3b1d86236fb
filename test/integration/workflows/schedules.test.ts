// The maintenance schedules across deploys: a worker start brings an existing schedule's action up to the current
// code (arguments that a new version changed) and keeps what an operator set, such as a pause.
import { afterAll, describe, expect, it } from 'vitest';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { ensureSchedules } from '../../../worker/schedules.js';
import { CHANGE_LOG_PRUNE_SCHEDULE_ID } from '../../../workflows/ids.js';

afterAll(closeTemporalClient);

describe('ensureSchedules', () => {
  it("replaces an older action of an existing schedule and keeps the operator's pause", async () => {
    const handle = (await temporalClient()).schedule.getHandle(CHANGE_LOG_PRUNE_SCHEDULE_ID);
    // What an earlier version left: the retention fixed in the arguments; then an operator paused it.
    await handle.update((previous) => {
      if (previous.action.type !== 'startWorkflow') throw new Error('the prune schedule starts a workflow');
      return { ...previous, action: { ...previous.action, args: [{ retentionMs: 7_776_000_000 }] } };
    });
    await handle.pause('paused by an operator');
    try {
      await ensureSchedules();
      const after = await handle.describe();
      expect(after.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'changeLogPruneWorkflow',
        args: [{}],
      });
      expect(after.state).toMatchObject({ paused: true, note: 'paused by an operator' });
    } finally {
      await handle.unpause();
    }
  });
});
