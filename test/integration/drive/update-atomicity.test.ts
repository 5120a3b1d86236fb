// An update of a file or folder with several keys (name, move, color, trashed) is one change: it commits all of
// them or none, bumps version once and appends one change-log entry for the item.
import { describe, expect, it } from 'vitest';
import { operationsOn } from '../../../domain/drive/trash.js';
import { db } from '../../../platform/database.js';
import { call, insertDriveFile, makeFolder, makeUser } from '../../support/api.js';
import { settle } from '../../support/cascades.js';
import { changesSince, lastSeq, row, watchItem } from '../../support/drive-rows.js';
import { itemTrashedInSharedFolder } from '../../support/drive-trees.js';

describe('an update that fails part way changes nothing', () => {
  it('refuses a rename-and-restore into a name a live sibling took with 422 name_taken, keeping the name and version', async () => {
    const user = await makeUser();
    const file = await insertDriveFile(user, { name: 'draft.txt' });
    expect((await call('POST', `/v1/drive/files/${file}/trash`, { token: user.token })).status).toBe(200);
    await insertDriveFile(user, { name: 'final.txt' });
    const { before, expectUnchanged } = await watchItem(file);

    const response = await call('POST', `/v1/drive/files/${file}`, {
      token: user.token,
      json: { name: 'final.txt', trashed: false },
    });

    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
    await expectUnchanged();
    expect(before).toMatchObject({ name: 'draft.txt', trashed: true, version: 2 });
  });

  it('refuses a rename-and-restore of a folder into a taken name without starting its cascade', async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'Old');
    await insertDriveFile(user, { name: 'inside.txt', folderUuid: folder });
    expect((await call('POST', `/v1/drive/folders/${folder}/trash`, { token: user.token })).status).toBe(200);
    await settle(folder);
    await makeFolder(user, 'New');
    const { expectUnchanged } = await watchItem(folder);

    const response = await call('POST', `/v1/drive/folders/${folder}`, {
      token: user.token,
      json: { name: 'new', trashed: false },
    });

    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
    await expectUnchanged();
    expect(await operationsOn(db(), folder)).toEqual([expect.objectContaining({ kind: 'trash' })]);
  });

  it('refuses a move-and-restore into a folder holding the name, leaving the item where it was', async () => {
    const user = await makeUser();
    const destination = await makeFolder(user, 'Destination');
    await insertDriveFile(user, { name: 'notes.txt', folderUuid: destination });
    const file = await insertDriveFile(user, { name: 'notes.txt' });
    expect((await call('POST', `/v1/drive/files/${file}/trash`, { token: user.token })).status).toBe(200);
    const { before, expectUnchanged } = await watchItem(file);

    const response = await call('POST', `/v1/drive/files/${file}`, {
      token: user.token,
      json: { folder_uuid: destination, trashed: false },
    });

    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
    await expectUnchanged();
    expect(before).toMatchObject({ parent_uuid: null, trashed: true });
  });

  it("refuses a rename-and-restore to the owner's root by an editor with 403 not_authorized, keeping the name", async () => {
    const { editor, item: file } = await itemTrashedInSharedFolder();
    const { expectUnchanged } = await watchItem(file);

    const response = await call('POST', `/v1/drive/files/${file}`, {
      token: editor.token,
      json: { name: 'renamed.txt', trashed: false },
    });

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'not_authorized' });
    await expectUnchanged();
  });
});

describe('an update with several keys is one change', () => {
  it('renames and trashes a file with version +1 and one update change', async () => {
    const user = await makeUser();
    const file = await insertDriveFile(user, { name: 'old.txt' });
    const seq = await lastSeq();

    const response = await call('POST', `/v1/drive/files/${file}`, {
      token: user.token,
      json: { name: 'new.txt', trashed: true },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ uuid: file, name: 'new.txt', trashed: true, version: 2 });
    expect(await row(file)).toMatchObject({ name: 'new.txt', trashed: true, trashed_with: file, version: 2 });
    expect(await changesSince(seq, [file])).toEqual([
      { item_uuid: file, change_type: 'update', item_version: 2 },
    ]);
  });

  it('renames, recolours and trashes a folder with version +1 and one update change; its descendants get theirs from the cascade', async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'Before');
    const child = await makeFolder(user, 'Child', folder);
    const file = await insertDriveFile(user, { name: 'deep.txt', folderUuid: child });
    const seq = await lastSeq();

    const response = await call('POST', `/v1/drive/folders/${folder}`, {
      token: user.token,
      json: { name: 'After', color: '#00aa00', trashed: true },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      uuid: folder,
      name: 'After',
      color: '#00AA00',
      trashed: true,
      version: 2,
    });
    expect(await settle(folder)).toEqual({ outcome: 'completed', itemsChanged: 2 });
    const changes = await changesSince(seq, [folder, child, file]);
    expect(changes.filter((change) => change.item_uuid === folder)).toEqual([
      { item_uuid: folder, change_type: 'update', item_version: 2 },
    ]);
    expect(changes.map((change) => change.item_uuid)).toEqual([folder, child, file]);
    for (const uuid of [child, file])
      expect(await row(uuid)).toMatchObject({ trashed: true, trashed_with: folder, version: 2 });
  });

  it('moves, renames and restores a file with version +1 and one update change', async () => {
    const user = await makeUser();
    const destination = await makeFolder(user, 'Destination');
    const file = await insertDriveFile(user, { name: 'was.txt' });
    expect((await call('POST', `/v1/drive/files/${file}/trash`, { token: user.token })).status).toBe(200);
    const seq = await lastSeq();

    const response = await call('POST', `/v1/drive/files/${file}`, {
      token: user.token,
      json: { name: 'is.txt', folder_uuid: destination, trashed: false },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      uuid: file,
      name: 'is.txt',
      folder_uuid: destination,
      trashed: false,
      version: 3,
    });
    expect(await changesSince(seq, [file])).toEqual([
      { item_uuid: file, change_type: 'update', item_version: 3 },
    ]);
  });
});
