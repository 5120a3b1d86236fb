// A folder's trash or restore shows over its whole subtree as soon as the request answers, while its cascade is
// still held: item reads, folder listings and the trash list compute the effective state, writes into the
// trashed subtree are refused, and the changes feed still gets each descendant's change when the cascade writes
// it (spec/drive.md § Folders, § Changes; design in docs/drive-trash.md § Effective state).
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import { call, insertDriveFile, makeFolder, makeUser, type TestUser } from '../../support/api.js';
import { holdRow, settle } from '../../support/cascades.js';

afterAll(closeTemporalClient);

/** Top/Mid/Deep/deep.txt, Top/Mid/earlier.txt (trashed on its own first), Top/loose.txt, and outside.txt at the root. */
async function makeTree(user: TestUser) {
  const top = await makeFolder(user, 'Top');
  const mid = await makeFolder(user, 'Mid', top);
  const deepFolder = await makeFolder(user, 'Deep', mid);
  const deep = await insertDriveFile(user, { name: 'deep.txt', folderUuid: deepFolder });
  const earlier = await insertDriveFile(user, { name: 'earlier.txt', folderUuid: mid });
  const loose = await insertDriveFile(user, { name: 'loose.txt', folderUuid: top });
  const outside = await insertDriveFile(user, { name: 'outside.txt' });
  expect((await call('POST', `/v1/drive/files/${earlier}/trash`, { token: user.token })).status).toBe(200);
  return { top, mid, deepFolder, deep, earlier, loose, outside };
}

const get = (user: TestUser, kind: 'files' | 'folders', uuid: string) =>
  call('GET', `/v1/drive/${kind}/${uuid}`, { token: user.token });
const listing = async (user: TestUser, folderUuid: string) => {
  const response = await call('GET', `/v1/drive/files?folder_uuid=${folderUuid}`, { token: user.token });
  expect(response.status).toBe(200);
  return [...response.body.folders, ...response.body.files].map((item: any) => item.uuid).sort();
};
const trashList = async (user: TestUser) => {
  const response = await call('GET', '/v1/drive/trash', { token: user.token });
  expect(response.status).toBe(200);
  const items = [...response.body.folders, ...response.body.files];
  expect(items.every((item: any) => item.trashed === true)).toBe(true);
  return items.map((item: any) => item.uuid).sort();
};
/** Asserts the rows' own flag: what the cascade has written so far. */
const expectStored = async (uuids: string[], trashed: boolean) =>
  expect(
    (await db()('drive_items').whereIn('uuid', uuids).select('uuid', 'trashed'))
      .map((row) => [row.uuid, row.trashed])
      .sort(),
  ).toEqual(uuids.map((uuid) => [uuid, trashed]).sort());

async function syncToEnd(user: TestUser, since?: string): Promise<{ entries: any[]; token: string }> {
  const entries: any[] = [];
  let token = since;
  for (;;) {
    const response = await call(
      'GET',
      `/v1/drive/changes${token ? `?since=${encodeURIComponent(token)}` : ''}`,
      { token: user.token },
    );
    expect(response.status).toBe(200);
    entries.push(...response.body.changes);
    token = response.body.sync_token;
    if (!response.body.has_more) return { entries, token: token! };
  }
}

