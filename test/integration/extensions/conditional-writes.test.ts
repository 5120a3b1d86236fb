// Conditional writes, an extension (docs/extensions.md § Conditional writes): ETag and If-None-Match (304) on reads of
// a file and a folder; If-Match on their updates, trash, permanent delete and replace initiate, checked under the
// item's row lock with the write. The race of two clients holding one ETag is forced with a held row lock.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { operationsOn } from '../../../domain/drive/trash.js';
import { db } from '../../../platform/database.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import {
  call,
  grant,
  insertDriveFile,
  makeColleague,
  makeFolder,
  makeUser,
  type TestUser,
} from '../../support/api.js';
import { holdRow } from '../../support/cascades.js';
import { simpleUpload } from '../../support/drive-files.js';
import { changesSince, lastSeq, row, watchItem } from '../../support/drive-rows.js';
import { ApiError, initiateReplace, replaceChunked } from '../../support/folio-client.js';

afterAll(closeTemporalClient);

type Kind = 'files' | 'folders';
const ETAG = /^"[0-9]+-[A-Za-z0-9_-]{16}"$/;

const get = (user: TestUser, kind: Kind, uuid: string, headers: Record<string, string> = {}) =>
  call('GET', `/v1/drive/${kind}/${uuid}`, { token: user.token, headers });
const update = (user: TestUser, kind: Kind, uuid: string, json: object, ifMatch?: string) =>
  call('POST', `/v1/drive/${kind}/${uuid}`, {
    token: user.token,
    json,
    headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
  });
const trash = (user: TestUser, kind: Kind, uuid: string, ifMatch: string) =>
  call('POST', `/v1/drive/${kind}/${uuid}/trash`, { token: user.token, headers: { 'if-match': ifMatch } });
const remove = (user: TestUser, kind: Kind, uuid: string, ifMatch: string) =>
  call('DELETE', `/v1/drive/${kind}/${uuid}`, { token: user.token, headers: { 'if-match': ifMatch } });
const replace = (user: TestUser, uuid: string, ifMatch: string) =>
  call('POST', `/v1/drive/files/${uuid}/replace`, {
    token: user.token,
    json: { plaintext_size_bytes: 4 },
    headers: { 'if-match': ifMatch },
  });

/** The item as the caller reads it, with its ETag. */
async function read(user: TestUser, kind: Kind, uuid: string): Promise<{ body: any; etag: string }> {
  const response = await get(user, kind, uuid);
  expect(response.status).toBe(200);
  const etag = response.headers.get('etag')!;
  expect(etag).toMatch(ETAG);
  return { body: response.body, etag };
}

/** A 412 answers the item as the caller now reads it, and its ETag. */
async function expectPreconditionFailed(
  response: Awaited<ReturnType<typeof call>>,
  user: TestUser,
  kind: Kind,
  uuid: string,
) {
  const now = await read(user, kind, uuid);
  expect(response.status).toBe(412);
  expect(response.body).toEqual({ error: 'precondition_failed', current: now.body });
  expect(response.headers.get('etag')).toBe(now.etag);
}

const stagedVersions = async (fileUuid: string) =>
  Number(
    (await db()('drive_file_versions')
      .where({ file_uuid: fileUuid, status: 'staged' })
      .count('* as n')
      .first())!.n,
  );

