// Trash and restore over HTTP: the trash routes and the update routes' `trashed` key, folder cascades, what a
// restore brings back, name clashes, roles and scopes (spec/drive.md; decisions in docs/drive-trash.md).
import { afterAll, describe, expect, it } from 'vitest';
import { operationsOn } from '../../../domain/drive/trash.js';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { driveCascadeWorkflowId } from '../../../workflows/ids.js';
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
import { settle, waitUntil } from '../../support/cascades.js';
import { expectedDriveFile, expectedDriveFolder } from '../../support/drive-files.js';
import { changesSince, lastSeq, row } from '../../support/drive-rows.js';
import { itemTrashedInSharedFolder } from '../../support/drive-trees.js';

afterAll(closeTemporalClient);

const file = (user: TestUser, name: string, folderUuid: string | null = null) =>
  insertDriveFile(user, { name, folderUuid });

const rows = async (uuids: string[]) => {
  const found = await db()('drive_items').whereIn('uuid', uuids);
  return uuids.map((uuid) => found.find((item) => item.uuid === uuid));
};

describe('POST /v1/drive/files/{uuid}/trash', () => {
  it('answers 200 with the drive_file trashed, version +1, and appends one update change', async () => {
    const user = await makeUser({ firstName: 'Ada', lastName: 'Lovelace' });
    const uuid = await file(user, 'notes.txt');
    const before = await lastSeq();

    const response = await call('POST', `/v1/drive/files/${uuid}/trash`, { token: user.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      expectedDriveFile({
        uuid,
        name: 'notes.txt',
        content_type: 'text/plain',
        file_size_bytes: 5,
        trashed: true,
        version: 2,
        owner: { self: true, first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada Lovelace' },
      }),
    );
    expect(await changesSince(before, [uuid])).toEqual([
      { item_uuid: uuid, change_type: 'update', item_version: 2 },
    ]);
    expect(await row(uuid)).toMatchObject({
      trashed: true,
      trashed_with: uuid,
      trashed_at: expect.any(Date),
    });
  });

  it('changes nothing when the file is already in the trash, and still answers 200', async () => {
    const user = await makeUser();
    const uuid = await file(user, 'twice.txt');
    expect((await call('POST', `/v1/drive/files/${uuid}/trash`, { token: user.token })).status).toBe(200);
    const before = await lastSeq();

    const again = await call('POST', `/v1/drive/files/${uuid}/trash`, { token: user.token });

    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ object: 'drive_file', uuid, trashed: true, version: 2 });
    expect(await changesSince(before, [uuid])).toEqual([]);
  });

  it('answers 404 not_found for a folder, an unknown uuid and a malformed one', async () => {
    const user = await makeUser();
    const folderUuid = await makeFolder(user, 'Not a file');
    for (const uuid of [folderUuid, '6f1d3c1e-0000-4000-8000-000000000000', 'nope']) {
      const response = await call('POST', `/v1/drive/files/${uuid}/trash`, { token: user.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
  });

  it('needs the drive.delete scope: 403 insufficient_scope and nothing changes', async () => {
    const user = await makeUser();
    const uuid = await file(user, 'scoped.txt');
    const token = await tokenFor(user, ['drive.read', 'drive.update', 'drive.create']);

    const response = await call('POST', `/v1/drive/files/${uuid}/trash`, { token });

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', scope: 'drive.delete' });
    expect(await row(uuid)).toMatchObject({ trashed: false, version: 1 });
  });
});

describe('POST /v1/drive/folders/{uuid}/trash', () => {
  it('answers the drive_folder trashed and cascades to every descendant, leaving items trashed before alone', async () => {
    const user = await makeUser();
    const top = await makeFolder(user, 'Top');
    const middle = await makeFolder(user, 'Middle', top);
    const bottom = await makeFolder(user, 'Bottom', middle);
    const [f1, f2, f3] = [
      await file(user, 'one.txt', top),
      await file(user, 'two.txt', middle),
      await file(user, 'three.txt', bottom),
    ];
    const earlier = await makeFolder(user, 'Trashed earlier', middle);
    const inEarlier = await file(user, 'old.txt', earlier);
    expect((await call('POST', `/v1/drive/folders/${earlier}/trash`, { token: user.token })).status).toBe(
      200,
    );
    await settle(earlier);
    const earlierBefore = await rows([earlier, inEarlier]);
    const before = await lastSeq();

    const response = await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      expectedDriveFolder({
        uuid: top,
        name: 'Top',
        color: null,
        trashed: true,
        version: 2,
        owner: { self: true, first_name: null, last_name: null, display_name: null },
      }),
    );
    expect(await settle(top)).toEqual({ outcome: 'completed', itemsChanged: 5 });

    const descendants = [middle, bottom, f1, f2, f3];
    const topRow = await row(top);
    for (const item of await rows(descendants)) {
      expect(item).toMatchObject({
        trashed: true,
        trashed_with: top,
        version: 2,
        trashed_at: topRow.trashed_at,
      });
    }
    expect(await rows([earlier, inEarlier])).toEqual(earlierBefore);
    const changes = await changesSince(before, [top, ...descendants, earlier, inEarlier]);
    expect(changes.map((change) => change.item_uuid).sort()).toEqual([top, ...descendants].sort());
    // The log records the version readers see: a descendant's own counter (2) plus Top's epoch (1).
    expect(
      changes.every(
        (change) =>
          change.change_type === 'update' && change.item_version === (change.item_uuid === top ? 2 : 3),
      ),
    ).toBe(true);
    // Top-down: a folder's change precedes its children's.
    const position = (uuid: string) => changes.findIndex((change) => change.item_uuid === uuid);
    expect(position(top)).toBeLessThan(position(middle));
    expect(position(middle)).toBeLessThan(position(bottom));
    expect(position(bottom)).toBeLessThan(position(f3));
    expect(await operationsOn(db(), top)).toEqual([
      expect.objectContaining({ kind: 'trash', status: 'completed', items_changed: 5 }),
    ]);
  });

  it('lists trashed items flat in GET /v1/drive/trash and leaves them out of GET /v1/drive/files', async () => {
    const user = await makeUser();
    const top = await makeFolder(user, 'Archive');
    const inner = await makeFolder(user, 'Inner', top);
    const deep = await file(user, 'deep.txt', inner);
    const loose = await file(user, 'loose.txt');
    const kept = await file(user, 'kept.txt');
    await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token });
    await call('POST', `/v1/drive/files/${loose}/trash`, { token: user.token });
    await settle(top);

    const trash = await call('GET', '/v1/drive/trash', { token: user.token });
    expect(trash.status).toBe(200);
    expect(Object.keys(trash.body).sort()).toEqual(['files', 'folders', 'object', 'url']);
    expect(trash.body).toMatchObject({ object: 'list', url: '/v1/drive/trash' });
    expect(trash.body.folders.map((item: any) => item.uuid).sort()).toEqual([top, inner].sort());
    expect(trash.body.files.map((item: any) => item.uuid).sort()).toEqual([deep, loose].sort());
    expect([...trash.body.folders, ...trash.body.files].every((item: any) => item.trashed === true)).toBe(
      true,
    );

    const root = await call('GET', '/v1/drive/files', { token: user.token });
    expect(root.status).toBe(200);
    expect(root.body.folders).toEqual([]);
    expect(root.body.files.map((item: any) => item.uuid)).toEqual([kept]);
    const inside = await call('GET', `/v1/drive/files?folder_uuid=${top}`, { token: user.token });
    expect(inside.status).toBe(200);
    expect(inside.body).toMatchObject({ folder_uuid: top, folders: [], files: [] });
  });

  it('answers 404 not_found for a file uuid', async () => {
    const user = await makeUser();
    const uuid = await file(user, 'a file.txt');
    const response = await call('POST', `/v1/drive/folders/${uuid}/trash`, { token: user.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found' });
  });

  it('needs the drive.delete scope: 403 insufficient_scope', async () => {
    const user = await makeUser();
    const uuid = await makeFolder(user, 'Scoped');
    const response = await call('POST', `/v1/drive/folders/${uuid}/trash`, {
      token: await tokenFor(user, ['drive.read', 'drive.update']),
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', scope: 'drive.delete' });
    expect(await row(uuid)).toMatchObject({ trashed: false, version: 1 });
  });
});

describe('trash and restore through the update routes', () => {
  it('trashes with trashed true only with drive.delete as well as drive.update', async () => {
    const user = await makeUser();
    const fileUuid = await file(user, 'flag.txt');
    const folderUuid = await makeFolder(user, 'Flagged');
    const updateOnly = await tokenFor(user, ['drive.read', 'drive.update']);

    for (const path of [`/v1/drive/files/${fileUuid}`, `/v1/drive/folders/${folderUuid}`]) {
      const refused = await call('POST', path, { token: updateOnly, json: { trashed: true } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'insufficient_scope', scope: 'drive.delete' });
    }
    expect(await rows([fileUuid, folderUuid])).toEqual([
      expect.objectContaining({ trashed: false }),
      expect.objectContaining({ trashed: false }),
    ]);

    const both = await tokenFor(user, ['drive.read', 'drive.update', 'drive.delete']);
    const trashedFile = await call('POST', `/v1/drive/files/${fileUuid}`, {
      token: both,
      json: { trashed: true },
    });
    expect(trashedFile.status).toBe(200);
    expect(trashedFile.body).toMatchObject({
      object: 'drive_file',
      uuid: fileUuid,
      trashed: true,
      version: 2,
    });
    const trashedFolder = await call('POST', `/v1/drive/folders/${folderUuid}`, {
      token: both,
      json: { trashed: true },
    });
    expect(trashedFolder.status).toBe(200);
    expect(trashedFolder.body).toMatchObject({
      object: 'drive_folder',
      uuid: folderUuid,
      trashed: true,
      version: 2,
    });

    // Restoring needs drive.update only.
    const restored = await call('POST', `/v1/drive/files/${fileUuid}`, {
      token: updateOnly,
      json: { trashed: false },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ uuid: fileUuid, trashed: false, version: 3 });
  });

  it('restores exactly what was trashed with the folder, each with version +1 and one update change', async () => {
    const user = await makeUser();
    const top = await makeFolder(user, 'Projects');
    const child = await makeFolder(user, 'Child', top);
    const a = await file(user, 'a.txt', top);
    const b = await file(user, 'b.txt', child);
    const alreadyTrashed = await file(user, 'gone.txt', child);
    await call('POST', `/v1/drive/files/${alreadyTrashed}/trash`, { token: user.token });
    await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token });
    await settle(top);
    const before = await lastSeq();

    const response = await call('POST', `/v1/drive/folders/${top}`, {
      token: user.token,
      json: { trashed: false },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'drive_folder',
      uuid: top,
      parent_uuid: null,
      trashed: false,
      version: 3,
    });
    expect(await settle(top)).toEqual({ outcome: 'completed', itemsChanged: 3 });
    for (const item of await rows([top, child, a, b])) {
      expect(item).toMatchObject({ trashed: false, trashed_at: null, trashed_with: null, version: 3 });
    }
    expect(await row(alreadyTrashed)).toMatchObject({
      trashed: true,
      trashed_with: alreadyTrashed,
      version: 2,
    });
    const changes = await changesSince(before, [top, child, a, b, alreadyTrashed]);
    expect(changes.map((change) => change.item_uuid).sort()).toEqual([top, child, a, b].sort());
    // Below Top: own counter 3 plus Top's epoch 2 (its trash and its restore).
    expect(
      changes.every(
        (change) =>
          change.change_type === 'update' && change.item_version === (change.item_uuid === top ? 3 : 5),
      ),
    ).toBe(true);
    const listed = await call('GET', `/v1/drive/files?folder_uuid=${child}`, { token: user.token });
    expect(listed.body.files.map((item: any) => item.uuid)).toEqual([b]);
  });

  it('refuses a restore into a taken name with 422 name_taken and changes nothing', async () => {
    const user = await makeUser();
    const trashedFile = await file(user, 'Report.pdf');
    await call('POST', `/v1/drive/files/${trashedFile}/trash`, { token: user.token });
    await file(user, 'report.PDF');
    const trashedFolder = await makeFolder(user, 'Docs');
    await file(user, 'inside.txt', trashedFolder);
    await call('POST', `/v1/drive/folders/${trashedFolder}/trash`, { token: user.token });
    await settle(trashedFolder);
    await makeFolder(user, 'Docs');
    const before = await lastSeq();
    const folderRows = await db()('drive_items')
      .where({ parent_uuid: trashedFolder })
      .orWhere({ uuid: trashedFolder })
      .orderBy('uuid');

    const fileResponse = await call('POST', `/v1/drive/files/${trashedFile}`, {
      token: user.token,
      json: { trashed: false },
    });
    const folderResponse = await call('POST', `/v1/drive/folders/${trashedFolder}`, {
      token: user.token,
      json: { trashed: false },
    });

    expect(fileResponse.status).toBe(422);
    expect(fileResponse.body).toEqual({ error: 'name_taken' });
    expect(folderResponse.status).toBe(422);
    expect(folderResponse.body).toEqual({ error: 'name_taken' });
    expect(await row(trashedFile)).toMatchObject({ trashed: true, version: 2 });
    expect(
      await db()('drive_items')
        .where({ parent_uuid: trashedFolder })
        .orWhere({ uuid: trashedFolder })
        .orderBy('uuid'),
    ).toEqual(folderRows);
    expect(await changesSince(before, [trashedFile, trashedFolder])).toEqual([]);
    expect(await operationsOn(db(), trashedFolder)).toHaveLength(1);
  });

  it("brings an item whose folder is still in the trash back at its owner's Drive root", async () => {
    const user = await makeUser();
    const parent = await makeFolder(user, 'Parent');
    const loose = await file(user, 'loose.txt', parent);
    await call('POST', `/v1/drive/files/${loose}/trash`, { token: user.token });
    await call('POST', `/v1/drive/folders/${parent}/trash`, { token: user.token });
    await settle(parent);

    const response = await call('POST', `/v1/drive/files/${loose}`, {
      token: user.token,
      json: { trashed: false },
    });

    expect(response.status).toBe(200);
    // In the trash it read at 3 (own 2 + the folder's epoch 1); back at the root it keeps counting that epoch.
    expect(response.body).toMatchObject({ uuid: loose, folder_uuid: null, trashed: false, version: 4 });
    const root = await call('GET', '/v1/drive/files', { token: user.token });
    expect(root.body.files.map((item: any) => item.uuid)).toEqual([loose]);
    expect(await row(loose)).toMatchObject({ parent_uuid: null, depth: 0 });
    expect(await row(parent)).toMatchObject({ trashed: true });
  });

  it('restores a folder trashed with its parent at the root, with its own part of that trash', async () => {
    const user = await makeUser();
    const top = await makeFolder(user, 'Top level');
    const sub = await makeFolder(user, 'Sub', top);
    const subsub = await makeFolder(user, 'Subsub', sub);
    const deep = await file(user, 'deep.txt', subsub);
    const sibling = await file(user, 'sibling.txt', top);
    await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token });
    await settle(top);

    const response = await call('POST', `/v1/drive/folders/${sub}`, {
      token: user.token,
      json: { trashed: false },
    });

    expect(response.status).toBe(200);
    // In the trash it read at 3 (own 2 + Top's epoch 1): 4 now, while its row holds 3.
    expect(response.body).toMatchObject({ uuid: sub, parent_uuid: null, trashed: false, version: 4 });
    expect(await settle(sub)).toEqual({ outcome: 'completed', itemsChanged: 2 });
    expect(await rows([sub, subsub, deep])).toEqual([
      expect.objectContaining({ trashed: false, depth: 0, version: 3 }),
      expect.objectContaining({ trashed: false, depth: 1, version: 3 }),
      expect.objectContaining({ trashed: false, depth: 2, version: 3 }),
    ]);
    expect(await rows([top, sibling])).toEqual([
      expect.objectContaining({ trashed: true, trashed_with: top }),
      expect.objectContaining({ trashed: true, trashed_with: top }),
    ]);
  });

  it('refuses a restore to the root by someone other than the owner with 403 not_authorized', async () => {
    const { editor, parent, item } = await itemTrashedInSharedFolder();
    const before = await row(item);

    const response = await call('POST', `/v1/drive/files/${item}`, {
      token: editor.token,
      json: { trashed: false },
    });

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'not_authorized' });
    expect(await row(item)).toEqual({ ...before, trashed: true, parent_uuid: parent });
  });
});

