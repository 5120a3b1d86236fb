// The change log's retention: a daily schedule prunes rows older than FOLIO_CHANGE_LOG_RETENTION, and a
// sync token behind what remains answers 410 sync_token_invalid (docs/drive-sync.md).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { CHANGE_LOG_PRUNE_SCHEDULE_ID } from '../../../workflows/ids.js';
import { call, makeUser } from '../../support/api.js';

afterAll(closeTemporalClient);

describe('Drive change-log retention', () => {
  it('prunes rows older than the retention, keeps newer ones, and refuses a token behind them with 410', async () => {
    const user = await makeUser();
    // Taken before the row that will be pruned: it would need that row, so it cannot be honored afterwards.
    const firstSync = await call('GET', '/v1/drive/changes', { token: user.token });
    expect(firstSync.status).toBe(200);
    const old = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Old' } });
    await db()('drive_changes')
      .where({ item_uuid: old.body.uuid })
      .update({ created_at: new Date(Date.now() - 10 * 86_400_000) });
    const recent = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Recent' } });

    const client = await temporalClient();
    const result = await client.workflow.execute('changeLogPruneWorkflow', {
      workflowId: `change-log-prune-test:${randomUUID()}`,
      taskQueue: config().temporal.taskQueue,
      args: [{ retentionMs: 86_400_000 }],
    });
    expect(result.workspaces).toBeGreaterThanOrEqual(1);

    const remaining = await db()('drive_changes')
      .where({ workspace_uuid: user.workspaceUuid })
      .pluck('item_uuid');
    expect(remaining).toEqual([recent.body.uuid]);
    const behind = await call(
      'GET',
      `/v1/drive/changes?since=${encodeURIComponent(firstSync.body.sync_token)}`,
      { token: user.token },
    );
    expect(behind.status).toBe(410);
    expect(behind.body).toEqual({ error: 'sync_token_invalid' });
    const reseed = await call('GET', '/v1/drive/changes', { token: user.token });
    expect(reseed.body.changes.map((entry: any) => entry.resource.name).sort()).toEqual(['Old', 'Recent']);
  });

  it('keeps the prune and token-cleanup schedules on the Temporal server', async () => {
    const client = await temporalClient();
    const prune = await client.schedule.getHandle(CHANGE_LOG_PRUNE_SCHEDULE_ID).describe();
    // The retention is read by the activity when it runs (settings can change), never fixed in the schedule.
    expect(prune.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'changeLogPruneWorkflow',
      args: [{}],
    });
    const cleanup = await client.schedule.getHandle('folio-access-token-cleanup').describe();
    expect(cleanup.action).toMatchObject({ type: 'startWorkflow', workflowType: 'tokenCleanupWorkflow' });
  });
});