describe('ETag and If-None-Match on reads', () => {
  it.each(['files', 'folders'] as const)(
    'GET /v1/drive/%s/{uuid} answers a strong ETag, and 304 without a body when If-None-Match names it',
    async (kind) => {
      const user = await makeUser();
      const uuid = kind === 'files' ? await insertDriveFile(user) : await makeFolder(user, 'Read me');
      const { body, etag } = await read(user, kind, uuid);
      expect(etag.startsWith(`"${body.version}-`)).toBe(true);

      for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
        const response = await get(user, kind, uuid, { 'if-none-match': header });
        expect(response.status, header).toBe(304);
        expect(response.body).toBe('');
        expect(response.headers.get('etag')).toBe(etag);
      }
      for (const header of ['"stale"', 'not-a-tag']) {
        const response = await get(user, kind, uuid, { 'if-none-match': header });
        expect(response.status, header).toBe(200);
        expect(response.body).toEqual(body);
      }
    },
  );

  it('gives a file a new ETag after each write, the one the write answers, and the old one no longer 304s', async () => {
    const user = await makeUser();
    const file = (await simpleUpload(user, 'etag.bin', randomBytes(10))).uuid as string;
    const seen = [(await read(user, 'files', file)).etag];
    const expectNew = async (answered: string | null) => {
      const now = await read(user, 'files', file);
      if (answered !== null) expect(answered).toBe(now.etag);
      expect(seen).not.toContain(now.etag);
      expect((await get(user, 'files', file, { 'if-none-match': seen.at(-1)! })).status).toBe(200);
      seen.push(now.etag);
    };

    await expectNew((await update(user, 'files', file, { name: 'renamed.bin' })).headers.get('etag'));
    await expectNew((await trash(user, 'files', file, '*')).headers.get('etag'));
    await expectNew((await update(user, 'files', file, { trashed: false })).headers.get('etag'));
    await replaceChunked({ token: user.token }, file, { size: 3, source: Buffer.from('new') });
    await expectNew(null);
    expect((await read(user, 'files', file)).body).toMatchObject({ version: 5, ctag: 1 });
  });

  it('gives a folder a new ETag after each write, the one the write answers', async () => {
    const user = await makeUser();
    const created = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Tagged' } });
    const folder = created.body.uuid as string;
    const first = await read(user, 'folders', folder);
    expect(created.headers.get('etag')).toBe(first.etag);
    const recoloured = await update(user, 'folders', folder, { color: '#112233' });
    const second = await read(user, 'folders', folder);
    expect(recoloured.headers.get('etag')).toBe(second.etag);
    expect(second.etag).not.toBe(first.etag);
    const trashed = await trash(user, 'folders', folder, second.etag);
    expect(trashed.status).toBe(200);
    const third = await read(user, 'folders', folder);
    expect(trashed.headers.get('etag')).toBe(third.etag);
    expect(new Set([first.etag, second.etag, third.etag]).size).toBe(3);
  });

  it("changes the ETag when what the caller is answered changes without a new version (the owner's name)", async () => {
    const user = await makeUser({ firstName: 'Ada' });
    const file = await insertDriveFile(user);
    const before = await read(user, 'files', file);
    await db()('users').where({ uuid: user.uuid }).update({ first_name: 'Grace' });
    const after = await read(user, 'files', file);
    expect(after.body.version).toBe(before.body.version);
    expect(after.etag).not.toBe(before.etag);
    expect((await get(user, 'files', file, { 'if-none-match': before.etag })).status).toBe(200);
    // A write held to the old tag is refused: the caller has not seen the item as it is.
    await expectPreconditionFailed(
      await update(user, 'files', file, { name: 'x.txt' }, before.etag),
      user,
      'files',
      file,
    );
  });
});

describe('If-Match on updates', () => {
  it.each(['files', 'folders'] as const)(
    'POST /v1/drive/%s/{uuid}: applies on a match, and refuses a stale ETag with 412, the current item and nothing changed',
    async (kind) => {
      const user = await makeUser();
      const uuid =
        kind === 'files' ? await insertDriveFile(user, { name: 'one.txt' }) : await makeFolder(user, 'One');
      const first = await read(user, kind, uuid);

      const applied = await update(user, kind, uuid, { name: 'two' }, first.etag);
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({ name: 'two', version: 2 });

      const { expectUnchanged } = await watchItem(uuid);
      await expectPreconditionFailed(
        await update(user, kind, uuid, { name: 'three' }, first.etag),
        user,
        kind,
        uuid,
      );
      // A weak tag never matches (strong comparison), even the current one.
      const current = await read(user, kind, uuid);
      await expectPreconditionFailed(
        await update(user, kind, uuid, { name: 'three' }, `W/${current.etag}`),
        user,
        kind,
        uuid,
      );
      await expectUnchanged();

      // A list matches when one of its tags does; * matches any item.
      expect(
        (await update(user, kind, uuid, { name: 'three' }, `${first.etag}, ${current.etag}`)).status,
      ).toBe(200);
      const starred = await update(user, kind, uuid, { name: 'four' }, '*');
      expect(starred.status).toBe(200);
      expect(starred.body).toMatchObject({ name: 'four', version: 4 });
    },
  );

  it('refuses a malformed If-Match with 400 invalid_if_match before anything changes', async () => {
    const user = await makeUser();
    const file = await insertDriveFile(user);
    const { expectUnchanged } = await watchItem(file);
    for (const header of ['unquoted', '"open', '*, "a"', 'w/"a"']) {
      const response = await update(user, 'files', file, { name: 'renamed.txt' }, header);
      expect(response.status, header).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_if_match' });
    }
    await expectUnchanged();
  });

  it('answers 404 and 403 before the precondition: an unknown item with *, a viewer with the current ETag', async () => {
    const owner = await makeUser();
    const viewer = await makeColleague(owner);
    const file = await insertDriveFile(owner);
    await grant({ file }, { user: viewer }, 'viewer');
    const unknown = await update(owner, 'files', '3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60', { name: 'x' }, '*');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found' });
    const { etag } = await read(viewer, 'files', file);
    for (const header of [etag, '"stale"']) {
      const refused = await update(viewer, 'files', file, { name: 'x.txt' }, header);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'not_authorized' });
    }
  });
});

