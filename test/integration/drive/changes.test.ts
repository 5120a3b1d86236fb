// The changes feed over HTTP: first sync, delta, limits, withheld uploads, trash, deletes, workspaces,
// shares and the sync token's refusals (spec/drive.md § Changes; decisions in docs/drive-sync.md).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../domain/accounts/workspaces.js';
import { issueAccessToken } from '../../../domain/accounts/credentials.js';
import { appendChange, pruneChangeLog } from '../../../domain/drive/change-log.js';
import { db } from '../../../platform/database.js';
import {
  call,
  grant,
  insertDriveFile,
  makeColleague,
  makeUser,
  makeWorkspace,
  revokeGrantFor,
  tokenFor,
  type TestUser,
  makeFolder,
} from '../../support/api.js';
import { settle } from '../../support/cascades.js';
import { decodeSyncToken, encodeSyncToken } from '../../support/sync-token.js';

interface Page {
  object: string;
  url: string;
  as_of: string;
  sync_token: string;
  has_more: boolean;
  changes: any[];
}

async function changes(user: { token: string }, query: { since?: string; limit?: number | string } = {}) {
  const params = new URLSearchParams();
  if (query.since !== undefined) params.set('since', query.since);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  const search = params.toString();
  return call<Page>('GET', `/v1/drive/changes${search ? `?${search}` : ''}`, { token: user.token });
}

/** Follows has_more to the end; returns every entry in order, each page, and the last token. */
async function syncToEnd(user: { token: string }, since?: string, limit?: number) {
  const pages: Page[] = [];
  let token = since;
  for (;;) {
    const response = await changes(user, { since: token, limit });
    expect(response.status).toBe(200);
    pages.push(response.body);
    token = response.body.sync_token;
    if (!response.body.has_more) break;
    expect(pages.length).toBeLessThan(10_000);
  }
  return { entries: pages.flatMap((page) => page.changes), pages, token: token! };
}

const parentOf = (entry: any) => entry.resource?.folder_uuid ?? entry.resource?.parent_uuid ?? null;

/** Applying the stream in order never meets a child before its parent (the owner sees every parent). */
function expectParentsFirst(entries: any[]) {
  const known = new Set<string>();
  for (const entry of entries) {
    if (entry.type === 'delete') continue;
    const parent = parentOf(entry);
    if (parent !== null) expect(known, `parent of ${entry.resource.name} arrives first`).toContain(parent);
    known.add(entry.uuid);
  }
}

/** The final state a client holds after applying the entries as upserts and deletes. */
function apply(entries: any[], state = new Map<string, any>()) {
  for (const entry of entries) {
    if (entry.type === 'delete') state.delete(entry.uuid);
    else state.set(entry.uuid, entry.resource);
  }
  return state;
}

async function deletePermanently(user: TestUser, kind: 'files' | 'folders', uuid: string) {
  const response = await call('DELETE', `/v1/drive/${kind}/${uuid}`, { token: user.token });
  expect(response.status).toBe(204);
}

