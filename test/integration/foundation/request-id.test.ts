// One request id across an operation (docs/observability.md § Request ids): the API's log line, the memo of the
// workflow the request started, and the log lines of that workflow's activities in the worker.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { driveCascadeWorkflowId } from '../../../workflows/ids.js';
import { call, makeFolder, makeUser } from '../../support/api.js';
import { waitUntil } from '../../support/cascades.js';
import { logLinesWith as logLines } from '../../support/worker.js';

afterAll(closeTemporalClient);

describe('the request id', () => {
  it('appears in the API log, the memo of the workflow the request started, and the log lines of its activities', async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'Traced');
    await makeFolder(user, 'Inside', folder);
    const requestId = `trace-${randomUUID()}`;
    const trashed = await call('POST', `/v1/drive/folders/${folder}/trash`, {
      token: user.token,
      headers: { 'x-request-id': requestId },
    });
    expect(trashed.status).toBe(200);
    expect(trashed.headers.get('x-request-id')).toBe(requestId);

    const operation = await db()('drive_trash_operations').where({ root_uuid: folder }).first('uuid');
    const handle = (await temporalClient()).workflow.getHandle(
      driveCascadeWorkflowId('trash', folder, operation.uuid),
    );
    await handle.result();
    expect((await handle.describe()).memo).toMatchObject({ requestId });

    expect(logLines('api', requestId)).toContainEqual(
      expect.objectContaining({ request_id: requestId, msg: 'request', status: 200 }),
    );
    // The worker writes its lines as activities end; wait for the cascade's to reach the file.
    await waitUntil(async () =>
      logLines('worker', requestId).some((line) => line.activity === 'trashCascadeBatch'),
    );
    for (const line of logLines('worker', requestId)) {
      expect(line).toMatchObject({
        request_id: requestId,
        category: 'activity',
        outcome: 'completed',
        workflow_id: handle.workflowId,
      });
    }
  });

  it('gives a request that sent none an id of its own, and its workflow carries that one', async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'Untraced');
    const trashed = await call('POST', `/v1/drive/folders/${folder}/trash`, { token: user.token });
    expect(trashed.status).toBe(200);
    const operation = await db()('drive_trash_operations').where({ root_uuid: folder }).first('uuid');
    const handle = (await temporalClient()).workflow.getHandle(
      driveCascadeWorkflowId('trash', folder, operation.uuid),
    );
    await handle.result();
    expect((await handle.describe()).memo).toMatchObject({ requestId: trashed.headers.get('x-request-id') });
  });
});