describe('If-Match on trash and permanent delete', () => {
  it('trashes a file or a folder on a match; a stale ETag is 412 with nothing changed and no cascade started', async () => {
    const user = await makeUser();
    const file = await insertDriveFile(user, { name: 'a.txt' });
    const folder = await makeFolder(user, 'Folder');
    await insertDriveFile(user, { folderUuid: folder });
    for (const [kind, uuid] of [
      ['files', file],
      ['folders', folder],
    ] as const) {
      const stale = (await read(user, kind, uuid)).etag;
      await update(user, kind, uuid, { name: `renamed-${kind}` });
      const { expectUnchanged } = await watchItem(uuid);
      await expectPreconditionFailed(await trash(user, kind, uuid, stale), user, kind, uuid);
      await expectUnchanged();
      const trashed = await trash(user, kind, uuid, (await read(user, kind, uuid)).etag);
      expect(trashed.status).toBe(200);
      expect(trashed.body).toMatchObject({ trashed: true });
    }
    expect(await operationsOn(db(), folder)).toEqual([expect.objectContaining({ kind: 'trash' })]);
  });

  it('deletes a file or a folder permanently on a match or *; a stale ETag is 412 and the item stays', async () => {
    const user = await makeUser();
    const file = await insertDriveFile(user, { name: 'a.txt' });
    const folder = await makeFolder(user, 'Folder');
    for (const [kind, uuid] of [
      ['files', file],
      ['folders', folder],
    ] as const) {
      const stale = (await read(user, kind, uuid)).etag;
      await update(user, kind, uuid, { name: `renamed-${kind}` });
      const { expectUnchanged } = await watchItem(uuid);
      await expectPreconditionFailed(await remove(user, kind, uuid, stale), user, kind, uuid);
      await expectUnchanged();
      const deleted = await remove(
        user,
        kind,
        uuid,
        kind === 'files' ? (await read(user, kind, uuid)).etag : '*',
      );
      expect(deleted.status).toBe(204);
      expect((await get(user, kind, uuid)).status).toBe(404);
    }
  });
});

