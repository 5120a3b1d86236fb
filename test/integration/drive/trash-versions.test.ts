// Versions move when the visible state does: a folder's trash, restore or move gives every item below it a new version
// at once, while the cascade still holds its rows; GET and the changes feed never show one version of an item with
// two states, and an item's version never goes back (spec/drive.md § Files "version", § Changes rule 4; design in
// docs/drive-trash.md § Versions).
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import { call, insertDriveFile, makeFolder, makeUser, type TestUser } from '../../support/api.js';
import { holdRow, settle } from '../../support/cascades.js';

afterAll(closeTemporalClient);

/**
 * Everything one reader was shown of each item, by GET or by the feed, in the order it read it: every answer is the
 * item as it stands then, so a version never goes back, and one version is always shown with one and the same object.
 */
function ledger(user: TestUser) {
  const shown = new Map<string, Map<number, string>>();
  const latest = new Map<string, number>();
  const record = (resource: any, where: string) => {
    const versions = shown.get(resource.uuid) ?? new Map<number, string>();
    shown.set(resource.uuid, versions);
    const object = JSON.stringify(resource);
    const before = versions.get(resource.version);
    if (before !== undefined)
      expect(object, `${where}: ${resource.uuid} shown at version ${resource.version} with two states`).toBe(
        before,
      );
    versions.set(resource.version, object);
    expect(resource.version, `${where}: ${resource.uuid} went back`).toBeGreaterThanOrEqual(
      latest.get(resource.uuid) ?? 0,
    );
    latest.set(resource.uuid, resource.version);
    return resource;
  };
  return {
    /** GET of the item, recorded; answers the body. */
    async get(kind: 'files' | 'folders', uuid: string): Promise<any> {
      const response = await call('GET', `/v1/drive/${kind}/${uuid}`, { token: user.token });
      expect(response.status).toBe(200);
      return record(response.body, `GET ${kind}/${uuid}`);
    },
    /** The feed from `since` (a first sync without) to its end, every entry recorded; answers the entries and the token. */
    async sync(since?: string): Promise<{ entries: any[]; token: string }> {
      const entries: any[] = [];
      let token = since;
      for (;;) {
        const response = await call(
          'GET',
          `/v1/drive/changes${token ? `?since=${encodeURIComponent(token)}` : ''}`,
          { token: user.token },
        );
        expect(response.status).toBe(200);
        for (const entry of response.body.changes)
          if (entry.resource) record(entry.resource, `feed ${entry.type}`);
        entries.push(...response.body.changes);
        token = response.body.sync_token;
        if (!response.body.has_more) return { entries, token: token! };
      }
    },
  };
}

/** Top/Mid/Deep/deep.txt and Top/loose.txt. */
async function makeTree(user: TestUser) {
  const top = await makeFolder(user, 'Top');
  const mid = await makeFolder(user, 'Mid', top);
  const deepFolder = await makeFolder(user, 'Deep', mid);
  const deep = await insertDriveFile(user, { name: 'deep.txt', folderUuid: deepFolder });
  const loose = await insertDriveFile(user, { name: 'loose.txt', folderUuid: top });
  return { top, mid, deepFolder, deep, loose };
}