describe('roles for trash and restore', () => {
  it('lets an editor trash and restore; a viewer or commenter gets 403 not_authorized; a stranger 404', async () => {
    const owner = await makeUser();
    const shared = await makeFolder(owner, 'Team');
    const target = await file(owner, 'plan.txt', shared);
    const people: Record<string, TestUser> = {};
    for (const role of ['viewer', 'commenter', 'editor'] as const) {
      people[role] = await makeColleague(owner);
      await grant({ folder: shared }, { user: people[role]! }, role);
    }
    const colleague = await makeColleague(owner);
    const outsider = await makeUser();
    const before = await row(target);

    for (const role of ['viewer', 'commenter']) {
      const trash = await call('POST', `/v1/drive/files/${target}/trash`, { token: people[role]!.token });
      expect(trash.status).toBe(403);
      expect(trash.body).toEqual({ error: 'not_authorized' });
      const folderTrash = await call('POST', `/v1/drive/folders/${shared}/trash`, {
        token: people[role]!.token,
      });
      expect(folderTrash.status).toBe(403);
      expect(folderTrash.body).toEqual({ error: 'not_authorized' });
    }
    for (const stranger of [colleague, outsider]) {
      const trash = await call('POST', `/v1/drive/files/${target}/trash`, { token: stranger.token });
      expect(trash.status).toBe(404);
      expect(trash.body).toEqual({ error: 'not_found' });
    }
    expect(await row(target)).toEqual({ ...before, trashed: false });

    const byEditor = await call('POST', `/v1/drive/files/${target}/trash`, { token: people.editor!.token });
    expect(byEditor.status).toBe(200);
    expect(byEditor.body).toMatchObject({
      uuid: target,
      trashed: true,
      version: before.version + 1,
      my_role: 'editor',
      owner: { self: false },
    });

    for (const role of ['viewer', 'commenter']) {
      const restore = await call('POST', `/v1/drive/files/${target}`, {
        token: people[role]!.token,
        json: { trashed: false },
      });
      expect(restore.status).toBe(403);
      expect(restore.body).toEqual({ error: 'not_authorized' });
    }
    const restoredByEditor = await call('POST', `/v1/drive/files/${target}`, {
      token: people.editor!.token,
      json: { trashed: false },
    });
    expect(restoredByEditor.status).toBe(200);
    expect(restoredByEditor.body).toMatchObject({
      uuid: target,
      trashed: false,
      version: before.version + 2,
    });
  });
});