describe('Drive changes feed: first sync', () => {
  it('pages a snapshot of everything visible, parents before children, then continues as an empty delta', async () => {
    const owner = await makeUser({ firstName: 'Ada' });
    const a = await makeFolder(owner, 'A');
    const b = await makeFolder(owner, 'B', a);
    const c = await makeFolder(owner, 'C', b);
    const rootFile = await insertDriveFile(owner, { name: 'root.txt' });
    const deepFile = await insertDriveFile(owner, { name: 'deep.txt', folderUuid: c });
    const trashed = await makeFolder(owner, 'Old');
    expect(
      (await call('POST', `/v1/drive/folders/${trashed}`, { token: owner.token, json: { trashed: true } }))
        .status,
    ).toBe(200);
    await insertDriveFile(owner, { name: 'uploading.bin', uploadStatus: 'uploading' });

    const { entries, pages, token } = await syncToEnd(owner, undefined, 2);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) {
      expect(page).toMatchObject({ object: 'list', url: '/v1/drive/changes', has_more: expect.any(Boolean) });
      expect(Number.isNaN(Date.parse(page.as_of))).toBe(false);
      expect(page.changes.length).toBeLessThanOrEqual(2);
    }
    expect(pages.slice(0, -1).every((page) => page.has_more)).toBe(true);
    expect(pages.at(-1)!.has_more).toBe(false);
    expect(entries.every((entry) => entry.type === 'create')).toBe(true);
    expect(new Set(entries.map((entry) => entry.uuid))).toEqual(
      new Set([a, b, c, rootFile, deepFile, trashed]),
    );
    expectParentsFirst(entries);

    const folderEntry = entries.find((entry) => entry.uuid === b);
    expect(folderEntry).toEqual({
      type: 'create',
      resource_type: 'folder',
      uuid: b,
      resource: (await call('GET', `/v1/drive/folders/${b}`, { token: owner.token })).body,
    });
    const fileEntry = entries.find((entry) => entry.uuid === deepFile);
    expect(fileEntry).toEqual({
      type: 'create',
      resource_type: 'file',
      uuid: deepFile,
      resource: (await call('GET', `/v1/drive/files/${deepFile}`, { token: owner.token })).body,
    });
    expect(entries.find((entry) => entry.uuid === trashed).resource.trashed).toBe(true);

    const delta = await changes(owner, { since: token });
    expect(delta.status).toBe(200);
    expect(delta.body).toMatchObject({ changes: [], has_more: false });
  });

  it('names the next page in a Link header while has_more: the same token and limit; none on the last page', async () => {
    const owner = await makeUser();
    for (const name of ['a', 'b', 'c']) await makeFolder(owner, name);
    const first = await changes(owner, { limit: 2 });
    expect(first.body.has_more).toBe(true);
    expect(first.headers.get('link')).toBe(
      `</v1/drive/changes?since=${first.body.sync_token}&limit=2>; rel="next"`,
    );
    const last = await changes(owner, { since: first.body.sync_token, limit: 2 });
    expect(last.body).toMatchObject({ has_more: false });
    expect(last.headers.get('link')).toBeNull();
    // A delta with more to come links on like the snapshot.
    await makeFolder(owner, 'd');
    await makeFolder(owner, 'e');
    const head = await changes(owner, { since: last.body.sync_token, limit: 1 });
    expect(head.body).toMatchObject({
      has_more: true,
      changes: [expect.objectContaining({ type: 'create' })],
    });
    expect(head.headers.get('link')).toBe(
      `</v1/drive/changes?since=${head.body.sync_token}&limit=1>; rel="next"`,
    );
    const rest = await changes(owner, { since: head.body.sync_token });
    expect(rest.body).toMatchObject({
      has_more: false,
      changes: [expect.objectContaining({ type: 'create' })],
    });
    expect(rest.headers.get('link')).toBeNull();
    const latest = await call<Page>('GET', '/v1/drive/changes?sync_token=latest', { token: owner.token });
    expect(latest.headers.get('link')).toBeNull();
  });

  it('continues seamlessly into the changes committed while the snapshot was being paged', async () => {
    const owner = await makeUser();
    const first = await makeFolder(owner, 'first');
    const second = await makeFolder(owner, 'second');
    await makeFolder(owner, 'third');
    const page1 = await changes(owner, { limit: 1 });
    expect(page1.body.changes.map((entry: any) => entry.uuid)).toHaveLength(1);
    expect(page1.body.has_more).toBe(true);

    // Meanwhile: a rename of something maybe already sent, a new folder with a child, and a move.
    const sentUuid = page1.body.changes[0].uuid;
    expect(
      (await call('POST', `/v1/drive/folders/${sentUuid}`, { token: owner.token, json: { name: 'renamed' } }))
        .status,
    ).toBe(200);
    const late = await makeFolder(owner, 'late');
    const lateChild = await makeFolder(owner, 'late child', late);
    expect(
      (
        await call('POST', `/v1/drive/folders/${first === sentUuid ? second : first}`, {
          token: owner.token,
          json: { parent_uuid: late },
        })
      ).status,
    ).toBe(200);

    const rest = await syncToEnd(owner, page1.body.sync_token, 1);
    const all = [...page1.body.changes, ...rest.entries];
    expectParentsFirst(all);
    const held = apply(all);
    const listed = (await call('GET', '/v1/drive/files', { token: owner.token })).body;
    const lateListing = (await call('GET', `/v1/drive/files?folder_uuid=${late}`, { token: owner.token }))
      .body;
    const truth = [...listed.folders, ...lateListing.folders];
    expect(truth.map((item: any) => item.uuid)).toContain(lateChild);
    for (const item of truth) expect(held.get(item.uuid)).toEqual(item);
    expect(held.size).toBe(truth.length);
  });

  it('defaults to 250 changes a page, allows up to 1000, and refuses other limits with 400 invalid_body', async () => {
    const owner = await makeUser();
    await db().raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, name, upload_status, content_type, file_size_bytes)
       select ?, ?, 'file', 'bulk-' || n || '.txt', 'completed', 'text/plain', 1 from generate_series(1, 1005) as n`,
      [owner.workspaceUuid, owner.uuid],
    );
    const byDefault = await changes(owner);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.changes).toHaveLength(250);
    expect(byDefault.body.has_more).toBe(true);

    const max = await changes(owner, { limit: 1000 });
    expect(max.body.changes).toHaveLength(1000);
    expect(max.body.has_more).toBe(true);
    const tail = await changes(owner, { since: max.body.sync_token, limit: 1000 });
    expect(tail.body.changes).toHaveLength(5);
    expect(tail.body.has_more).toBe(false);

    for (const limit of ['1001', '0', '-1', 'ten', '1.5', '', '99999']) {
      const refused = await changes(owner, { limit });
      expect(refused.status, `limit=${limit}`).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_body', fields: ['limit'] });
    }
  });

  it('a reader who sees little of a large workspace gets short pages, each reading at most 10,000 rows', async () => {
    const owner = await makeUser();
    const reader = await makeColleague(owner);
    await db().raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, name, upload_status, content_type, file_size_bytes)
       select ?, ?, 'file', 'private-' || n || '.txt', 'completed', 'text/plain', 1 from generate_series(1, 10050) as n`,
      [owner.workspaceUuid, owner.uuid],
    );
    // The one folder shared with the reader comes last among the roots in snapshot order (depth, parent, uuid).
    const [shared] = await db()('drive_items')
      .insert({
        uuid: `ffffffff-ffff-4fff-bfff-${randomUUID().slice(-12)}`,
        workspace_uuid: owner.workspaceUuid,
        owner_uuid: owner.uuid,
        kind: 'folder',
        name: 'Shared',
      })
      .returning('uuid');
    const inside = await insertDriveFile(owner, { name: 'inside.txt', folderUuid: shared.uuid });
    await grant({ folder: shared.uuid }, { user: reader }, 'viewer');

    const first = await changes(reader, { limit: 1000 });
    expect(first.status).toBe(200);
    expect(first.body.changes).toEqual([]);
    expect(first.body.has_more).toBe(true);
    const rest = await syncToEnd(reader, first.body.sync_token, 1000);
    expect(rest.entries.map((entry) => [entry.type, entry.uuid])).toEqual([
      ['create', shared.uuid],
      ['create', inside],
    ]);
    // The owner's own pages stay full.
    const owners = await changes(owner, { limit: 1000 });
    expect(owners.body.changes).toHaveLength(1000);
  });
});

