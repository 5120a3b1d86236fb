// What a simple upload's commit decides (domain/drive/content.ts wholeFileCommit): the answer's `trashed` and version
// read under the change-log lock, so a folder trashed above the destination after its check shows in the answer; the
// destination checked again in the commit, so a folder trashed while the bytes were stored refuses the upload; and
// no push fan-out for a workspace without devices (db/migrations/015_drive_push.ts, docs/drive-push.md); and a cleanup
// after an error that came once the commit was made (its flush, its answer) leaves the file's bytes.
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { uploadWholeFile, type ContentDeps } from '../../../domain/drive/content.js';
import { dropStagedUpload } from '../../../domain/drive/staged-uploads.js';
import { AppError } from '../../../domain/errors.js';
import { config } from '../../../platform/config.js';
import { S3ObjectStore } from '../../../platform/object-store.js';
import { ProcessSession } from '../../../platform/process-session.js';
import { bucket, storage } from '../../../platform/storage.js';
import { workflowClient } from '../../../workflows/client.js';
import { drivePushWorkflowId } from '../../../workflows/ids.js';
import { call, makeFolder, makeUser } from '../../support/api.js';
import { holdRow } from '../../support/cascades.js';
import { simpleDownload } from '../../support/drive-files.js';
import { objectExists, storedUnder } from '../../support/storage.js';

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

  it('refuses with 404 when its destination folder is trashed while its bytes are stored, leaving nothing', async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'Going');
    const session = new ProcessSession({
      connectionString: config().databaseUrl,
      log: { warn: () => undefined },
    });
    onTestFinished(() => session.close());
    const objects = new S3ObjectStore(storage(), bucket());
    let stored!: () => void;
    const bytesStored = new Promise<void>((resolve) => (stored = resolve));
    let proceed!: () => void;
    const gate = new Promise<void>((resolve) => (proceed = resolve));
    // uploadWholeFile as the API runs it, its object storage held once the bytes are in: the destination was checked
    // live before they were stored, and is trashed before the commit.
    const deps: ContentDeps = {
      db: db(),
      objects: Object.assign(Object.create(objects) as S3ObjectStore, {
        putStream: async (...args: Parameters<S3ObjectStore['putStream']>) => {
          await objects.putStream(...args);
          stored();
          await gate;
        },
      }),
      masterKey: config().masterKey,
      lifecycles: workflowClient(),
      runInTransaction: workflowClient().runInTransaction(db()),
      runOneStatement: workflowClient().runOneStatement(db()),
      // A lock held as an API process holds its own, so no sweep takes the staged upload for abandoned meanwhile.
      uploadOwnerLock: () => session.ownerLock(),
      log: { warn: () => undefined },
    };
    const before = await db()('workspaces').where({ uuid: user.workspaceUuid }).first('storage_used_bytes');
    const uploading = uploadWholeFile(
      deps,
      { userUuid: user.uuid, workspaceUuid: user.workspaceUuid },
      { name: 'late.txt', contentType: 'text/plain', folderUuid: folder, data: Buffer.from('late bytes') },
    );
    await bytesStored;
    expect((await call('POST', `/v1/drive/folders/${folder}/trash`, { token: user.token })).status).toBe(200);
    proceed();
    const refusal = await uploading.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 404, code: 'not_found' });
    expect(await db()('drive_items').where({ parent_uuid: folder, name: 'late.txt' })).toEqual([]);
    expect(await db()('drive_staged_uploads').where({ workspace_uuid: user.workspaceUuid })).toEqual([]);
    expect(await db()('workspaces').where({ uuid: user.workspaceUuid }).first('storage_used_bytes')).toEqual(
      before,
    );
    expect(await storedUnder(user.workspaceUuid)).toEqual({ objects: [], uploads: [] });
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

  it('keeps the bytes of a committed upload when its request cleans up after a later error', async () => {
    // uploadWholeFile drops its staged upload on any error, and an error may come after the commit (the wait for the
    // commit's flush, an answer lost with its connection): by then the row is claimed and the object is the file's.
    const user = await makeUser();
    const created = await upload(user.token, null);
    expect(created.status).toBe(201);
    const version = await db()('drive_file_versions').where({ file_uuid: created.body.uuid }).first();
    await dropStagedUpload(
      { db: db(), objects: new S3ObjectStore(storage(), bucket()) },
      version.storage_key,
    );
    expect(await objectExists(version.storage_key)).toBe(true);
    expect((await simpleDownload(user, created.body.uuid)).toString()).toBe('one kilobyte or so');
  });
});