describe('overlapping operations on one folder', () => {
  it('ends consistent when a restore arrives while the trash cascade still runs: the trash is superseded', async () => {
    const user = await makeUser();
    const top = await makeFolder(user, 'Busy');
    const inner = await makeFolder(user, 'Inner', top);
    await db().raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
       select ?, ?, 'file', ?, 'f' || n || '.txt', 'text/plain', 1, 'completed', 1 from generate_series(1, 600) n`,
      [user.workspaceUuid, user.uuid, top],
    );
    await db().raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
       select ?, ?, 'file', ?, 'g' || n || '.txt', 'text/plain', 1, 'completed', 2 from generate_series(1, 100) n`,
      [user.workspaceUuid, user.uuid, inner],
    );
    const deeper = await makeFolder(user, 'Deeper', inner);
    await db().raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
       select ?, ?, 'file', ?, 'h' || n || '.txt', 'text/plain', 1, 'completed', 3 from generate_series(1, 600) n`,
      [user.workspaceUuid, user.uuid, deeper],
    );
    const descendants: string[] = (
      await db().raw(
        `with recursive sub as (select uuid from drive_items where parent_uuid = ? union all select d.uuid from drive_items d join sub on d.parent_uuid = sub.uuid)
       select uuid from sub`,
        [top],
      )
    ).rows.map((item: { uuid: string }) => item.uuid);
    expect(descendants).toHaveLength(1302);
    const before = await lastSeq();
    // Holding one file of the second level stops the trash cascade in its second batch, which would not be
    // its last, until released.
    const locker = await db().transaction();
    const lockerPid: number = (await locker.raw('select pg_backend_pid() as pid')).rows[0].pid;
    const held = (await locker('drive_items').where({ parent_uuid: inner, kind: 'file' }).first('uuid')).uuid;
    await locker.raw('select 1 from drive_items where uuid = ? for update', [held]);

    expect((await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token })).status).toBe(200);
    const trashOperation = (await operationsOn(db(), top))[0]!;
    // The first batch committed and the second waits for the held file (on the locker), holding the root's row lock.
    let batchPid: number | undefined;
    await waitUntil(async () => (batchPid = await blockedBy(lockerPid)) !== undefined);
    expect(
      Number((await db()('drive_items').where({ trashed_with: top }).count('* as n').first())!.n),
    ).toBeGreaterThan(500);
    const restoring = call('POST', `/v1/drive/folders/${top}`, {
      token: user.token,
      json: { trashed: false },
    });
    // The restore waits for the root's row lock, held by that very batch; only then let the batch finish, so the
    // restore commits before the cascade's next batch can look at the root.
    await waitUntil(async () => (await blockedBy(batchPid!)) !== undefined);
    await locker.rollback();
    const restored = await restoring;

    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ uuid: top, trashed: false, version: 3 });
    const client = await temporalClient();
    const trashResult = await client.workflow
      .getHandle(driveCascadeWorkflowId('trash', top, trashOperation.uuid))
      .result();
    expect(trashResult.outcome).toBe('superseded');
    expect(await settle(top)).toMatchObject({ outcome: 'completed' });

    const final = await rows(descendants);
    expect(final.every((item) => item.trashed === false && item.trashed_with === null)).toBe(true);
    const changes = await changesSince(before, descendants);
    const perItem = new Map<string, number>();
    for (const change of changes) perItem.set(change.item_uuid, (perItem.get(change.item_uuid) ?? 0) + 1);
    for (const item of final) {
      const count = perItem.get(item.uuid) ?? 0;
      expect([0, 2]).toContain(count); // Untouched, or trashed once and restored once.
      expect(item.version).toBe(1 + count);
    }
    expect(await operationsOn(db(), top)).toEqual([
      expect.objectContaining({ kind: 'restore', status: 'completed' }),
      expect.objectContaining({ kind: 'trash', status: 'superseded' }),
    ]);
  });
});

/** A backend waiting for a lock that `pid` holds, if any: pins an interleaving to the sessions that make it. */
const blockedBy = async (pid: number): Promise<number | undefined> =>
  (await db().raw(`select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid)) limit 1`, [pid]))
    .rows[0]?.pid;