describe('If-Match on replace initiate', () => {
  it("starts on the file's ETag, or on its content tag after a rename; refuses a stale one with 412 and stages nothing", async () => {
    const user = await makeUser();
    const file = (await simpleUpload(user, 'content.bin', randomBytes(10))).uuid as string;
    const original = await read(user, 'files', file);

    const onEtag = await replace(user, file, original.etag);
    expect(onEtag.status).toBe(201);
    expect((await call('POST', `/v1/drive/files/${file}/replace/abort`, { token: user.token })).status).toBe(
      200,
    );

    await update(user, 'files', file, { name: 'renamed.bin' });
    const { expectUnchanged } = await watchItem(file);
    await expectPreconditionFailed(await replace(user, file, original.etag), user, 'files', file);
    await expectUnchanged();
    expect(await stagedVersions(file)).toBe(0);
    // The bytes did not change: the content tag of ctag 0 still matches.
    expect((await replace(user, file, '"ctag-0"')).status).toBe(201);
    expect((await call('POST', `/v1/drive/files/${file}/replace/abort`, { token: user.token })).status).toBe(
      200,
    );

    await replaceChunked({ token: user.token }, file, {
      size: 3,
      source: Buffer.from('two'),
      ifMatch: '"ctag-0"',
    });
    expect((await read(user, 'files', file)).body.ctag).toBe(1);
    await expectPreconditionFailed(await replace(user, file, '"ctag-0"'), user, 'files', file);
    expect(await stagedVersions(file)).toBe(0);
    expect((await replace(user, file, '*')).status).toBe(201);
    expect((await call('POST', `/v1/drive/files/${file}/replace/abort`, { token: user.token })).status).toBe(
      200,
    );
  });

  it('refuses a stale content tag through the TypeScript client with ApiError 412 and the current file', async () => {
    const user = await makeUser();
    const file = (await simpleUpload(user, 'client.bin', randomBytes(10))).uuid as string;
    await replaceChunked({ token: user.token }, file, { size: 3, source: Buffer.from('one') });
    const refused = await initiateReplace({ token: user.token }, file, {
      size: 3,
      ifMatch: '"ctag-0"',
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(412);
    expect((refused as ApiError).body).toEqual({
      error: 'precondition_failed',
      current: (await read(user, 'files', file)).body,
    });
  });
});

describe('conditional writes on a shared item', () => {
  it("lets an editor write with the ETag they read; an ETag is the caller's own, and a stale one is 412 for either", async () => {
    const owner = await makeUser();
    const editor = await makeColleague(owner);
    const folder = await makeFolder(owner, 'Shared');
    const file = await insertDriveFile(owner, { name: 'shared.txt', folderUuid: folder });
    await grant({ folder }, { user: editor }, 'editor');
    const asOwner = await read(owner, 'files', file);
    const asEditor = await read(editor, 'files', file);
    expect(asEditor.body).toMatchObject({ my_role: 'editor', owner: { self: false } });
    // Another representation (my_role, owner.self), another tag: each client holds to what it read.
    expect(asEditor.etag).not.toBe(asOwner.etag);
    await expectPreconditionFailed(
      await update(editor, 'files', file, { name: 'x.txt' }, asOwner.etag),
      editor,
      'files',
      file,
    );

    const renamed = await update(editor, 'files', file, { name: 'by-editor.txt' }, asEditor.etag);
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get('etag')).toBe((await read(editor, 'files', file)).etag);
    await expectPreconditionFailed(
      await update(owner, 'files', file, { name: 'by-owner.txt' }, asOwner.etag),
      owner,
      'files',
      file,
    );
    await expectPreconditionFailed(await trash(editor, 'files', file, asEditor.etag), editor, 'files', file);
    expect((await row(file)).name).toBe('by-editor.txt');
  });
});

describe('two sync clients holding the same ETag', () => {
  it('lets the first write win and answers the second 412 with the winner’s item, the check and the write being one step', async () => {
    const user = await makeUser();
    const file = await insertDriveFile(user, { name: 'synced.txt' });
    const { etag } = await read(user, 'files', file);
    const seq = await lastSeq();

    // Both requests reach the item's locked read while a transaction of the test holds the row: a check made before
    // the lock (read, compare, then write) would let both through here, and the second would overwrite the first.
    const hold = await holdRow(file);
    const racing = [
      update(user, 'files', file, { name: 'from-a.txt' }, etag),
      update(user, 'files', file, { name: 'from-b.txt' }, etag),
    ];
    try {
      await hold.blocking(2);
    } finally {
      await hold.release();
    }
    const answers = await Promise.all(racing);

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    const winner = answers.find((answer) => answer.status === 200)!;
    const loser = answers.find((answer) => answer.status === 412)!;
    const now = await read(user, 'files', file);
    expect(now.body).toMatchObject({ name: winner.body.name, version: 2 });
    expect(loser.body).toEqual({ error: 'precondition_failed', current: now.body });
    expect(loser.headers.get('etag')).toBe(now.etag);
    expect(await changesSince(seq, [file])).toEqual([
      { item_uuid: file, change_type: 'update', item_version: 2 },
    ]);
  });
});
