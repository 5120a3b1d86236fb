// The maintenance schedules across deploys: a worker start brings an existing schedule's action up to the current
// code (arguments that a new version changed) and keeps what an operator set, such as a pause.
// The schedule here is the test's own: every worker that another test file starts runs ensureSchedules on the real
// ones, and such a start between this test's pause and its check once wrote the pause away (CI, 2026-11-29).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { ensureSchedule, type MaintenanceSchedule } from '../../../worker/schedules.js';

afterAll(closeTemporalClient);

const prune = (): MaintenanceSchedule => ({
  scheduleId: `test-change-log-prune-${randomUUID()}`,
  every: '1 day',
  workflowType: 'changeLogPruneWorkflow',
  args: [{}],
});

describe('ensureSchedule', () => {
  // Every worker start runs it; a start that rewrote the schedule anyway could write away a pause made a moment before.
  it('leaves an existing schedule whose action is current as it is', async () => {
    const client = await temporalClient();
    const current = prune();
    await ensureSchedule(client, current);
    const handle = client.schedule.getHandle(current.scheduleId);
    try {
      const before = await handle.describe();
      await ensureSchedule(client, current);
      const after = await handle.describe();
      expect(after.info.lastUpdatedAt).toEqual(before.info.lastUpdatedAt);
      expect(after.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'changeLogPruneWorkflow',
        args: [{}],
      });
    } finally {
      await handle.delete();
    }
  });

  it("replaces an older action of an existing schedule and keeps the operator's pause", async () => {
    const client = await temporalClient();
    const current = prune();
    // What an earlier version left: the retention fixed in the arguments; then an operator paused it.
    await ensureSchedule(client, { ...current, args: [{ retentionMs: 7_776_000_000 }] });
    const handle = client.schedule.getHandle(current.scheduleId);
    try {
      await handle.pause('paused by an operator');
      await ensureSchedule(client, current);
      const after = await handle.describe();
      expect(after.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'changeLogPruneWorkflow',
        args: [{}],
      });
      expect(after.state).toMatchObject({ paused: true, note: 'paused by an operator' });
    } finally {
      await handle.delete();
    }
  });

  // The deploy's read and its write are two calls; an operator's pause that lands between them must survive the write.
  it('keeps a pause made between its read of the schedule and its write, by reading again', async () => {
    const client = await temporalClient();
    const current = prune();
    await ensureSchedule(client, { ...current, args: [{ retentionMs: 7_776_000_000 }] });
    const handle = client.schedule.getHandle(current.scheduleId);
    const service = client.schedule.workflowService;
    const write = service.updateSchedule;
    const writes: string[] = [];
    // The first write waits for the operator's pause, which lands after ensureSchedule read the schedule.
    service.updateSchedule = (async (request: Parameters<typeof write>[0]) => {
      if (!writes.length) await handle.pause('paused by an operator mid-deploy');
      writes.push(request.scheduleId!);
      return write.call(service, request);
    }) as typeof write;
    try {
      await ensureSchedule(client, current);
      const after = await handle.describe();
      expect(after.action).toMatchObject({ type: 'startWorkflow', args: [{}] });
      expect(after.state).toMatchObject({ paused: true, note: 'paused by an operator mid-deploy' });
      // The first write is dropped for its stale conflict token; the next is made from a fresh read.
      expect(writes.length).toBeGreaterThanOrEqual(2);
    } finally {
      service.updateSchedule = write;
      await handle.delete();
    }
  });
});