describe('versions while a folder cascade runs', () => {
  it('gives every descendant of a trashed folder a new version at once, before the cascade writes it, and the feed agrees with GET', async () => {
    const user = await makeUser();
    const reader = ledger(user);
    const tree = await makeTree(user);
    const { token } = await reader.sync();
    const before = { mid: await reader.get('folders', tree.mid), deep: await reader.get('files', tree.deep) };
    const hold = await holdRow(tree.deep);
    let during: { mid: any; deep: any; deepFolder: any; loose: any };
    try {
      expect((await call('POST', `/v1/drive/folders/${tree.top}/trash`, { token: user.token })).status).toBe(
        200,
      );
      await hold.blocking();
      // The cascade's first batch waits on the held row: no descendant row is written yet.
      expect(
        await db()('drive_items')
          .whereIn('uuid', [tree.mid, tree.deep])
          .where({ trashed: true })
          .count('* as n')
          .first(),
      ).toMatchObject({ n: '0' });

      during = {
        mid: await reader.get('folders', tree.mid),
        deep: await reader.get('files', tree.deep),
        deepFolder: await reader.get('folders', tree.deepFolder),
        loose: await reader.get('files', tree.loose),
      };
      expect(during.mid).toMatchObject({ trashed: true });
      expect(during.deep).toMatchObject({ trashed: true });
      expect(during.mid.version).toBeGreaterThan(before.mid.version);
      expect(during.deep.version).toBeGreaterThan(before.deep.version);
      // A first sync now shows the subtree as GET does, and the delta from before has the folder's own change.
      await reader.sync();
      await reader.sync(token);
    } finally {
      await hold.release();
    }
    expect(await settle(tree.top)).toMatchObject({ outcome: 'completed', itemsChanged: 4 });

    for (const [name, kind] of [
      ['mid', 'folders'],
      ['deep', 'files'],
      ['deepFolder', 'folders'],
      ['loose', 'files'],
    ] as const) {
      const after = await reader.get(kind, tree[name]);
      expect(after).toMatchObject({ trashed: true });
      expect(after.version).toBeGreaterThanOrEqual(during![name].version);
      // The change log records the cascade's change at the version readers are shown.
      const logged = await db()('drive_changes')
        .where({ item_uuid: tree[name] })
        .orderBy('seq', 'desc')
        .first('item_version');
      expect(logged).toEqual({ item_version: after.version });
    }
    // The cascade's changes arrive with the version GET shows (the ledger checks every entry against every GET).
    const feed = await reader.sync(token);
    expect(feed.entries.map((entry) => entry.uuid).sort()).toEqual(Object.values(tree).sort());
    for (const entry of feed.entries)
      expect(entry.resource).toEqual(
        await reader.get(entry.resource_type === 'file' ? 'files' : 'folders', entry.uuid),
      );
  });

  it('gives every descendant of a restored folder a new version at once, before the restore cascade writes it', async () => {
    const user = await makeUser();
    const reader = ledger(user);
    const tree = await makeTree(user);
    expect((await call('POST', `/v1/drive/folders/${tree.top}/trash`, { token: user.token })).status).toBe(
      200,
    );
    await settle(tree.top);
    const { token } = await reader.sync();
    const before = { mid: await reader.get('folders', tree.mid), deep: await reader.get('files', tree.deep) };
    expect(before.deep).toMatchObject({ trashed: true });
    const hold = await holdRow(tree.deep);
    let during: { mid: any; deep: any };
    try {
      expect(
        (await call('POST', `/v1/drive/folders/${tree.top}`, { token: user.token, json: { trashed: false } }))
          .status,
      ).toBe(200);
      await hold.blocking();
      expect(
        await db()('drive_items')
          .whereIn('uuid', [tree.mid, tree.deep])
          .where({ trashed: false })
          .count('* as n')
          .first(),
      ).toMatchObject({ n: '0' });

      during = { mid: await reader.get('folders', tree.mid), deep: await reader.get('files', tree.deep) };
      expect(during.mid).toMatchObject({ trashed: false });
      expect(during.deep).toMatchObject({ trashed: false });
      expect(during.mid.version).toBeGreaterThan(before.mid.version);
      expect(during.deep.version).toBeGreaterThan(before.deep.version);
      await reader.sync();
      await reader.sync(token);
    } finally {
      await hold.release();
    }
    expect(await settle(tree.top)).toMatchObject({ outcome: 'completed', itemsChanged: 4 });

    const after = { mid: await reader.get('folders', tree.mid), deep: await reader.get('files', tree.deep) };
    expect(after.deep).toMatchObject({ trashed: false });
    expect(after.mid.version).toBeGreaterThanOrEqual(during!.mid.version);
    expect(after.deep.version).toBeGreaterThanOrEqual(during!.deep.version);
    const feed = await reader.sync(token);
    expect(feed.entries.find((entry) => entry.uuid === tree.deep)?.resource).toEqual(after.deep);
  });

  it('never shows one version with two states across trash, a restore that supersedes it, and a trash again', async () => {
    const user = await makeUser();
    const reader = ledger(user);
    const top = await makeFolder(user, 'Busy');
    // 600 files before `zz` by name: the trash cascade's first batch (500 items) stops short of zz and its file.
    await db().raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
       select ?, ?, 'file', ?, 'f' || lpad(n::text, 3, '0') || '.txt', 'text/plain', 1, 'completed', 1 from generate_series(1, 600) n`,
      [user.workspaceUuid, user.uuid, top],
    );
    const zz = await makeFolder(user, 'zz', top);
    const late = await insertDriveFile(user, { name: 'late.txt', folderUuid: zz });
    const first = (await db()('drive_items').where({ parent_uuid: top, name: 'f001.txt' }).first('uuid'))
      .uuid as string;
    const { token } = await reader.sync();
    const shown = async () => ({
      zz: await reader.get('folders', zz),
      late: await reader.get('files', late),
      first: await reader.get('files', first),
    });
    const start = await shown();

    const hold = await holdRow(first);
    let restoring: ReturnType<typeof call> | undefined;
    try {
      expect((await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token })).status).toBe(200);
      await hold.blocking();
      const trashed = await shown();
      expect([trashed.zz.trashed, trashed.late.trashed, trashed.first.trashed]).toEqual([true, true, true]);
      expect(trashed.late.version).toBeGreaterThan(start.late.version);
      await reader.sync(token);
      // The restore waits for the root's row lock, which the blocked batch holds; its first batch then commits.
      restoring = call('POST', `/v1/drive/folders/${top}`, { token: user.token, json: { trashed: false } });
      await hold.blocking(2);
    } finally {
      await hold.release();
    }
    expect((await restoring!).status).toBe(200);
    // zz and late.txt were never reached by the trash: only the versions say that they were in the trash and are back.
    const restored = await shown();
    expect([restored.zz.trashed, restored.late.trashed, restored.first.trashed]).toEqual([
      false,
      false,
      false,
    ]);
    expect(await db()('drive_items').where({ uuid: late }).first('version')).toMatchObject({ version: 1 });
    await reader.sync(token);
    await settle(top);
    await shown();
    await reader.sync(token);

    expect((await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token })).status).toBe(200);
    const again = await shown();
    expect(again.late).toMatchObject({ trashed: true });
    await reader.sync(token);
    await settle(top);
    await shown();
    await reader.sync(token);
    await reader.sync();
  });
});

describe('versions when a folder moves', () => {
  it('gives everything below a moved folder a new version at once, as the feed shows it, and keeps versions rising after', async () => {
    const user = await makeUser();
    const reader = ledger(user);
    const from = await makeFolder(user, 'From');
    const to = await makeFolder(user, 'To');
    const project = await makeFolder(user, 'Project', from);
    const inner = await makeFolder(user, 'Inner', project);
    const file = await insertDriveFile(user, { name: 'deep.txt', folderUuid: inner });
    const { token } = await reader.sync();
    const before = { inner: await reader.get('folders', inner), file: await reader.get('files', file) };

    expect(
      (await call('POST', `/v1/drive/folders/${project}`, { token: user.token, json: { parent_uuid: to } }))
        .status,
    ).toBe(200);
    const moved = { inner: await reader.get('folders', inner), file: await reader.get('files', file) };
    expect(moved.inner.version).toBeGreaterThan(before.inner.version);
    expect(moved.file.version).toBeGreaterThan(before.file.version);
    const feed = await reader.sync(token);
    expect(feed.entries.find((entry) => entry.uuid === file)?.resource).toEqual(moved.file);
    expect(feed.entries.find((entry) => entry.uuid === inner)?.resource).toEqual(moved.inner);

    // Out of the folders whose moves counted for it, and back: the version still only rises.
    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: user.token, json: { folder_uuid: null } }))
        .status,
    ).toBe(200);
    const atRoot = await reader.get('files', file);
    expect(atRoot).toMatchObject({ folder_uuid: null });
    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: user.token, json: { folder_uuid: inner } }))
        .status,
    ).toBe(200);
    expect((await reader.get('files', file)).version).toBeGreaterThan(atRoot.version);
    await reader.sync(token);

    // Something new under folders that moved starts at version 1 all the same.
    const created = await call('POST', '/v1/drive/folders', {
      token: user.token,
      json: { name: 'New', parent_uuid: inner },
    });
    expect(created).toMatchObject({ status: 201, body: { version: 1 } });
  });
});