describe('Drive changes feed: delta', () => {
  it('reports renames, moves and creates after the token in commit order with the current resource', async () => {
    const owner = await makeUser();
    const docs = await makeFolder(owner, 'Docs');
    const file = await insertDriveFile(owner, { name: 'a.txt' });
    const { token } = await syncToEnd(owner);

    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: owner.token, json: { name: 'b.txt' } })).status,
    ).toBe(200);
    const archive = await makeFolder(owner, 'Archive');
    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: owner.token, json: { folder_uuid: docs } }))
        .status,
    ).toBe(200);

    const page = await changes(owner, { since: token });
    expect(page.status).toBe(200);
    expect(page.body.has_more).toBe(false);
    const current = (await call('GET', `/v1/drive/files/${file}`, { token: owner.token })).body;
    expect(current).toMatchObject({ name: 'b.txt', folder_uuid: docs, version: 3 });
    // One entry per item per page, at the place of its last change.
    expect(page.body.changes).toEqual([
      {
        type: 'create',
        resource_type: 'folder',
        uuid: archive,
        resource: (await call('GET', `/v1/drive/folders/${archive}`, { token: owner.token })).body,
      },
      { type: 'update', resource_type: 'file', uuid: file, resource: current },
    ]);
    const again = await changes(owner, { since: page.body.sync_token });
    expect(again.body).toMatchObject({ changes: [], has_more: false });
  });

  it('pulls a parent forward when a child arrives before the change that created its parent, within the limit', async () => {
    const owner = await makeUser();
    const { token } = await syncToEnd(owner);
    const child = await makeFolder(owner, 'child');
    const filler = await makeFolder(owner, 'filler');
    const parent = await makeFolder(owner, 'parent');
    expect(
      (
        await call('POST', `/v1/drive/folders/${child}`, {
          token: owner.token,
          json: { parent_uuid: parent },
        })
      ).status,
    ).toBe(200);

    const { pages, entries } = await syncToEnd(owner, token, 2);
    expect(pages.map((page) => page.changes.map((entry: any) => [entry.type, entry.uuid]))).toEqual([
      [
        ['update', parent],
        ['create', child],
      ],
      [
        ['create', filler],
        ['create', parent],
      ],
      [['update', child]],
    ]);
    expectParentsFirst(entries);
  });

  it('withholds a file while it uploads and delivers it once completed', async () => {
    const owner = await makeUser();
    const { token } = await syncToEnd(owner);
    const upload = await insertDriveFile(owner, { name: 'big.bin', uploadStatus: 'uploading' });

    const during = await syncToEnd(owner, token);
    expect(during.entries).toEqual([]);
    const firstSync = await syncToEnd(owner);
    expect(firstSync.entries).toEqual([]);

    await db().transaction(async (tx) => {
      const [row] = await tx('drive_items')
        .where({ uuid: upload })
        .update({ upload_status: 'completed', version: tx.raw('version + 1') })
        .returning('*');
      await appendChange(tx, 'update', row);
    });
    const after = await syncToEnd(owner, during.token);
    expect(after.entries).toEqual([
      {
        type: 'update',
        resource_type: 'file',
        uuid: upload,
        resource: expect.objectContaining({ upload_status: 'completed', version: 2 }),
      },
    ]);
  });

  it('delivers a trash as an update with trashed true and a restore as an update with trashed false', async () => {
    const owner = await makeUser();
    const file = await insertDriveFile(owner, { name: 'notes.txt' });
    const { token } = await syncToEnd(owner);

    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: owner.token, json: { trashed: true } })).status,
    ).toBe(200);
    const trashedPage = await syncToEnd(owner, token);
    expect(trashedPage.entries).toEqual([
      {
        type: 'update',
        resource_type: 'file',
        uuid: file,
        resource: expect.objectContaining({ trashed: true, version: 2 }),
      },
    ]);

    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: owner.token, json: { trashed: false } }))
        .status,
    ).toBe(200);
    const restoredPage = await syncToEnd(owner, trashedPage.token);
    expect(restoredPage.entries).toEqual([
      {
        type: 'update',
        resource_type: 'file',
        uuid: file,
        resource: expect.objectContaining({ trashed: false, version: 3 }),
      },
    ]);
  });

  it('delivers a permanent delete with parent_uuid and no resource, to the owner and to a grantee of an ancestor only', async () => {
    const owner = await makeUser();
    const grantee = await makeColleague(owner);
    const stranger = await makeColleague(owner);
    const shared = await makeFolder(owner, 'Shared');
    const file = await insertDriveFile(owner, { name: 'gone.txt', folderUuid: shared });
    await grant({ folder: shared }, { user: grantee }, 'viewer');
    const tokens = await Promise.all(
      [owner, grantee, stranger].map(async (user) => (await syncToEnd(user)).token),
    );

    await deletePermanently(owner, 'files', file);
    const ownerSees = await syncToEnd(owner, tokens[0]);
    const granteeSees = await syncToEnd(grantee, tokens[1]);
    const strangerSees = await syncToEnd(stranger, tokens[2]);
    const deletion = { type: 'delete', resource_type: 'file', uuid: file, parent_uuid: shared };
    expect(ownerSees.entries).toEqual([deletion]);
    expect(granteeSees.entries).toEqual([deletion]);
    expect(strangerSees.entries).toEqual([]);
    expect(ownerSees.entries[0]).not.toHaveProperty('resource');
  });

  it('still tells a grantee when the shared folder itself is deleted, and of every item below it once the cascade removed them', async () => {
    const owner = await makeUser();
    const grantee = await makeColleague(owner);
    const parent = await makeFolder(owner, 'Private');
    const shared = await makeFolder(owner, 'Shared', parent);
    const inner = await makeFolder(owner, 'Inner', shared);
    const file = await insertDriveFile(owner, { name: 'inside.txt', folderUuid: inner });
    await grant({ folder: shared }, { user: grantee }, 'editor');
    const { token } = await syncToEnd(grantee);

    await deletePermanently(owner, 'folders', shared);
    const atOnce = await syncToEnd(grantee, token);
    expect(atOnce.entries[0]).toEqual({
      type: 'delete',
      resource_type: 'folder',
      uuid: shared,
      parent_uuid: parent,
    });

    // The cascade removes the rows (and the grant with them) leaves first, with a delete change for each.
    await settle(shared);
    expect(await db()('drive_items').whereIn('uuid', [shared, inner, file])).toEqual([]);
    expect(await db()('drive_grants').where({ item_uuid: shared })).toEqual([]);
    const later = await syncToEnd(grantee, atOnce.token);
    const deletes = [...atOnce.entries, ...later.entries].filter((entry) => entry.type === 'delete');
    expect(deletes).toEqual(
      expect.arrayContaining([
        { type: 'delete', resource_type: 'folder', uuid: shared, parent_uuid: parent },
        { type: 'delete', resource_type: 'folder', uuid: inner, parent_uuid: shared },
        { type: 'delete', resource_type: 'file', uuid: file, parent_uuid: inner },
      ]),
    );
    expect([...atOnce.entries, ...later.entries].every((entry) => entry.type === 'delete')).toBe(true);
    expect((await syncToEnd(grantee)).entries).toEqual([]);
  });
});