describe('a folder trash shows at once over its whole subtree', () => {
  it('answers every read of the subtree as trashed while the cascade is held, and the feed still gets each descendant from the cascade', async () => {
    const user = await makeUser();
    const tree = await makeTree(user);
    const { token } = await syncToEnd(user);
    const hold = await holdRow(tree.deep);

    try {
      expect((await call('POST', `/v1/drive/folders/${tree.top}/trash`, { token: user.token })).status).toBe(
        200,
      );
      await hold.blocking();
      // The cascade has written nothing yet: the descendants' rows are still live.
      await expectStored([tree.mid, tree.deepFolder, tree.deep, tree.loose], false);

      // A new version at once (Top's epoch, docs/drive-trash.md § Versions): version 1 showed it live.
      expect((await get(user, 'files', tree.deep)).body).toMatchObject({
        uuid: tree.deep,
        trashed: true,
        version: 2,
      });
      expect((await get(user, 'folders', tree.deepFolder)).body).toMatchObject({
        uuid: tree.deepFolder,
        trashed: true,
      });
      expect((await get(user, 'folders', tree.mid)).body).toMatchObject({ uuid: tree.mid, trashed: true });
      expect(await listing(user, tree.deepFolder)).toEqual([]);
      expect(await listing(user, tree.mid)).toEqual([]);
      expect(await listing(user, tree.top)).toEqual([]);
      expect(await trashList(user)).toEqual(
        [tree.top, tree.mid, tree.deepFolder, tree.deep, tree.earlier, tree.loose].sort(),
      );
      const root = await call('GET', '/v1/drive/files', { token: user.token });
      expect([...root.body.folders, ...root.body.files].map((item: any) => item.uuid)).toEqual([
        tree.outside,
      ]);

      // The feed carries each item at its version: only the folder's change so far.
      const during = await syncToEnd(user, token);
      expect(during.entries).toEqual([
        expect.objectContaining({
          type: 'update',
          uuid: tree.top,
          resource: expect.objectContaining({ trashed: true, version: 2 }),
        }),
      ]);
    } finally {
      await hold.release();
    }
    expect(await settle(tree.top)).toMatchObject({ outcome: 'completed', itemsChanged: 4 });

    // The cascade's write is one version more: its own counter (2) plus Top's epoch (1).
    expect((await get(user, 'files', tree.deep)).body).toMatchObject({ trashed: true, version: 3 });
    expect(await trashList(user)).toEqual(
      [tree.top, tree.mid, tree.deepFolder, tree.deep, tree.earlier, tree.loose].sort(),
    );
    // Rule 5: a change for every descendant, as its batch wrote it, parents first.
    const after = await syncToEnd(user, token);
    const descendants = after.entries.filter((entry) => entry.uuid !== tree.top);
    expect(descendants.map((entry) => entry.uuid).sort()).toEqual(
      [tree.mid, tree.deepFolder, tree.deep, tree.loose].sort(),
    );
    expect(
      descendants.every(
        (entry) => entry.type === 'update' && entry.resource.trashed === true && entry.resource.version === 3,
      ),
    ).toBe(true);
    const position = (uuid: string) => after.entries.findIndex((entry) => entry.uuid === uuid);
    expect(position(tree.mid)).toBeLessThan(position(tree.deepFolder));
    expect(position(tree.deepFolder)).toBeLessThan(position(tree.deep));
  });

  it('refuses writes inside the trashed folder before its cascade reaches them, as for a trashed item', async () => {
    const user = await makeUser();
    const tree = await makeTree(user);
    const live = await makeFolder(user, 'Live');
    // Held on a child of Top: the first batch waits before it changes (and locks) anything below Mid.
    const hold = await holdRow(tree.loose);
    try {
      expect((await call('POST', `/v1/drive/folders/${tree.top}/trash`, { token: user.token })).status).toBe(
        200,
      );
      await hold.blocking();

      // Into a folder of the trashed subtree: 404, as into the trashed folder itself.
      const upload = await call('POST', '/v1/drive/files', {
        token: user.token,
        json: {
          name: 'new.txt',
          content_type: 'text/plain',
          data: Buffer.from('hello').toString('base64'),
          folder_uuid: tree.deepFolder,
        },
      });
      expect(upload).toMatchObject({ status: 404, body: { error: 'not_found' } });
      const folder = await call('POST', '/v1/drive/folders', {
        token: user.token,
        json: { name: 'Sub', parent_uuid: tree.deepFolder },
      });
      expect(folder).toMatchObject({ status: 404, body: { error: 'not_found' } });
      const chunked = await call('POST', '/v1/drive/uploads', {
        token: user.token,
        json: {
          name: 'big.bin',
          content_type: 'application/octet-stream',
          plaintext_size_bytes: 10,
          folder_uuid: tree.deepFolder,
        },
      });
      expect(chunked).toMatchObject({ status: 404, body: { error: 'not_found' } });
      const moveIn = await call('POST', `/v1/drive/files/${tree.outside}`, {
        token: user.token,
        json: { folder_uuid: tree.deepFolder },
      });
      expect(moveIn).toMatchObject({ status: 404, body: { error: 'not_found' } });

      // The descendants themselves keep their name and place until restored: 403, as for a trashed item.
      const rename = await call('POST', `/v1/drive/folders/${tree.deepFolder}`, {
        token: user.token,
        json: { name: 'Renamed' },
      });
      expect(rename).toMatchObject({ status: 403, body: { error: 'not_authorized' } });
      const moveOut = await call('POST', `/v1/drive/folders/${tree.deepFolder}`, {
        token: user.token,
        json: { parent_uuid: live },
      });
      expect(moveOut).toMatchObject({ status: 403, body: { error: 'not_authorized' } });
      const trashedItself = await call('POST', `/v1/drive/files/${tree.earlier}`, {
        token: user.token,
        json: { name: 'renamed.txt' },
      });
      expect(trashedItself).toMatchObject({ status: 403, body: { error: 'not_authorized' } });

      expect(await listing(user, live)).toEqual([]);
      expect((await get(user, 'folders', tree.deepFolder)).body).toMatchObject({
        name: 'Deep',
        parent_uuid: tree.mid,
        version: 2,
      });
      expect((await get(user, 'files', tree.outside)).body).toMatchObject({
        folder_uuid: null,
        trashed: false,
      });
    } finally {
      await hold.release();
    }
    expect(await settle(tree.top)).toMatchObject({ outcome: 'completed', itemsChanged: 4 });
    const renameAfter = await call('POST', `/v1/drive/files/${tree.deep}`, {
      token: user.token,
      json: { name: 'other.txt' },
    });
    expect(renameAfter).toMatchObject({ status: 403, body: { error: 'not_authorized' } });
  });
});

