import { describe, expect, it } from 'vitest';
import { call, makeUser } from '../../support/api.js';
import { expectedDriveFolder } from '../../support/drive-files.js';

describe('Drive folders', () => {
  it('creates a folder at the root with the exact drive_folder object', async () => {
    const user = await makeUser({ firstName: 'Ada', lastName: 'Lovelace' });
    const response = await call('POST', '/v1/drive/folders', {
      token: user.token,
      json: { name: 'Projects', color: '#a1b2c3' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(
      expectedDriveFolder({
        name: 'Projects',
        color: '#A1B2C3',
        owner: { self: true, first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada Lovelace' },
      }),
    );
  });
});

async function folder(token: string, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/drive/folders', { token, json: body });
  expect(response.status).toBe(201);
  return response.body;
}

describe('Drive folder names, moves and colors', () => {
  it('refuses a name taken by a live sibling with 422 name_taken, ignoring case', async () => {
    const user = await makeUser();
    await folder(user.token, { name: 'Reports' });
    const again = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'reports' } });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ error: 'name_taken' });
  });

  it('lets two concurrent creates of one name race, and exactly one wins', async () => {
    const user = await makeUser();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Race' } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
  });

  it('allows the same name in different folders and for different owners at their roots', async () => {
    const user = await makeUser();
    const other = await makeUser();
    const parent = await folder(user.token, { name: 'A' });
    await folder(user.token, { name: 'Same' });
    await folder(user.token, { name: 'Same', parent_uuid: parent.uuid });
    await folder(other.token, { name: 'Same' });
  });

  it('answers 422 missing_required_fields without a name, and 422 invalid for a bad color', async () => {
    const user = await makeUser();
    const missing = await call('POST', '/v1/drive/folders', { token: user.token, json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ error: 'missing_required_fields', fields: ['name'] });
    for (const color of ['red', '#12345', '#GGGGGG', '123456']) {
      const bad = await call('POST', '/v1/drive/folders', {
        token: user.token,
        json: { name: `c${color}`, color },
      });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ error: 'invalid', field: 'color' });
    }
    const list = await call('GET', '/v1/drive/files', { token: user.token });
    expect(list.body.folders).toEqual([]);
  });

  it('answers 400 invalid_body for a field of the wrong type', async () => {
    const user = await makeUser();
    const response = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 42 } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_body', fields: ['name'] });
  });

  it('clears a color with blank or null, keeps it when the key is omitted, and bumps version on each change', async () => {
    const user = await makeUser();
    const created = await folder(user.token, { name: 'Colored', color: '#00FF00' });
    const renamed = await call('POST', `/v1/drive/folders/${created.uuid}`, {
      token: user.token,
      json: { name: 'Renamed' },
    });
    expect(renamed.body).toMatchObject({ name: 'Renamed', color: '#00FF00', version: 2 });
    const blank = await call('POST', `/v1/drive/folders/${created.uuid}`, {
      token: user.token,
      json: { color: '' },
    });
    expect(blank.body).toMatchObject({ color: null, version: 3 });
    await call('POST', `/v1/drive/folders/${created.uuid}`, {
      token: user.token,
      json: { color: '#ABCDEF' },
    });
    const cleared = await call('POST', `/v1/drive/folders/${created.uuid}`, {
      token: user.token,
      json: { color: null },
    });
    expect(cleared.body).toMatchObject({ color: null, version: 5 });
  });

  it('moves with a present parent_uuid (null means root) and leaves the parent when the key is omitted', async () => {
    const user = await makeUser();
    const a = await folder(user.token, { name: 'A' });
    const b = await folder(user.token, { name: 'B' });
    const moved = await call('POST', `/v1/drive/folders/${b.uuid}`, {
      token: user.token,
      json: { parent_uuid: a.uuid },
    });
    expect(moved.body).toMatchObject({ parent_uuid: a.uuid, version: 2 });
    const renamed = await call('POST', `/v1/drive/folders/${b.uuid}`, {
      token: user.token,
      json: { name: 'B2' },
    });
    expect(renamed.body.parent_uuid).toBe(a.uuid);
    const back = await call('POST', `/v1/drive/folders/${b.uuid}`, {
      token: user.token,
      json: { parent_uuid: null },
    });
    expect(back.body.parent_uuid).toBeNull();
    const root = await call('GET', '/v1/drive/files', { token: user.token });
    expect(root.body.folders.map((f: { name: string }) => f.name).sort()).toEqual(['A', 'B2']);
  });

  it('refuses to move a folder into itself or its own subtree with 422 invalid_move', async () => {
    const user = await makeUser();
    const top = await folder(user.token, { name: 'Top' });
    const middle = await folder(user.token, { name: 'Middle', parent_uuid: top.uuid });
    const bottom = await folder(user.token, { name: 'Bottom', parent_uuid: middle.uuid });
    for (const target of [top.uuid, middle.uuid, bottom.uuid]) {
      const response = await call('POST', `/v1/drive/folders/${top.uuid}`, {
        token: user.token,
        json: { parent_uuid: target },
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_move' });
    }
    const unchanged = await call('GET', `/v1/drive/folders/${top.uuid}`, { token: user.token });
    expect(unchanged.body).toMatchObject({ parent_uuid: null, version: 1 });
  });

  it('refuses a move into a folder holding the same name with 422 name_taken', async () => {
    const user = await makeUser();
    const target = await folder(user.token, { name: 'Target' });
    await folder(user.token, { name: 'Dup', parent_uuid: target.uuid });
    const dup = await folder(user.token, { name: 'Dup' });
    const response = await call('POST', `/v1/drive/folders/${dup.uuid}`, {
      token: user.token,
      json: { parent_uuid: target.uuid },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
  });

  it("answers 404 not_found for an unknown, malformed or other user's folder", async () => {
    const user = await makeUser();
    const stranger = await makeUser({ workspace: { uuid: user.workspaceUuid } });
    const mine = await folder(user.token, { name: 'Private' });
    for (const uuid of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await call('GET', `/v1/drive/folders/${uuid}`, { token: user.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
    expect((await call('GET', `/v1/drive/folders/${mine.uuid}`, { token: stranger.token })).status).toBe(404);
    expect(
      (await call('POST', `/v1/drive/folders/${mine.uuid}`, { token: stranger.token, json: { name: 'x' } }))
        .status,
    ).toBe(404);
    expect(
      (await call('GET', `/v1/drive/files?folder_uuid=${mine.uuid}`, { token: stranger.token })).status,
    ).toBe(404);
  });

  it('answers 404 not_found to a move or create into a malformed or unknown folder, changing nothing', async () => {
    const user = await makeUser();
    const mine = await folder(user.token, { name: 'Staying' });
    const file = await call('POST', '/v1/drive/files', {
      token: user.token,
      json: { name: 'f.txt', content_type: 'text/plain', data: 'aGk=' },
    });
    for (const destination of [
      'not-a-uuid',
      'ffffffff-ffff-ffff-ffff-fffffffffffff',
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const moveFolder = await call('POST', `/v1/drive/folders/${mine.uuid}`, {
        token: user.token,
        json: { parent_uuid: destination },
      });
      const moveFile = await call('POST', `/v1/drive/files/${file.body.uuid}`, {
        token: user.token,
        json: { folder_uuid: destination },
      });
      const create = await call('POST', '/v1/drive/folders', {
        token: user.token,
        json: { name: 'child', parent_uuid: destination },
      });
      for (const response of [moveFolder, moveFile, create])
        expect([response.status, response.body]).toEqual([404, { error: 'not_found' }]);
    }
    expect((await call('GET', `/v1/drive/folders/${mine.uuid}`, { token: user.token })).body).toMatchObject({
      parent_uuid: null,
      version: mine.version,
    });
    expect(
      (await call('GET', `/v1/drive/files/${file.body.uuid}`, { token: user.token })).body,
    ).toMatchObject({ folder_uuid: null, version: 1 });
  });

  it('lists the immediate children of a folder with folder_uuid in the envelope', async () => {
    const user = await makeUser();
    const parent = await folder(user.token, { name: 'Parent' });
    const child = await folder(user.token, { name: 'Child', parent_uuid: parent.uuid });
    await folder(user.token, { name: 'Grandchild', parent_uuid: child.uuid });
    const response = await call('GET', `/v1/drive/files?folder_uuid=${parent.uuid}`, { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'list',
      url: '/v1/drive/files',
      folder_uuid: parent.uuid,
      files: [],
    });
    expect(response.body.folders.map((f: { name: string }) => f.name)).toEqual(['Child']);
  });
});
