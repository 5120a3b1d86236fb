// Documents metadata: create, get, list and Trash list with q/limit/cursor, rename, trash and restore, roles and errors.
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../domain/accounts/credentials.js';
import { db } from '../../../platform/database.js';
import { call, makeColleague, makeDocument, makeUser, shareDocument, tokenFor } from '../../support/api.js';
import { documentContent, documentWithColleagues } from '../../support/documents.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

const documentShape = (overrides: Record<string, unknown> = {}) => ({
  object: 'document',
  uuid: expect.any(String),
  workspace_uuid: expect.any(String),
  title: null,
  url: expect.stringMatching(/\/docs\/[0-9a-f-]{36}$/),
  my_role: 'owner',
  shared: false,
  owner: { self: true, first_name: null, last_name: null, display_name: null },
  trashed_at: null,
  created_at: expect.any(String),
  updated_at: expect.any(String),
  ...overrides,
});

describe('creating and reading a document', () => {
  it('creates an empty, untitled document owned by the caller with 201 and the exact document object', async () => {
    const user = await makeUser({ firstName: 'Grace', lastName: 'Hopper' });
    const created = await call('POST', '/v1/documents', { token: user.token });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      documentShape({
        workspace_uuid: user.workspaceUuid,
        owner: { self: true, first_name: 'Grace', last_name: 'Hopper', display_name: 'Grace Hopper' },
      }),
    );
    expect(created.body.url).toBe(
      `${process.env.FOLIO_DOCS_URL ?? 'http://127.0.0.1:8080/docs'}/${created.body.uuid}`,
    );
    const got = await call('GET', `/v1/documents/${created.body.uuid}`, { token: user.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const content = await call('GET', `/v1/documents/${created.body.uuid}/content`, { token: user.token });
    expect(content.body).toEqual(documentContent(created.body.uuid, 1, '', []));
  });

  it('creates with a title, and treats an empty or null title as untitled', async () => {
    const user = await makeUser();
    const titled = await call('POST', '/v1/documents', {
      token: user.token,
      json: { title: 'Quarterly plan' },
    });
    expect(titled.status).toBe(201);
    expect(titled.body.title).toBe('Quarterly plan');
    for (const title of ['', null]) {
      const untitled = await call('POST', '/v1/documents', { token: user.token, json: { title } });
      expect(untitled.status).toBe(201);
      expect(untitled.body.title).toBeNull();
    }
  });

  it('refuses a title that is not a string of at most 255 characters with 422 invalid_title, creating nothing', async () => {
    const user = await makeUser();
    for (const title of ['x'.repeat(256), 42, ['a'], { a: 1 }, true]) {
      const response = await call('POST', '/v1/documents', { token: user.token, json: { title } });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_title', error_description: expect.any(String) });
    }
    const atLimit = await call('POST', '/v1/documents', {
      token: user.token,
      json: { title: '€'.repeat(255) },
    });
    expect(atLimit.status).toBe(201);
    const list = await call('GET', '/v1/documents', { token: user.token });
    expect(list.body.data).toHaveLength(1);
  });

  it('answers 400 invalid_body for a body that is not a JSON object', async () => {
    const user = await makeUser();
    const response = await call('POST', '/v1/documents', {
      token: user.token,
      body: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_body', error_description: expect.any(String) });
  });

  it('answers 404 not_found for a document that does not exist or that the caller cannot see', async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner);
    const outsider = await makeUser();
    const document = await makeDocument(owner);
    for (const [token, uuid] of [
      [owner.token, MISSING],
      [colleague.token, document.uuid],
      [outsider.token, document.uuid],
    ] as const) {
      const response = await call('GET', `/v1/documents/${uuid}`, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found', error_description: expect.any(String) });
    }
  });

  it('answers 404 not_found for a document the caller cannot see before checking the body, on every route that takes one', async () => {
    const owner = await makeUser();
    const stranger = await makeColleague(owner);
    const document = await makeDocument(owner, { markdown: 'Private text.' });
    const thread = await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { body: 'note', on: 'text' },
    });
    const message = thread.body.messages[0].uuid as string;
    const base = `/v1/documents/${document.uuid}`;
    // Each body is wrong for its route: the owner is told so (422); the stranger learns nothing but 404.
    const requests: Array<[string, Record<string, unknown>]> = [
      [base, { title: 42 }],
      [`${base}/content`, { operations: 'none' }],
      [`${base}/suggestions`, { operations: [{ type: 'set_document', markdown: 'x' }] }],
      [`${base}/comments`, { body: '   ' }],
      [`${base}/comments/${thread.body.uuid}/replies`, { body: '' }],
      [`${base}/comments/${thread.body.uuid}`, { status: 'maybe' }],
      [`${base}/comments/${thread.body.uuid}/messages/${message}`, { body: 7 }],
    ];
    for (const [path, json] of requests) {
      const hidden = await call('POST', path, { token: stranger.token, json });
      expect([path, hidden.status, hidden.body]).toEqual([
        path,
        404,
        { error: 'not_found', error_description: expect.any(String) },
      ]);
      expect([path, (await call('POST', path, { token: owner.token, json })).status]).toEqual([path, 422]);
    }
    const upload = await call('POST', `${base}/attachments`, {
      token: stranger.token,
      body: Buffer.from('bytes'),
    });
    expect([upload.status, upload.body.error]).toEqual([404, 'not_found']);
    expect(
      (await call('POST', `${base}/attachments`, { token: owner.token, body: Buffer.from('bytes') })).body
        .error,
    ).toBe('invalid_filename');
  });

  it('answers 422 invalid_uuid for a malformed document uuid in the path', async () => {
    const user = await makeUser();
    for (const [method, path] of [
      ['GET', '/v1/documents/not-a-uuid'],
      ['POST', '/v1/documents/123'],
      ['POST', '/v1/documents/abc/trash'],
      ['GET', '/v1/documents/abc/content'],
    ] as const) {
      const response = await call(method, path, {
        token: user.token,
        json: method === 'POST' ? {} : undefined,
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_uuid', error_description: expect.any(String) });
    }
  });
});

describe('authentication of the Documents API', () => {
  it('refuses a workspace API key with 403 forbidden', async () => {
    const user = await makeUser();
    const { api_key } = await issueApiKey(db(), user.workspaceUuid);
    const response = await call('GET', '/v1/documents', { token: api_key });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'forbidden', error_description: expect.any(String) });
  });

  it('answers 401 invalid_token without a valid token and 403 insufficient_scope without the route scope', async () => {
    const user = await makeUser();
    const noToken = await call('GET', '/v1/documents');
    expect(noToken.status).toBe(401);
    expect(noToken.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    const readOnly = await tokenFor(user, ['docs.read']);
    const create = await call('POST', '/v1/documents', { token: readOnly, json: {} });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({
      error: 'insufficient_scope',
      error_description: expect.any(String),
      scope: 'docs.write',
    });
    const writeOnly = await tokenFor(user, ['docs.write']);
    const list = await call('GET', '/v1/documents', { token: writeOnly });
    expect(list.status).toBe(403);
    expect(list.body.scope).toBe('docs.read');
  });
});

describe('listing documents', () => {
  it('lists own and shared documents newest first, excluding Trash and documents shared only pending', async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner, { firstName: 'Ann' });
    const mine = await makeDocument(owner, { title: 'Mine' });
    const sharedWithMe = await makeDocument(colleague, { title: 'Shared' });
    await shareDocument(sharedWithMe.uuid, owner, 'commenter');
    const pending = await makeDocument(colleague, { title: 'Pending' });
    await shareDocument(pending.uuid, owner, 'editor', { status: 'pending' });
    const trashed = await makeDocument(owner, { title: 'Trashed' });
    await call('POST', `/v1/documents/${trashed.uuid}/trash`, { token: owner.token });

    const list = await call('GET', '/v1/documents', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      object: 'list',
      url: '/v1/documents',
      has_more: false,
      data: expect.any(Array),
      next_cursor: null,
    });
    expect(list.body.data.map((d: { title: string }) => d.title)).toEqual(['Shared', 'Mine']);
    expect(list.body.data[0]).toEqual(
      documentShape({
        uuid: sharedWithMe.uuid,
        title: 'Shared',
        my_role: 'commenter',
        shared: true,
        owner: { self: false, first_name: 'Ann', last_name: null, display_name: 'Ann' },
      }),
    );
    expect(list.body.data[1]).toEqual(documentShape({ uuid: mine.uuid, title: 'Mine' }));
  });

  it('pages with limit and an opaque next_cursor until has_more is false', async () => {
    const user = await makeUser();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await makeDocument(user, { title: `Doc ${i}` })).uuid);
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: boolean[] = [];
    do {
      const response = await call(
        'GET',
        `/v1/documents?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: user.token },
      );
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map((d: { uuid: string }) => d.uuid));
      pages.push(response.body.has_more);
      cursor = response.body.next_cursor ?? undefined;
      if (response.body.has_more) expect(typeof response.body.next_cursor).toBe('string');
      else expect(response.body.next_cursor).toBeNull();
    } while (cursor);
    expect(pages).toEqual([true, true, false]);
    expect(seen).toEqual([...made].reverse());
  });

  it('uses 25 by default and refuses a limit outside 1 to 100 with 422 invalid_limit', async () => {
    const user = await makeUser();
    for (let i = 0; i < 26; i++)
      await call('POST', '/v1/documents', { token: user.token, json: { title: `n${i}` } });
    const first = await call('GET', '/v1/documents', { token: user.token });
    expect(first.body.data).toHaveLength(25);
    expect(first.body.has_more).toBe(true);
    const hundred = await call('GET', '/v1/documents?limit=100', { token: user.token });
    expect(hundred.body.data).toHaveLength(26);
    for (const limit of ['0', '101', 'ten', '2.5', '-1', '']) {
      const response = await call('GET', `/v1/documents?limit=${limit}`, { token: user.token });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_limit', error_description: expect.any(String) });
    }
  });

  it('refuses a cursor that is not a next_cursor of the same list with 422 invalid_cursor', async () => {
    const user = await makeUser();
    await makeDocument(user);
    await makeDocument(user);
    const page = await call('GET', '/v1/documents?limit=1', { token: user.token });
    for (const path of [
      '/v1/documents?cursor=garbage',
      `/v1/documents/trash?cursor=${page.body.next_cursor}`,
    ]) {
      const response = await call('GET', path, { token: user.token });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_cursor', error_description: expect.any(String) });
    }
  });

  it('filters by q, a case-insensitive title substring taken literally', async () => {
    const user = await makeUser();
    await makeDocument(user, { title: 'Budget 2026' });
    await makeDocument(user, { title: 'budget notes' });
    await makeDocument(user, { title: 'Roadmap' });
    await makeDocument(user, { title: '100% done' });
    await makeDocument(user);
    const budget = await call('GET', '/v1/documents?q=BUDGET', { token: user.token });
    expect(budget.body.data.map((d: { title: string }) => d.title)).toEqual(['budget notes', 'Budget 2026']);
    const percent = await call('GET', '/v1/documents?q=%25', { token: user.token });
    expect(percent.body.data.map((d: { title: string }) => d.title)).toEqual(['100% done']);
  });

  it('lists only trashed documents in the Trash list, newest first, with q', async () => {
    const user = await makeUser();
    const a = await makeDocument(user, { title: 'Alpha' });
    const b = await makeDocument(user, { title: 'Beta' });
    await makeDocument(user, { title: 'Live' });
    await call('POST', `/v1/documents/${a.uuid}/trash`, { token: user.token });
    await call('POST', `/v1/documents/${b.uuid}`, { token: user.token, json: { trashed: true } });
    const trash = await call('GET', '/v1/documents/trash', { token: user.token });
    expect(trash.status).toBe(200);
    expect(trash.body).toMatchObject({
      object: 'list',
      url: '/v1/documents/trash',
      has_more: false,
      next_cursor: null,
    });
    expect(trash.body.data.map((d: { title: string }) => d.title)).toEqual(['Beta', 'Alpha']);
    expect(trash.body.data[0].trashed_at).toEqual(expect.any(String));
    const filtered = await call('GET', '/v1/documents/trash?q=alp', { token: user.token });
    expect(filtered.body.data.map((d: { title: string }) => d.title)).toEqual(['Alpha']);
  });
});

describe('updating a document', () => {
  it('renames with title (null or empty makes it untitled) and answers the document; updated_at moves', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { title: 'Draft' });
    const renamed = await call('POST', `/v1/documents/${document.uuid}`, {
      token: user.token,
      json: { title: 'Final' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual(
      documentShape({ uuid: document.uuid, workspace_uuid: user.workspaceUuid, title: 'Final' }),
    );
    expect(Date.parse(renamed.body.updated_at)).toBeGreaterThan(Date.parse(document.updated_at));
    const cleared = await call('POST', `/v1/documents/${document.uuid}`, {
      token: user.token,
      json: { title: null },
    });
    expect(cleared.body.title).toBeNull();
    await call('POST', `/v1/documents/${document.uuid}`, { token: user.token, json: { title: 'Again' } });
    const empty = await call('POST', `/v1/documents/${document.uuid}`, {
      token: user.token,
      json: { title: '' },
    });
    expect(empty.body.title).toBeNull();
  });

  it('leaves omitted fields unchanged, and content edits do not move updated_at', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { title: 'Keep', markdown: 'Hello' });
    const same = await call('POST', `/v1/documents/${document.uuid}`, { token: user.token, json: {} });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(document);
  });

  it('trashes with trashed true and restores with false; trashing twice changes nothing', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const trashed = await call('POST', `/v1/documents/${document.uuid}`, {
      token: user.token,
      json: { trashed: true },
    });
    expect(trashed.status).toBe(200);
    expect(trashed.body.trashed_at).toEqual(expect.any(String));
    const again = await call('POST', `/v1/documents/${document.uuid}/trash`, { token: user.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(trashed.body);
    const restored = await call('POST', `/v1/documents/${document.uuid}`, {
      token: user.token,
      json: { trashed: false },
    });
    expect(restored.body.trashed_at).toBeNull();
    const list = await call('GET', '/v1/documents', { token: user.token });
    expect(list.body.data.map((d: { uuid: string }) => d.uuid)).toEqual([document.uuid]);
  });

  it('creates a document ignoring a trashed field, and refuses U+0000 in it as 400 invalid_body (create reads no trashed)', async () => {
    const user = await makeUser();
    const ignored = await call('POST', '/v1/documents', {
      token: user.token,
      json: { title: 'Kept', trashed: 'yes' },
    });
    expect(ignored.status).toBe(201);
    expect(ignored.body).toMatchObject({ title: 'Kept', trashed_at: null });
    const before = await db()('documents').where({ workspace_uuid: user.workspaceUuid }).count();
    const refused = await call('POST', '/v1/documents', {
      token: user.token,
      json: { title: 'Nul', trashed: 'a\u0000b' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_body' });
    expect(await db()('documents').where({ workspace_uuid: user.workspaceUuid }).count()).toEqual(before);
  });

  it('refuses trashed that is not a boolean with 422 invalid_trashed, and checks the whole request before writing', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { title: 'Before' });
    for (const trashed of ['yes', 1, null]) {
      const response = await call('POST', `/v1/documents/${document.uuid}`, {
        token: user.token,
        json: { title: 'After', trashed },
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_trashed', error_description: expect.any(String) });
    }
    const bad = await call('POST', `/v1/documents/${document.uuid}`, {
      token: user.token,
      json: { title: 7, trashed: true },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe('invalid_title');
    const unchanged = await call('GET', `/v1/documents/${document.uuid}`, { token: user.token });
    expect(unchanged.body).toMatchObject({ title: 'Before', trashed_at: null });
  });

  it('needs editor to rename and manager or owner to trash, answering 403 forbidden naming the role', async () => {
    const owner = await makeUser();
    const { document, viewer, editor, manager } = await documentWithColleagues(
      owner,
      { viewer: 'viewer', editor: 'editor', manager: 'manager' },
      { title: 'Shared' },
    );

    const viewerRename = await call('POST', `/v1/documents/${document.uuid}`, {
      token: viewer.token,
      json: { title: 'V' },
    });
    expect(viewerRename.status).toBe(403);
    expect(viewerRename.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('editor'),
    });

    const editorTrash = await call('POST', `/v1/documents/${document.uuid}/trash`, { token: editor.token });
    expect(editorTrash.status).toBe(403);
    expect(editorTrash.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('manager or owner'),
    });
    // A rename with a trash the caller may not do is refused whole.
    const mixed = await call('POST', `/v1/documents/${document.uuid}`, {
      token: editor.token,
      json: { title: 'E', trashed: true },
    });
    expect(mixed.status).toBe(403);
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: owner.token })).body.title).toBe(
      'Shared',
    );

    const editorRename = await call('POST', `/v1/documents/${document.uuid}`, {
      token: editor.token,
      json: { title: 'By editor' },
    });
    expect(editorRename.status).toBe(200);
    expect(editorRename.body).toMatchObject({
      title: 'By editor',
      my_role: 'editor',
      shared: true,
      owner: { self: false },
    });
    const managerTrash = await call('POST', `/v1/documents/${document.uuid}/trash`, { token: manager.token });
    expect(managerTrash.status).toBe(200);
    const managerRestore = await call('POST', `/v1/documents/${document.uuid}`, {
      token: manager.token,
      json: { trashed: false },
    });
    expect(managerRestore.body.trashed_at).toBeNull();
  });

  it('gives a workspace-wide grant to every member of the workspace, and a revoked grant gives nothing', async () => {
    const owner = await makeUser();
    const member = await makeColleague(owner);
    const document = await makeDocument(owner, { title: 'Team' });
    const grant = await shareDocument(document.uuid, owner, 'viewer', { workspace: true });
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: member.token })).body.my_role).toBe(
      'viewer',
    );
    const { revokeDocumentGrant } = await import('../../../domain/documents/grants.js');
    expect(await revokeDocumentGrant(db(), grant)).toBe(true);
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: member.token })).status).toBe(404);
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: owner.token })).body.shared).toBe(
      false,
    );
  });

  it('keeps one grant per person: granting again changes its role; a pending grant shares but gives no access', async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner);
    const document = await makeDocument(owner);
    const pending = await shareDocument(document.uuid, colleague, 'viewer', { status: 'pending' });
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: owner.token })).body.shared).toBe(
      true,
    );
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: colleague.token })).status).toBe(
      404,
    );
    const accepted = await shareDocument(document.uuid, colleague, 'editor');
    expect(accepted).toBe(pending);
    expect(
      (await call('GET', `/v1/documents/${document.uuid}`, { token: colleague.token })).body.my_role,
    ).toBe('editor');
    expect(
      await db()('document_grants').where({ document_uuid: document.uuid }).count({ n: '*' }).first(),
    ).toEqual({ n: '1' });
  });

  it('lets a rename of a trashed document through, since only content, comments and suggestions are frozen', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { title: 'Old' });
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: user.token });
    const renamed = await call('POST', `/v1/documents/${document.uuid}`, {
      token: user.token,
      json: { title: 'New' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'New', trashed_at: expect.any(String) });
  });
});