describe('Drive changes feed: visibility through shares', () => {
  it('brings a folder and its subtree into a grantee feed when a grant is accepted, and deletes them when it is revoked', async () => {
    const owner = await makeUser();
    const grantee = await makeColleague(owner);
    const shared = await makeFolder(owner, 'Team');
    const inner = await makeFolder(owner, 'Inner', shared);
    const file = await insertDriveFile(owner, { name: 'plan.txt', folderUuid: inner });
    const hidden = await makeFolder(owner, 'Hidden');
    const start = await syncToEnd(grantee);
    expect(start.entries).toEqual([]);

    const pending = await grant({ folder: shared }, { user: grantee }, 'viewer', 'pending');
    const whilePending = await syncToEnd(grantee, start.token);
    expect(whilePending.entries).toEqual([]);

    const { acceptGrant } = await import('../../../domain/drive/sharing.js');
    await db().transaction((tx) => acceptGrant(tx, pending));
    const accepted = await syncToEnd(grantee, whilePending.token);
    expect(accepted.entries.map((entry) => [entry.type, entry.uuid])).toEqual([
      ['update', shared],
      ['update', inner],
      ['update', file],
    ]);
    expect(accepted.entries.map((entry) => entry.resource.my_role)).toEqual(['viewer', 'viewer', 'viewer']);
    expect(accepted.entries[0].resource).toMatchObject({ shared: true, owner: { self: false } });
    expect(accepted.entries.map((entry) => entry.uuid)).not.toContain(hidden);

    // The first sync of the grantee now holds the same subtree.
    expect(new Set((await syncToEnd(grantee)).entries.map((entry) => entry.uuid))).toEqual(
      new Set([shared, inner, file]),
    );

    await revokeGrantFor(pending);
    const revoked = await syncToEnd(grantee, accepted.token);
    expect(revoked.entries).toEqual([
      { type: 'delete', resource_type: 'folder', uuid: shared, parent_uuid: null },
      { type: 'delete', resource_type: 'folder', uuid: inner, parent_uuid: shared },
      { type: 'delete', resource_type: 'file', uuid: file, parent_uuid: inner },
    ]);
    expect((await syncToEnd(grantee)).entries).toEqual([]);
  });

  it('shows the owner the shared flag turning on and off through the feed', async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner);
    const file = await insertDriveFile(owner, { name: 'share-me.txt' });
    const { token } = await syncToEnd(owner);
    const grantUuid = await grant({ file }, { user: colleague }, 'commenter');
    const on = await syncToEnd(owner, token);
    expect(on.entries).toEqual([
      {
        type: 'update',
        resource_type: 'file',
        uuid: file,
        resource: expect.objectContaining({ shared: true, version: 2, my_role: 'owner' }),
      },
    ]);
    await revokeGrantFor(grantUuid);
    const off = await syncToEnd(owner, on.token);
    expect(off.entries).toEqual([
      {
        type: 'update',
        resource_type: 'file',
        uuid: file,
        resource: expect.objectContaining({ shared: false, version: 3 }),
      },
    ]);
  });

  it('deletes an item from a grantee feed when it moves out of the shared folder, and brings it back when it moves in', async () => {
    const owner = await makeUser();
    const grantee = await makeColleague(owner);
    const shared = await makeFolder(owner, 'Shared');
    const privateFolder = await makeFolder(owner, 'Private');
    const file = await insertDriveFile(owner, { name: 'wanderer.txt', folderUuid: shared });
    await grant({ folder: shared }, { user: grantee }, 'viewer');
    const start = await syncToEnd(grantee);
    expect(start.entries.map((entry) => entry.uuid)).toEqual([shared, file]);
    const ownerStart = await syncToEnd(owner);

    expect(
      (
        await call('POST', `/v1/drive/files/${file}`, {
          token: owner.token,
          json: { folder_uuid: privateFolder },
        })
      ).status,
    ).toBe(200);
    const out = await syncToEnd(grantee, start.token);
    expect(out.entries).toEqual([{ type: 'delete', resource_type: 'file', uuid: file, parent_uuid: shared }]);

    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: owner.token, json: { folder_uuid: shared } }))
        .status,
    ).toBe(200);
    const back = await syncToEnd(grantee, out.token);
    expect(back.entries).toEqual([
      {
        type: 'update',
        resource_type: 'file',
        uuid: file,
        resource: expect.objectContaining({ folder_uuid: shared, my_role: 'viewer' }),
      },
    ]);
    // The owner sees the moves as an update, never a delete.
    expect((await syncToEnd(owner, ownerStart.token)).entries).toEqual([
      {
        type: 'update',
        resource_type: 'file',
        uuid: file,
        resource: expect.objectContaining({ folder_uuid: shared, version: 4 }),
      },
    ]);
  });

  it('brings a folder and everything below it to a grantee when it moves into a shared folder, and deletes them all when it moves out', async () => {
    const owner = await makeUser();
    const grantee = await makeColleague(owner);
    const shared = await makeFolder(owner, 'Shared');
    const project = await makeFolder(owner, 'Project');
    const inner = await makeFolder(owner, 'Inner', project);
    const file = await insertDriveFile(owner, { name: 'deep.txt', folderUuid: inner });
    await grant({ folder: shared }, { user: grantee }, 'viewer');
    const start = await syncToEnd(grantee);
    expect(start.entries.map((entry) => entry.uuid)).toEqual([shared]);
    const ownerStart = await syncToEnd(owner);

    expect(
      (
        await call('POST', `/v1/drive/folders/${project}`, {
          token: owner.token,
          json: { parent_uuid: shared },
        })
      ).status,
    ).toBe(200);
    const moveIn = await syncToEnd(grantee, start.token);
    expect(moveIn.entries.map((entry) => [entry.type, entry.uuid])).toEqual([
      ['update', project],
      ['update', inner],
      ['update', file],
    ]);
    expect(moveIn.entries.map((entry) => entry.resource.my_role)).toEqual(['viewer', 'viewer', 'viewer']);
    // Everything below a moved folder gets a new version: someone's my_role on it may have changed (the grantee's
    // did here), and rule 4 lets a client skip a version it holds. The owner's client just applies it again.
    const ownerAfter = await syncToEnd(owner, ownerStart.token);
    expect(ownerAfter.entries.find((entry) => entry.uuid === inner)?.resource.version).toBe(2);
    expect(ownerAfter.entries.find((entry) => entry.uuid === project)?.resource).toMatchObject({
      parent_uuid: shared,
      version: 2,
    });

    expect(
      (
        await call('POST', `/v1/drive/folders/${project}`, {
          token: owner.token,
          json: { parent_uuid: null },
        })
      ).status,
    ).toBe(200);
    const moveOut = await syncToEnd(grantee, moveIn.token);
    expect(moveOut.entries.map((entry) => [entry.type, entry.uuid])).toEqual([
      ['delete', project],
      ['delete', inner],
      ['delete', file],
    ]);
    const state = apply(moveOut.entries, apply(moveIn.entries, apply(start.entries)));
    expect([...state.keys()]).toEqual([shared]);
  });

  it('gives a new version to everything below a moved folder, so a reader whose my_role changed cannot skip it', async () => {
    const owner = await makeUser();
    const reader = await makeColleague(owner);
    const readOnly = await makeFolder(owner, 'Read only');
    const writable = await makeFolder(owner, 'Writable');
    const project = await makeFolder(owner, 'Project', readOnly);
    const inner = await makeFolder(owner, 'Inner', project);
    const file = await insertDriveFile(owner, { name: 'deep.txt', folderUuid: inner });
    await grant({ folder: readOnly }, { user: reader }, 'viewer');
    await grant({ folder: writable }, { user: reader }, 'editor');
    const start = await syncToEnd(reader);
    const held = apply(start.entries);
    expect([held.get(inner)?.my_role, held.get(file)?.my_role]).toEqual(['viewer', 'viewer']);

    expect(
      (
        await call('POST', `/v1/drive/folders/${project}`, {
          token: owner.token,
          json: { parent_uuid: writable },
        })
      ).status,
    ).toBe(200);
    const after = await syncToEnd(reader, start.token);
    // A client that skips every entry whose version it holds (rule 4) still ends with the new roles.
    const state = new Map(held);
    for (const entry of after.entries) {
      if (entry.type === 'delete') state.delete(entry.uuid);
      else if (!(state.get(entry.uuid)?.version >= entry.resource.version))
        state.set(entry.uuid, entry.resource);
    }
    expect([project, inner, file].map((uuid) => state.get(uuid)?.my_role)).toEqual([
      'editor',
      'editor',
      'editor',
    ]);
    expect(after.entries.find((entry) => entry.uuid === file)?.resource.version).toBe(
      held.get(file).version + 1,
    );
  });

  it("tells a grantee of deletes for a folder and what is inside when a restore takes it to its owner's root", async () => {
    const owner = await makeUser();
    const grantee = await makeColleague(owner);
    const shared = await makeFolder(owner, 'Shared');
    const project = await makeFolder(owner, 'Project', shared);
    const file = await insertDriveFile(owner, { name: 'inside.txt', folderUuid: project });
    await grant({ folder: shared }, { user: grantee }, 'viewer');
    expect((await call('POST', `/v1/drive/folders/${project}/trash`, { token: owner.token })).status).toBe(
      200,
    );
    await settle(project);
    expect((await call('POST', `/v1/drive/folders/${shared}/trash`, { token: owner.token })).status).toBe(
      200,
    );
    await settle(shared);
    const start = await syncToEnd(grantee);
    expect(start.entries.map((entry) => entry.uuid).sort()).toEqual([shared, project, file].sort());

    // Shared stays in the trash, so Project comes back at the owner's root, out of the grantee's reach.
    const restored = await call('POST', `/v1/drive/folders/${project}`, {
      token: owner.token,
      json: { trashed: false },
    });
    expect(restored.body).toMatchObject({ parent_uuid: null, trashed: false });
    const after = await syncToEnd(grantee, start.token);
    expect(
      after.entries
        .filter((entry) => entry.uuid !== shared)
        .map((entry) => [entry.type, entry.uuid])
        .sort(),
    ).toEqual(
      [
        ['delete', project],
        ['delete', file],
      ].sort(),
    );
  });

  it('gives every member of the workspace the items of a workspace grant, and a new file inside reaches them', async () => {
    const owner = await makeUser();
    const member = await makeColleague(owner);
    const shared = await makeFolder(owner, 'Everyone');
    const { token } = await syncToEnd(member);
    await grant({ folder: shared }, { workspace: owner.workspaceUuid }, 'viewer');
    const file = await insertDriveFile(owner, { name: 'handbook.pdf', folderUuid: shared });
    const seen = await syncToEnd(member, token);
    expect(seen.entries.map((entry) => [entry.type, entry.uuid])).toEqual([
      ['update', shared],
      ['create', file],
    ]);
  });
});