describe('a folder restore shows at once over what went with it', () => {
  it('answers the subtree live while the restore cascade is held; an item trashed on its own before stays in the trash', async () => {
    const user = await makeUser();
    const tree = await makeTree(user);
    expect((await call('POST', `/v1/drive/folders/${tree.top}/trash`, { token: user.token })).status).toBe(
      200,
    );
    await settle(tree.top);
    const { token } = await syncToEnd(user);
    const hold = await holdRow(tree.deep);

    try {
      const restored = await call('POST', `/v1/drive/folders/${tree.top}`, {
        token: user.token,
        json: { trashed: false },
      });
      expect(restored).toMatchObject({ status: 200, body: { uuid: tree.top, trashed: false } });
      await hold.blocking();
      await expectStored([tree.mid, tree.deepFolder, tree.deep, tree.loose], true);

      // Trashed it read at 3 (own 2 + Top's epoch 1); restored, at 4 at once (Top's epoch 2).
      expect((await get(user, 'files', tree.deep)).body).toMatchObject({
        uuid: tree.deep,
        trashed: false,
        version: 4,
      });
      expect((await get(user, 'folders', tree.deepFolder)).body).toMatchObject({ trashed: false });
      expect((await get(user, 'files', tree.earlier)).body).toMatchObject({
        uuid: tree.earlier,
        trashed: true,
      });
      expect(await listing(user, tree.top)).toEqual([tree.mid, tree.loose].sort());
      expect(await listing(user, tree.mid)).toEqual([tree.deepFolder]);
      expect(await listing(user, tree.deepFolder)).toEqual([tree.deep]);
      expect(await trashList(user)).toEqual([tree.earlier]);

      const during = await syncToEnd(user, token);
      expect(during.entries).toEqual([
        expect.objectContaining({
          type: 'update',
          uuid: tree.top,
          resource: expect.objectContaining({ trashed: false, version: 3 }),
        }),
      ]);
    } finally {
      await hold.release();
    }
    expect(await settle(tree.top)).toMatchObject({ outcome: 'completed', itemsChanged: 4 });

    expect((await get(user, 'files', tree.deep)).body).toMatchObject({ trashed: false, version: 5 });
    expect((await get(user, 'files', tree.earlier)).body).toMatchObject({ trashed: true });
    expect(await trashList(user)).toEqual([tree.earlier]);
    expect(await listing(user, tree.mid)).toEqual([tree.deepFolder]);
    const after = await syncToEnd(user, token);
    const descendants = after.entries.filter((entry) => entry.uuid !== tree.top);
    expect(descendants.map((entry) => entry.uuid).sort()).toEqual(
      [tree.mid, tree.deepFolder, tree.deep, tree.loose].sort(),
    );
    expect(
      descendants.every((entry) => entry.resource.trashed === false && entry.resource.version === 5),
    ).toBe(true);
  });

  it('counts an item that lands in a trashed folder while its cascade runs as trashed', async () => {
    const user = await makeUser();
    const tree = await makeTree(user);
    const hold = await holdRow(tree.deep);
    let straggler: string;
    try {
      expect((await call('POST', `/v1/drive/folders/${tree.top}/trash`, { token: user.token })).status).toBe(
        200,
      );
      await hold.blocking();
      // Written straight to the table, as a creation racing the trash's commit could (docs/drive-trash.md § Known limits).
      straggler = await insertDriveFile(user, { name: 'straggler.txt', folderUuid: tree.top });
      expect((await get(user, 'files', straggler)).body).toMatchObject({ trashed: true });
      expect(await trashList(user)).toContain(straggler);
    } finally {
      await hold.release();
    }
    await settle(tree.top);
    expect(await trashList(user)).toEqual(
      [tree.top, tree.mid, tree.deepFolder, tree.deep, tree.earlier, tree.loose, straggler].sort(),
    );
  });
});
