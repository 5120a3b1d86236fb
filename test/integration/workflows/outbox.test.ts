// The workflow outbox sweep: a Temporal Schedule starts what a crash or a failed dispatch left in workflow_outbox,
// and removes a row whose workflow already ran without running it again.
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { outboxWorkflowId, type OutboxRequest } from '../../../workflows/registry.js';
import {
  WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID,
  documentPurgeWorkflowId,
  driveCascadeWorkflowId,
} from '../../../workflows/ids.js';
import { call, makeDocument, makeFolder, makeUser } from '../../support/api.js';

afterAll(closeTemporalClient);

/** An outbox row as a committed transaction leaves it, dated past the sweep's 30 s grace. */
async function insertStaleOutboxRow(request: OutboxRequest): Promise<string> {
  const workflowId = outboxWorkflowId(request);
  await db()('workflow_outbox').insert({
    workflow_id: workflowId,
    request,
    created_at: new Date(Date.now() - 5 * 60_000),
  });
  return workflowId;
}

const outboxHas = async (workflowId: string) =>
  Boolean(await db()('workflow_outbox').where({ workflow_id: workflowId }).first());

/** Runs the sweep schedule now, then waits (with a deadline) until it has taken the row. */
async function sweepUntilGone(workflowId: string): Promise<void> {
  const client = await temporalClient();
  await client.schedule.getHandle(WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID).trigger();
  const deadline = Date.now() + 30_000;
  while (await outboxHas(workflowId)) {
    if (Date.now() > deadline) throw new Error(`the outbox sweep left ${workflowId} in place`);
    await new Promise((resolve) => setTimeout(resolve, 200)); // A poll interval, not an assertion.
  }
}

describe('the workflow outbox sweep', () => {
  it('keeps its schedule on the Temporal server, every minute, skipping a run while one is still going', async () => {
    const schedule = await (
      await temporalClient()
    ).schedule
      .getHandle(WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID)
      .describe();
    expect(schedule.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'workflowOutboxSweepWorkflow',
    });
    expect(schedule.spec.intervals).toMatchObject([{ every: 60_000 }]);
    expect(schedule.policies.overlap).toBe('SKIP');
  });

  it('starts the workflow of a row whose dispatch never ran, and removes the row', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Left behind by a crash.' });
    // The trash committed (past its retention) but the process died before it started the purge.
    await db()('documents')
      .where({ uuid: document.uuid })
      .update({ trashed_at: new Date(Date.now() - 3_600_000) });
    const client = await temporalClient();
    const handle = client.workflow.getHandle(documentPurgeWorkflowId(document.uuid));
    await expect(handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const workflowId = await insertStaleOutboxRow({
      type: 'documentPurge',
      documentUuid: document.uuid,
      workspaceUuid: owner.workspaceUuid,
    });
    await sweepUntilGone(workflowId);

    expect(await handle.result()).toEqual({ outcome: 'purged' });
    expect(await db()('documents').where({ uuid: document.uuid }).first()).toBeUndefined();
  });

  it('removes the row of a cascade that already ran without running it a second time', async () => {
    const owner = await makeUser();
    const root = await makeFolder(owner, 'Root');
    await makeFolder(owner, 'Child', root);
    expect((await call('POST', `/v1/drive/folders/${root}/trash`, { token: owner.token })).status).toBe(200);
    const operation = await db()('drive_trash_operations')
      .where({ root_uuid: root })
      .orderBy('seq', 'desc')
      .first();
    const client = await temporalClient();
    const handle = client.workflow.getHandle(driveCascadeWorkflowId('trash', root, operation.uuid));
    expect(await handle.result()).toEqual({ outcome: 'completed', itemsChanged: 1 });
    const firstRun = (await handle.describe()).runId;

    // As if the dispatch had started the cascade and then died before deleting its row.
    const workflowId = await insertStaleOutboxRow({
      type: 'driveCascade',
      kind: 'trash',
      operationUuid: operation.uuid,
      rootUuid: root,
      workspaceUuid: owner.workspaceUuid,
    });
    expect(workflowId).toBe(driveCascadeWorkflowId('trash', root, operation.uuid));
    await sweepUntilGone(workflowId);

    const latest = await handle.describe();
    expect(latest.runId).toBe(firstRun);
    expect(latest.status.name).toBe('COMPLETED');
    expect(await db()('drive_trash_operations').where({ uuid: operation.uuid }).first()).toMatchObject({
      status: 'completed',
      items_changed: 1,
    });
  });
});
