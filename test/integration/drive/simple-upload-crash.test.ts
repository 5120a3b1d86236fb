// A simple upload runs within its request, with no workflow: a staged row covers its crash window, and the staged-upload
// sweep schedule discards what an API process that died mid-upload left (docs/drive-encryption.md § Crash safety).
import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { STAGED_UPLOAD_SWEEP_SCHEDULE_ID, uploadWorkflowId } from '../../../workflows/ids.js';
import { call, makeUser, type TestUser } from '../../support/api.js';
import { startExtraApi } from '../../support/extra-api.js';
import { holdRow, waitUntil } from '../../support/cascades.js';
import { simpleDownload, simpleUpload } from '../../support/drive-files.js';
import { runScheduleNow } from '../../support/schedules.js';
import { objectExists } from '../../support/storage.js';
import { usedBytes } from '../../support/drive-rows.js';

afterAll(closeTemporalClient);

const stagedRowsOf = (user: TestUser) =>
  db()('drive_staged_uploads').where({ workspace_uuid: user.workspaceUuid });

/**
 * Starts a simple upload that stores its bytes and then waits in its commit: the test holds the workspace row (the
 * commit's pool update needs it) until it lets go. Answers the staged row's key once the object is in storage and the
 * commit waits.
 */
async function uploadHeldAtCommit(baseUrl: string, user: TestUser, data: Buffer) {
  const hold = await holdRow(user.workspaceUuid, 'workspaces');
  const response = fetch(`${baseUrl}/v1/drive/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'held.bin',
      content_type: 'application/octet-stream',
      data: data.toString('base64'),
    }),
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))); // A killed API fails it: kept, not thrown.
  await hold.blocking();
  const [row] = await stagedRowsOf(user);
  const key: string = row.storage_key;
  expect(await objectExists(key)).toBe(true);
  return { key, response, hold };
}

describe('Simple upload without a workflow', () => {
  it('starts no upload workflow and leaves no staged row once it answers', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'plain.txt', Buffer.from('no workflow'));
    const client = await temporalClient();
    await expect(client.workflow.getHandle(uploadWorkflowId(file.uuid)).describe()).rejects.toBeInstanceOf(
      WorkflowNotFoundError,
    );
    expect(await stagedRowsOf(user)).toEqual([]);
  });

  it('keeps its staged-upload sweep schedule on the Temporal server, every minute, skipping a run while one is going', async () => {
    const schedule = await (
      await temporalClient()
    ).schedule
      .getHandle(STAGED_UPLOAD_SWEEP_SCHEDULE_ID)
      .describe();
    expect(schedule.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'stagedUploadSweepWorkflow',
    });
    expect(schedule.spec.intervals).toMatchObject([{ every: 60_000 }]);
    expect(schedule.policies.overlap).toBe('SKIP');
  });

  it('is left alone by a sweep while its API process lives, and completes', async () => {
    const user = await makeUser();
    const data = randomBytes(2000);
    const api = await startExtraApi('upload-api-1');
    try {
      const upload = await uploadHeldAtCommit(api.url, user, data);
      expect(await runScheduleNow(STAGED_UPLOAD_SWEEP_SCHEDULE_ID)).toEqual({ swept: 0 });
      expect(await objectExists(upload.key)).toBe(true);
      await upload.hold.release();
      const response = await upload.response;
      if (response instanceof Error) throw response;
      expect(response.status).toBe(201);
      const file = (await response.json()) as { uuid: string };
      expect(await simpleDownload(user, file.uuid)).toEqual(data);
      expect(await stagedRowsOf(user)).toEqual([]);
    } finally {
      await api.stop();
    }
  });

  it('leaves nothing once the sweep has run when its API process dies after storing the bytes, before the commit', async () => {
    const user = await makeUser();
    const before = await usedBytes(user);
    const api = await startExtraApi('upload-api-2');
    const upload = await uploadHeldAtCommit(api.url, user, randomBytes(3000));
    await api.kill();
    // The commit, one statement that would commit as it ends, is ended by PostgreSQL once it finds its client gone
    // (platform/database.ts CLIENT_CHECK_INTERVAL_MS), not committed when the row it waits for is let go.
    await upload.hold.unwaited();
    await upload.hold.release();
    expect(await upload.response).toBeInstanceOf(Error);
    const [row] = await stagedRowsOf(user);
    expect(row).toMatchObject({ storage_key: upload.key });
    expect(await objectExists(upload.key)).toBe(true);

    // The dead process's transaction rolls back (its row is locked until then, and a sweep skips it): sweep until it goes.
    await waitUntil(async () => {
      await runScheduleNow(STAGED_UPLOAD_SWEEP_SCHEDULE_ID);
      return (await stagedRowsOf(user)).length === 0;
    });
    expect(await objectExists(upload.key)).toBe(false);
    expect(await db()('drive_items').where({ uuid: row.file_uuid })).toEqual([]);
    expect(await db()('drive_file_versions').where({ file_uuid: row.file_uuid })).toEqual([]);
    expect(await usedBytes(user)).toBe(before);
    const listed = await call('GET', '/v1/drive/files', { token: user.token });
    expect(listed.body.files).toEqual([]);
    expect((await simpleUpload(user, 'held.bin', Buffer.from('the name is free'))).name).toBe('held.bin');
  });
});
