// Drive trees that tests in several files start from.
import { expect } from 'vitest';
import { call, grant, insertDriveFile, makeColleague, makeFolder, makeUser } from './api.js';
import { settle } from './cascades.js';

/**
 * The owner's folder Shared, granted to an editor colleague, holds Parent, which holds item.txt. The owner trashed
 * the item, then Parent (its cascade settled): the item can only come back to the owner's root.
 */
export async function itemTrashedInSharedFolder() {
  const owner = await makeUser();
  const editor = await makeColleague(owner);
  const shared = await makeFolder(owner, 'Shared');
  const parent = await makeFolder(owner, 'Parent', shared);
  const item = await insertDriveFile(owner, { name: 'item.txt', folderUuid: parent });
  await grant({ folder: shared }, { user: editor }, 'editor');
  expect((await call('POST', `/v1/drive/files/${item}/trash`, { token: owner.token })).status).toBe(200);
  expect((await call('POST', `/v1/drive/folders/${parent}/trash`, { token: owner.token })).status).toBe(200);
  await settle(parent);
  return { owner, editor, shared, parent, item };
}
