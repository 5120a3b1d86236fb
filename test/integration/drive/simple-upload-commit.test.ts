// What a simple upload's commit decides (domain/drive/content.ts reserveAndAnnounce): the answer's `trashed` and version
// read under the change-log lock, so a folder trashed above the destination after its check shows in the answer; and
// no push fan-out for a workspace without devices (db/migrations/015_drive_push.ts, docs/drive-push.md).
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { drivePushWorkflowId } from '../../../workflows/ids.js';
import { call, makeFolder, makeUser } from '../../support/api.js';
import { holdRow } from '../../support/cascades.js';

afterAll(closeTemporalClient);

const upload = (token: string, folderUuid: string | null) =>
  call('POST', '/v1/drive/files', {
    token,
    json: {
      name: 'late.txt',
      content_type: 'text/plain',
      data: Buffer.from('one kilobyte or so').toString('base64'),
      folder_uuid: folderUuid,
    },
  });

describe('a simple upload at its commit', () => {
  it('answers trashed: true, with the version GET shows, when a folder above its destination is trashed before it commits', async () => {
    const user = await makeUser();
    const top = await makeFolder(user, 'Top');
    const inner = await makeFolder(user, 'Inner', top);
    // The pool's update, in the upload's last statement, waits on the held workspace row: by then the upload has checked
    // Inner live and inserted its file.
    const hold = await holdRow(user.workspaceUuid, 'workspaces');
    let answer: ReturnType<typeof upload>;
    try {
      answer = upload(user.token, inner);
      await hold.blocking();
      expect((await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token })).status).toBe(200);
    } finally {
      await hold.release();
    }
    const created = await answer;
    expect(created.status).toBe(201);
    const read = await call('GET', `/v1/drive/files/${created.body.uuid}`, { token: user.token });
    expect(read.body).toMatchObject({ trashed: true });
    expect(created.body).toMatchObject({ trashed: true, version: read.body.version });
    const change = await db()('drive_changes')
      .where({ item_uuid: created.body.uuid, change_type: 'create' })
      .first();
    expect(change.item_version).toBe(read.body.version);
  });

  it('records no push fan-out and starts no push workflow for a workspace without devices', async () => {
    const user = await makeUser();
    expect((await upload(user.token, null)).status).toBe(201);
    expect(
      await db()('workflow_outbox').whereRaw(
        `request->>'type' = 'drivePush' and request->>'workspaceUuid' = ?`,
        [user.workspaceUuid],
      ),
    ).toEqual([]);
    const client = await temporalClient();
    await expect(
      client.workflow.getHandle(drivePushWorkflowId(user.workspaceUuid)).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });
});
