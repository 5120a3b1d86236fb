// Permanent delete over HTTP: DELETE on files and folders, what goes with an item (subtree, versions, stored
// objects, multipart uploads, pool bytes, grants, links), its delete changes, roles and scopes.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sealPublicLinkToken } from '../../../domain/drive/sealed-tokens.js';
import { operationsOn } from '../../../domain/drive/trash.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import {
  call,
  grant,
  insertDriveFile,
  makeColleague,
  makeUser,
  tokenFor,
  type TestUser,
  makeFolder,
} from '../../support/api.js';
import { settle } from '../../support/cascades.js';
import { lastSeq, usedBytes } from '../../support/drive-rows.js';
import { objectExists } from '../../support/storage.js';

afterAll(closeTemporalClient);

const file = (user: TestUser, name: string, folderUuid: string | null = null) =>
  insertDriveFile(user, { name, folderUuid });

/**
 * A version of a file with its bytes in the bucket, accounted in the workspace pool as the content routes do.
 * A staged version has a multipart upload in flight instead of an object.
 */
async function storedVersion(
  user: TestUser,
  fileUuid: string,
  status: 'live' | 'retired' | 'staged',
  bytes: number,
) {
  const versionUuid = randomUUID();
  const key = `drive/${user.workspaceUuid}/${fileUuid}/${versionUuid}`;
  let uploadId: string | null = null;
  if (status === 'staged') uploadId = await storage().initiateNewMultipartUpload(bucket(), key, {});
  else await storage().putObject(bucket(), key, Buffer.from(`ciphertext of ${versionUuid}`));
  await db()('drive_file_versions').insert({
    uuid: versionUuid,
    file_uuid: fileUuid,
    workspace_uuid: user.workspaceUuid,
    status,
    wrapped_key: Buffer.alloc(60),
    storage_key: key,
    storage_upload_id: uploadId,
    content_type: 'text/plain',
    plaintext_size_bytes: bytes,
    chunk_size_bytes: 65536,
    chunk_count: 1,
  });
  await db()('workspaces').where({ uuid: user.workspaceUuid }).increment('storage_used_bytes', bytes);
  return { key, uploadId };
}

const changesSince = (seq: number, uuids: string[]) =>
  db()('drive_changes')
    .where('seq', '>', seq)
    .whereIn('item_uuid', uuids)
    .orderBy('seq')
    .select('item_uuid', 'change_type', 'resource_type', 'item_version', 'parent_uuid', 'ancestor_uuids');
const versionOf = async (uuid: string): Promise<number> =>
  (await db()('drive_items').where({ uuid }).first()).version;