describe('Drive changes feed: tokens and workspaces', () => {
  it("covers only the token's workspace, and refuses a sync token from another workspace with 410", async () => {
    const owner = await makeUser();
    const otherWorkspace = await makeWorkspace();
    await createUser(db(), { workspaceUuid: otherWorkspace.uuid, email: owner.email });
    const elsewhere = {
      token: (
        await issueAccessToken(db(), {
          workspaceUuid: otherWorkspace.uuid,
          userUuid: owner.uuid,
          scopes: ['drive.read', 'drive.create'],
          expiresInMs: 600_000,
        })
      ).access_token,
    };
    const here = await makeFolder(owner, 'Here');
    const there = (
      await call('POST', '/v1/drive/folders', { token: elsewhere.token, json: { name: 'There' } })
    ).body.uuid;

    const hereSync = await syncToEnd(owner);
    const thereSync = await syncToEnd(elsewhere);
    expect(hereSync.entries.map((entry) => entry.uuid)).toEqual([here]);
    expect(thereSync.entries.map((entry) => entry.uuid)).toEqual([there]);

    const crossed = await changes(elsewhere, { since: hereSync.token });
    expect(crossed.status).toBe(410);
    expect(crossed.body).toEqual({ error: 'sync_token_invalid' });
  });

  it('refuses a token of another user, a tampered token and garbage with 410 sync_token_invalid', async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner);
    await makeFolder(owner, 'Mine');
    const { token } = await syncToEnd(owner);
    const raw = Buffer.from(token, 'base64url');
    raw[10]! ^= 0x01;
    for (const [who, since] of [
      [colleague, token],
      [owner, raw.toString('base64url')],
      [owner, 'garbage'],
      [owner, token.slice(0, -2)],
    ] as const) {
      const response = await changes(who, { since });
      expect(response.status).toBe(410);
      expect(response.body).toEqual({ error: 'sync_token_invalid' });
    }
    // A valid token keeps working after the refusals.
    expect((await changes(owner, { since: token })).status).toBe(200);
  });

  it('refuses a token older than what the change log still holds, and a reseed without since works', async () => {
    const owner = await makeUser();
    await makeFolder(owner, 'One');
    const { token } = await syncToEnd(owner);
    await makeFolder(owner, 'Two');
    const head = await db()('drive_changes')
      .where({ workspace_uuid: owner.workspaceUuid })
      .max('seq as seq')
      .first();
    await pruneChangeLog(db(), owner.workspaceUuid, String(head!.seq));

    const stale = await changes(owner, { since: token });
    expect(stale.status).toBe(410);
    expect(stale.body).toEqual({ error: 'sync_token_invalid' });
    const reseed = await syncToEnd(owner);
    expect(reseed.entries.map((entry) => entry.resource.name).sort()).toEqual(['One', 'Two']);
    expect((await changes(owner, { since: reseed.token })).status).toBe(200);
  });

  it('refuses a correctly sealed token whose position lies beyond the change log', async () => {
    const owner = await makeUser();
    const cursor = decodeSyncToken((await syncToEnd(owner)).token)!;
    const ahead = encodeSyncToken({ ...cursor, phase: 'delta', seq: '999999999999' });
    expect((await changes(owner, { since: ahead })).status).toBe(410);
  });

  it('needs the drive.read scope', async () => {
    const owner = await makeUser();
    const response = await changes({ token: await tokenFor(owner, ['drive.create']) });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', scope: 'drive.read' });
  });
});
