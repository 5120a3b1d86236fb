// Content replacement: initiate, part URLs, complete (atomic promotion, ctag), abort, expiry and the
// retention and purge of the retired version.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { replaceWorkflowId } from '../../../workflows/ids.js';
import { call, makeUser, tokenFor, type TestUser } from '../../support/api.js';
import {
  contentHash,
  downloadChunked,
  initiateReplace,
  replaceChunked,
  sendChunks,
} from '../../support/folio-client.js';
import { simpleDownload, simpleUpload } from '../../support/drive-files.js';
import { objectExists } from '../../support/storage.js';
import { usedBytes } from '../../support/drive-rows.js';

afterAll(closeTemporalClient);

const MiB = 1024 * 1024;

const lifecycleResult = async (versionUuid: string) =>
  (await temporalClient()).workflow.getHandle(replaceWorkflowId(versionUuid)).result();

async function grant(user: TestUser, itemUuid: string, role: string) {
  await db()('drive_grants').insert({
    workspace_uuid: user.workspaceUuid,
    item_uuid: itemUuid,
    principal_type: 'user',
    principal_user_uuid: user.uuid,
    role,
    status: 'accepted',
  });
}

describe("Replacing a file's contents", () => {
  it('initiates with a new version uuid and key, 201 with the replace initiate fields', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'doc.bin', randomBytes(100));
    const response = await call('POST', `/v1/drive/files/${file.uuid}/replace`, {
      token: user.token,
      json: { plaintext_size_bytes: 9 * MiB },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      version_uuid: expect.any(String),
      data_key: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
      chunk_size_bytes: 8 * MiB,
      chunk_count: 2,
      storage_upload_id: expect.any(String),
    });
    expect(response.body.version_uuid).not.toBe(file.uuid);
    const init = await call('GET', `/v1/drive/files/${file.uuid}/download_init`, { token: user.token });
    expect(response.body.data_key).not.toBe(init.body.data_key);
    const staged = await db()('drive_file_versions').where({ uuid: response.body.version_uuid }).first();
    expect(staged).toMatchObject({
      status: 'staged',
      storage_key: `drive/${user.workspaceUuid}/${file.uuid}/${response.body.version_uuid}`,
    });
  });

  it('refuses a second initiate while one is in flight with 422 invalid_upload_status, even when they race', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'busy.bin', randomBytes(10));
    const first = await call('POST', `/v1/drive/files/${file.uuid}/replace`, {
      token: user.token,
      json: { plaintext_size_bytes: 5 },
    });
    expect(first.status).toBe(201);
    const second = await call('POST', `/v1/drive/files/${file.uuid}/replace`, {
      token: user.token,
      json: { plaintext_size_bytes: 5 },
    });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ error: 'invalid_upload_status' });

    const other = await simpleUpload(user, 'race.bin', randomBytes(10));
    const racing = await Promise.all(
      Array.from({ length: 4 }, () =>
        call('POST', `/v1/drive/files/${other.uuid}/replace`, {
          token: user.token,
          json: { plaintext_size_bytes: 5 },
        }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
    expect(await db()('drive_file_versions').where({ file_uuid: other.uuid, status: 'staged' })).toHaveLength(
      1,
    );
  });

  it('completes atomically: new content both ways, ctag and version +1, new size and type, one update change', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const original = randomBytes(1000);
    const file = await simpleUpload(user, 'report.txt', original, { content_type: 'text/plain' });
    const replacement = randomBytes(8 * MiB + 5);
    const updated = await replaceChunked(client, file.uuid, {
      size: replacement.length,
      source: replacement,
      contentType: 'application/pdf',
    });
    expect(updated).toEqual({
      ...file,
      content_type: 'application/pdf',
      file_size_bytes: replacement.length,
      version: 2,
      ctag: 1,
      updated_at: expect.any(String),
      content_hash: await contentHash(replacement),
    });
    expect((await simpleDownload(user, file.uuid)).equals(replacement)).toBe(true);
    expect((await downloadChunked(client, file.uuid))!.equals(replacement)).toBe(true);
    const changes = await db()('drive_changes').where({ item_uuid: file.uuid }).orderBy('seq');
    expect(changes.map((c) => [c.change_type, c.item_version])).toEqual([
      ['create', 1],
      ['update', 2],
    ]);
  });

  it('keeps the content type when the replacement names none', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'same-type.txt', Buffer.from('one'), {
      content_type: 'text/plain',
    });
    const updated = await replaceChunked({ token: user.token }, file.uuid, {
      size: 3,
      source: Buffer.from('two'),
    });
    expect(updated).toMatchObject({ content_type: 'text/plain', ctag: 1 });
    expect((await simpleDownload(user, file.uuid)).toString()).toBe('two');
  });

  it('aborts: 200 with the unchanged file, the old content still served, and a new replacement allowed', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const original = randomBytes(500);
    const file = await simpleUpload(user, 'stay.bin', original);
    const transfer = await initiateReplace(client, file.uuid, { size: 300 });
    await sendChunks(
      client,
      `/v1/drive/files/${file.uuid}/replace/part_urls`,
      transfer,
      300,
      randomBytes(300),
    );
    const staged = await db()('drive_file_versions').where({ uuid: transfer.versionUuid }).first();

    const abort = await call('POST', `/v1/drive/files/${file.uuid}/replace/abort`, { token: user.token });
    expect(abort.status).toBe(200);
    expect(abort.body).toEqual(file);
    expect((await simpleDownload(user, file.uuid)).equals(original)).toBe(true);
    expect((await downloadChunked(client, file.uuid))!.equals(original)).toBe(true);
    expect(await db()('drive_file_versions').where({ uuid: transfer.versionUuid }).first()).toMatchObject({
      status: 'aborted',
    });
    let open = 0;
    for await (const upload of storage().listIncompleteUploads(bucket(), staged.storage_key, true))
      if (upload) open++;
    expect(open).toBe(0);
    expect(await lifecycleResult(transfer.versionUuid)).toEqual({ outcome: 'aborted', purgedVersions: 0 });

    const again = await call('POST', `/v1/drive/files/${file.uuid}/replace/abort`, { token: user.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'not_found' });
    expect(
      (
        await call('POST', `/v1/drive/files/${file.uuid}/replace`, {
          token: user.token,
          json: { plaintext_size_bytes: 1 },
        })
      ).status,
    ).toBe(201);
  });

  it('keeps the previous version for the retention period, then purges its object and row and frees its bytes', async () => {
    const user = await makeUser();
    const original = randomBytes(700);
    const file = await simpleUpload(user, 'history.bin', original);
    const oldKey = `drive/${user.workspaceUuid}/${file.uuid}/${file.uuid}`;
    const replacement = randomBytes(300);
    const transfer = await initiateReplace({ token: user.token }, file.uuid, { size: 300 });
    expect(await usedBytes(user)).toBe(1000);
    const parts = await sendChunks(
      { token: user.token },
      `/v1/drive/files/${file.uuid}/replace/part_urls`,
      transfer,
      300,
      replacement,
    );
    const done = await call('POST', `/v1/drive/files/${file.uuid}/replace/complete`, {
      token: user.token,
      json: { parts },
    });
    expect(done.status).toBe(200);

    expect(await objectExists(oldKey)).toBe(true);
    expect(await db()('drive_file_versions').where({ uuid: file.uuid }).first()).toMatchObject({
      status: 'retired',
      superseded_by: transfer.versionUuid,
    });
    expect(await usedBytes(user)).toBe(1000);

    expect(await lifecycleResult(transfer.versionUuid)).toEqual({ outcome: 'completed', purgedVersions: 1 });
    expect(await objectExists(oldKey)).toBe(false);
    expect(await db()('drive_file_versions').where({ uuid: file.uuid }).first()).toBeUndefined();
    expect(await usedBytes(user)).toBe(300);
    expect((await simpleDownload(user, file.uuid)).equals(replacement)).toBe(true);
  });

  it('expires an abandoned replacement, freeing its bytes and letting a new one start', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'idle.bin', randomBytes(50));
    const transfer = await initiateReplace({ token: user.token }, file.uuid, { size: 70 });
    expect(await usedBytes(user)).toBe(120);
    expect(await lifecycleResult(transfer.versionUuid)).toEqual({ outcome: 'expired', purgedVersions: 0 });
    expect(await usedBytes(user)).toBe(50);
    const complete = await call('POST', `/v1/drive/files/${file.uuid}/replace/complete`, {
      token: user.token,
      json: { parts: [] },
    });
    expect(complete.status).toBe(404);
    expect(complete.body).toEqual({ error: 'not_found' });
    const current = await call('GET', `/v1/drive/files/${file.uuid}`, { token: user.token });
    expect(current.body).toMatchObject({ ctag: 0, version: 1, file_size_bytes: 50 });
    expect(
      (
        await call('POST', `/v1/drive/files/${file.uuid}/replace`, {
          token: user.token,
          json: { plaintext_size_bytes: 1 },
        })
      ).status,
    ).toBe(201);
  });

  it('needs the editor role: a viewer gets 403 not_authorized, a stranger 404, and drive.update scope', async () => {
    const owner = await makeUser();
    const viewer = await makeUser({ workspace: { uuid: owner.workspaceUuid } });
    const editor = await makeUser({ workspace: { uuid: owner.workspaceUuid } });
    const stranger = await makeUser({ workspace: { uuid: owner.workspaceUuid } });
    const file = await simpleUpload(owner, 'shared.bin', randomBytes(10));
    await grant(viewer, file.uuid, 'viewer');
    await grant(editor, file.uuid, 'editor');
    const replace = (token: string) =>
      call('POST', `/v1/drive/files/${file.uuid}/replace`, { token, json: { plaintext_size_bytes: 4 } });
    const asViewer = await replace(viewer.token);
    expect(asViewer.status).toBe(403);
    expect(asViewer.body).toEqual({ error: 'not_authorized' });
    const asStranger = await replace(stranger.token);
    expect(asStranger.status).toBe(404);
    expect(asStranger.body).toEqual({ error: 'not_found' });
    const noScope = await replace(await tokenFor(owner, ['drive.read', 'drive.create']));
    expect(noScope.status).toBe(403);
    expect(noScope.body).toMatchObject({ error: 'insufficient_scope' });

    const updated = await replaceChunked({ token: editor.token }, file.uuid, {
      size: 4,
      source: Buffer.from('edit'),
    });
    expect(updated).toMatchObject({ ctag: 1, my_role: 'editor' });
    expect((await simpleDownload(owner, file.uuid)).toString()).toBe('edit');
  });

  it('lets only the person who started a replacement use it; others get 404', async () => {
    const owner = await makeUser();
    const editor = await makeUser({ workspace: { uuid: owner.workspaceUuid } });
    const file = await simpleUpload(owner, 'mine-in-flight.bin', randomBytes(10));
    await grant(editor, file.uuid, 'editor');
    await initiateReplace({ token: owner.token }, file.uuid, { size: 4 });
    for (const [action, json] of [
      ['part_urls', { part_numbers: [1] }],
      ['complete', { parts: [] }],
      ['abort', undefined],
    ] as const) {
      const response = await call('POST', `/v1/drive/files/${file.uuid}/replace/${action}`, {
        token: editor.token,
        json,
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
    const second = await call('POST', `/v1/drive/files/${file.uuid}/replace`, {
      token: editor.token,
      json: { plaintext_size_bytes: 4 },
    });
    expect(second.body).toEqual({ error: 'invalid_upload_status' });
  });

  it('replaces a trashed file too; it stays in the trash with its new content', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'binned.bin', randomBytes(20));
    const trashed = await call('POST', `/v1/drive/files/${file.uuid}`, {
      token: user.token,
      json: { trashed: true },
    });
    expect(trashed.body.trashed).toBe(true);
    const updated = await replaceChunked({ token: user.token }, file.uuid, {
      size: 6,
      source: Buffer.from('binned'),
    });
    expect(updated).toMatchObject({ trashed: true, ctag: 1, file_size_bytes: 6 });
    expect((await simpleDownload(user, file.uuid)).toString()).toBe('binned');
  });

  it('refuses a replacement of a file still uploading with 422 invalid_upload_status', async () => {
    const user = await makeUser();
    const upload = await call('POST', '/v1/drive/uploads', {
      token: user.token,
      json: { name: 'u.bin', content_type: 'text/plain', plaintext_size_bytes: 3 },
    });
    const response = await call('POST', `/v1/drive/files/${upload.body.file_uuid}/replace`, {
      token: user.token,
      json: { plaintext_size_bytes: 3 },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'invalid_upload_status' });
  });

  it('validates the body: 422 missing_required_fields, 422 invalid_file_size, 422 invalid content_type', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'v.bin', randomBytes(3));
    const path = `/v1/drive/files/${file.uuid}/replace`;
    const missing = await call('POST', path, { token: user.token, json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ error: 'missing_required_fields', fields: ['plaintext_size_bytes'] });
    const bad = await call('POST', path, { token: user.token, json: { plaintext_size_bytes: -5 } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ error: 'invalid_file_size' });
    const type = await call('POST', path, {
      token: user.token,
      json: { plaintext_size_bytes: 5, content_type: 'nope' },
    });
    expect(type.status).toBe(422);
    expect(type.body).toEqual({ error: 'invalid', field: 'content_type' });
    const parts = await call('POST', `${path}/part_urls`, { token: user.token, json: { part_numbers: [1] } });
    expect(parts.status).toBe(404);
  });
});