describe('DELETE /v1/drive/files/{uuid}', () => {
  it('answers 204 with an empty body; the file, every version, its objects and pool bytes go, with one delete change', async () => {
    const user = await makeUser();
    const parent = await makeFolder(user, 'Holder');
    const uuid = await file(user, 'doomed.bin', parent);
    const live = await storedVersion(user, uuid, 'live', 1000);
    const retired = await storedVersion(user, uuid, 'retired', 700);
    const staged = await storedVersion(user, uuid, 'staged', 300);
    expect(await usedBytes(user)).toBe(2000);
    const version = await versionOf(uuid);
    const before = await lastSeq();

    const response = await call('DELETE', `/v1/drive/files/${uuid}`, { token: user.token });

    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    const gone = await call('GET', `/v1/drive/files/${uuid}`, { token: user.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'not_found' });
    expect(await settle(uuid)).toEqual({ outcome: 'completed', itemsChanged: 1 });
    expect(await db()('drive_items').where({ uuid })).toEqual([]);
    expect(await db()('drive_file_versions').where({ file_uuid: uuid })).toEqual([]);
    expect(await objectExists(live.key)).toBe(false);
    expect(await objectExists(retired.key)).toBe(false);
    expect(await storage().findUploadId(bucket(), staged.key)).toBeFalsy();
    expect(await usedBytes(user)).toBe(0);
    expect(await changesSince(before, [uuid])).toEqual([
      {
        item_uuid: uuid,
        change_type: 'delete',
        resource_type: 'file',
        item_version: version + 1,
        parent_uuid: parent,
        ancestor_uuids: [parent],
      },
    ]);
  });

  it('answers 404 not_found for a folder, an unknown uuid and a file already deleted', async () => {
    const user = await makeUser();
    const folderUuid = await makeFolder(user, 'Folder');
    const uuid = await file(user, 'once.txt');
    expect((await call('DELETE', `/v1/drive/files/${uuid}`, { token: user.token })).status).toBe(204);
    for (const target of [folderUuid, randomUUID(), uuid, 'not-a-uuid']) {
      const response = await call('DELETE', `/v1/drive/files/${target}`, { token: user.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
    expect(await db()('drive_items').where({ uuid: folderUuid }).first()).toMatchObject({ deleted_at: null });
  });

  it('needs the drive.delete scope: 403 insufficient_scope and nothing changes', async () => {
    const user = await makeUser();
    const uuid = await file(user, 'kept.txt');
    const token = await tokenFor(user, ['drive.read', 'drive.create', 'drive.update']);
    const response = await call('DELETE', `/v1/drive/files/${uuid}`, { token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', scope: 'drive.delete' });
    expect(await db()('drive_items').where({ uuid }).first()).toMatchObject({ deleted_at: null, version: 1 });
  });
});

describe('DELETE /v1/drive/folders/{uuid}', () => {
  it('removes the whole subtree with its grants, links, versions and objects, with a delete change per item', async () => {
    const owner = await makeUser();
    const viewer = await makeColleague(owner);
    const top = await makeFolder(owner, 'Top');
    const a = await file(owner, 'a.txt', top);
    const sub = await makeFolder(owner, 'Sub', top);
    const b = await file(owner, 'b.txt', sub);
    const subsub = await makeFolder(owner, 'Subsub', sub);
    const earlier = await makeFolder(owner, 'Trashed earlier', top);
    const c = await file(owner, 'c.txt', earlier);
    const objects = [
      await storedVersion(owner, a, 'live', 10),
      await storedVersion(owner, a, 'retired', 20),
      await storedVersion(owner, b, 'live', 30),
      await storedVersion(owner, c, 'live', 40),
    ];
    const upload = await storedVersion(owner, b, 'staged', 50);
    const untouched = await file(owner, 'elsewhere.txt');
    const untouchedObject = await storedVersion(owner, untouched, 'live', 5);
    await grant({ folder: sub }, { user: viewer }, 'viewer');
    const linkUuid = randomUUID();
    await db()('drive_public_links').insert({
      uuid: linkUuid,
      item_uuid: a,
      ...sealPublicLinkToken(config().masterKey, linkUuid, randomUUID()),
      status: 'ready',
    });
    expect((await call('POST', `/v1/drive/folders/${earlier}/trash`, { token: owner.token })).status).toBe(
      200,
    );
    await settle(earlier);
    const everything = [top, a, sub, b, subsub, earlier, c];
    const versions = new Map(
      await Promise.all(everything.map(async (uuid) => [uuid, await versionOf(uuid)] as const)),
    );
    const before = await lastSeq();

    const response = await call('DELETE', `/v1/drive/folders/${top}`, { token: owner.token });

    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    // Gone for every reader at once, subtree included.
    for (const [path, token] of [
      [`/v1/drive/folders/${top}`, owner.token],
      [`/v1/drive/folders/${sub}`, owner.token],
      [`/v1/drive/files/${b}`, owner.token],
      [`/v1/drive/files/${b}`, viewer.token],
    ] as const) {
      const read = await call('GET', path, { token });
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ error: 'not_found' });
    }

    expect(await settle(top)).toEqual({ outcome: 'completed', itemsChanged: 7 });
    expect(await db()('drive_items').whereIn('uuid', everything)).toEqual([]);
    expect(await db()('drive_file_versions').whereIn('file_uuid', [a, b, c])).toEqual([]);
    expect(await db()('drive_grants').where({ item_uuid: sub })).toEqual([]);
    expect(await db()('drive_public_links').where({ item_uuid: a })).toEqual([]);
    for (const object of objects) expect(await objectExists(object.key)).toBe(false);
    expect(await storage().findUploadId(bucket(), upload.key)).toBeFalsy();
    expect(await objectExists(untouchedObject.key)).toBe(true);
    expect(await usedBytes(owner)).toBe(5);
    expect(await db()('drive_items').where({ uuid: untouched }).first()).toMatchObject({ deleted_at: null });

    const changes = await changesSince(before, everything);
    expect(changes[0]).toMatchObject({ item_uuid: top, change_type: 'delete' }); // Appended with the request.
    const expected = [
      [top, 'folder', null, []],
      [a, 'file', top, [top]],
      [sub, 'folder', top, [top]],
      [b, 'file', sub, [sub, top]],
      [subsub, 'folder', sub, [sub, top]],
      [earlier, 'folder', top, [top]],
      [c, 'file', earlier, [earlier, top]],
    ] as const;
    expect([...changes].sort((x, y) => x.item_uuid.localeCompare(y.item_uuid))).toEqual(
      expected
        .map(([uuid, kind, parent, ancestors]) => ({
          item_uuid: uuid,
          change_type: 'delete',
          resource_type: kind,
          item_version: versions.get(uuid)! + 1,
          parent_uuid: parent,
          ancestor_uuids: ancestors,
        }))
        .sort((x, y) => x.item_uuid.localeCompare(y.item_uuid)),
    );
    expect(await operationsOn(db(), top)).toEqual([
      expect.objectContaining({ kind: 'delete', status: 'completed', items_changed: 7 }),
    ]);
  });

  it('frees the name at once, and deletes an item that is in the trash', async () => {
    const user = await makeUser();
    const old = await makeFolder(user, 'Reused');
    await file(user, 'inside.txt', old);
    expect((await call('DELETE', `/v1/drive/folders/${old}`, { token: user.token })).status).toBe(204);
    const again = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Reused' } });
    expect(again.status).toBe(201);
    await settle(old);

    const trashed = await makeFolder(user, 'In the trash');
    const inside = await file(user, 'x.txt', trashed);
    await call('POST', `/v1/drive/folders/${trashed}/trash`, { token: user.token });
    await settle(trashed);
    const response = await call('DELETE', `/v1/drive/folders/${trashed}`, { token: user.token });
    expect(response.status).toBe(204);
    expect(await settle(trashed)).toEqual({ outcome: 'completed', itemsChanged: 2 });
    expect(await db()('drive_items').whereIn('uuid', [trashed, inside])).toEqual([]);
    const trash = await call('GET', '/v1/drive/trash', { token: user.token });
    expect(trash.body).toMatchObject({ folders: [], files: [] });
    const root = await call('GET', '/v1/drive/files', { token: user.token });
    expect(root.body.folders.map((item: any) => item.uuid)).toEqual([again.body.uuid]);
  });

  it('answers 404 not_found for a file uuid', async () => {
    const user = await makeUser();
    const uuid = await file(user, 'not a folder.txt');
    const response = await call('DELETE', `/v1/drive/folders/${uuid}`, { token: user.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found' });
  });

  it('needs the drive.delete scope: 403 insufficient_scope', async () => {
    const user = await makeUser();
    const uuid = await makeFolder(user, 'Kept');
    const response = await call('DELETE', `/v1/drive/folders/${uuid}`, {
      token: await tokenFor(user, ['drive.read', 'drive.update']),
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', scope: 'drive.delete' });
    expect(await db()('drive_items').where({ uuid }).first()).toMatchObject({ deleted_at: null, version: 1 });
  });
});

describe('roles for permanent delete', () => {
  it('lets only a manager or the owner delete; viewer, commenter and editor get 403 not_authorized; a stranger 404', async () => {
    const owner = await makeUser();
    const shared = await makeFolder(owner, 'Shared');
    const subfolder = await makeFolder(owner, 'Subfolder', shared);
    const target = await file(owner, 'target.txt', shared);
    const people: Record<string, TestUser> = {};
    for (const role of ['viewer', 'commenter', 'editor', 'manager'] as const) {
      people[role] = await makeColleague(owner);
      await grant({ folder: shared }, { user: people[role]! }, role);
    }
    const strangers = [await makeColleague(owner), await makeUser()];

    for (const role of ['viewer', 'commenter', 'editor']) {
      for (const path of [
        `/v1/drive/files/${target}`,
        `/v1/drive/folders/${subfolder}`,
        `/v1/drive/folders/${shared}`,
      ]) {
        const response = await call('DELETE', path, { token: people[role]!.token });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ error: 'not_authorized' });
      }
    }
    for (const stranger of strangers) {
      const response = await call('DELETE', `/v1/drive/files/${target}`, { token: stranger.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
    expect(
      await db()('drive_items').whereIn('uuid', [shared, subfolder, target]).whereNotNull('deleted_at'),
    ).toEqual([]);

    expect((await call('DELETE', `/v1/drive/files/${target}`, { token: people.manager!.token })).status).toBe(
      204,
    );
    expect(
      (await call('DELETE', `/v1/drive/folders/${subfolder}`, { token: people.manager!.token })).status,
    ).toBe(204);
    expect((await call('DELETE', `/v1/drive/folders/${shared}`, { token: owner.token })).status).toBe(204);
    for (const uuid of [target, subfolder, shared]) await settle(uuid);
    expect(await db()('drive_items').whereIn('uuid', [shared, subfolder, target])).toEqual([]);
  });
});
