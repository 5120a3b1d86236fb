// Document history, an extension (docs/extensions.md § Documents history): revisions newest first with a summary,
// the markdown at one revision, and restore as a new revision (editor), threads whose text is gone detached.
import { describe, expect, it } from 'vitest';
import { call, makeDocument, makeUser, tokenFor, type TestUser } from '../../support/api.js';
import { documentContent, documentWithColleagues, person, readContent } from '../../support/documents.js';

const edit = (user: TestUser, uuid: string, operations: unknown[]) =>
  call('POST', `/v1/documents/${uuid}/content`, { token: user.token, json: { operations } });
const history = (user: { token: string }, uuid: string, query = '') =>
  call('GET', `/v1/documents/${uuid}/revisions${query}`, { token: user.token });
const atRevision = (user: { token: string }, uuid: string, revision: number | string) =>
  call('GET', `/v1/documents/${uuid}/revisions/${revision}`, { token: user.token });
const restore = (user: { token: string }, uuid: string, revision: number | string) =>
  call('POST', `/v1/documents/${uuid}/revisions/${revision}/restore`, { token: user.token });

const revisionEntry = (
  revision: number,
  cause: string,
  author: unknown,
  summary: Record<string, number>,
  restoredFrom: number | null = null,
) => ({
  object: 'document_revision',
  revision,
  created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  author,
  cause,
  restored_from: restoredFrom,
  summary: { blocks_changed: 0, blocks_added: 0, blocks_removed: 0, ...summary },
});

describe('document history', () => {
  it('lists revisions newest first with author, cause and a summary of the blocks changed, in pages', async () => {
    const owner = await makeUser({ firstName: 'Olive' });
    const { document, editor } = await documentWithColleagues(
      owner,
      { editor: 'editor' },
      { markdown: 'One.\n\nTwo.' },
    );
    expect((await edit(editor, document.uuid, [{ type: 'replace', find: 'Two', with: 'Deux' }])).status).toBe(
      200,
    );
    expect(
      (await edit(owner, document.uuid, [{ type: 'insert', markdown: 'Three.\n\nFour.', after: 'end' }]))
        .status,
    ).toBe(200);
    expect((await edit(owner, document.uuid, [{ type: 'delete', find: 'One.' }])).status).toBe(200);

    const all = await history(owner, document.uuid);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      object: 'list',
      url: `/v1/documents/${document.uuid}/revisions`,
      has_more: false,
      next_cursor: null,
      data: [
        revisionEntry(5, 'edit', person(true, 'Olive'), { blocks_removed: 1 }),
        revisionEntry(4, 'edit', person(true, 'Olive'), { blocks_added: 2 }),
        revisionEntry(3, 'edit', person(false), { blocks_changed: 1 }),
        revisionEntry(2, 'edit', person(true, 'Olive'), { blocks_added: 2 }),
        revisionEntry(1, 'create', person(true, 'Olive'), {}),
      ],
    });

    const first = await history(owner, document.uuid, '?limit=2');
    expect(first.body.data.map((entry: any) => entry.revision)).toEqual([5, 4]);
    expect(first.body.has_more).toBe(true);
    const second = await history(owner, document.uuid, `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((entry: any) => entry.revision)).toEqual([3, 2]);
    const third = await history(owner, document.uuid, `?limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(third.body.data.map((entry: any) => entry.revision)).toEqual([1]);

    expect((await history(owner, document.uuid, '?limit=0')).body.error).toBe('invalid_limit');
    expect((await history(owner, document.uuid, '?limit=101')).body.error).toBe('invalid_limit');
    const badCursor = await history(owner, document.uuid, '?cursor=nonsense');
    expect(badCursor.status).toBe(422);
    expect(badCursor.body.error).toBe('invalid_cursor');
  });

  it('reads the markdown at each revision, CriticMarkup of suggestions pending then included; an unknown revision is 404', async () => {
    const owner = await makeUser();
    const { document, commenter } = await documentWithColleagues(
      owner,
      { commenter: 'commenter' },
      { markdown: 'The quick fox.' },
    );
    const suggested = await call('POST', `/v1/documents/${document.uuid}/suggestions`, {
      token: commenter.token,
      json: { operations: [{ type: 'replace', find: 'quick', with: 'slow' }] },
    });
    expect(suggested.status).toBe(201);
    expect(
      (
        await call(
          'POST',
          `/v1/documents/${document.uuid}/suggestions/${suggested.body.suggestions[0]}/accept`,
          { token: owner.token },
        )
      ).status,
    ).toBe(200);

    expect((await atRevision(owner, document.uuid, 1)).body).toEqual({
      ...revisionEntry(1, 'create', person(true), {}),
      uuid: document.uuid,
      markdown: '',
    });
    expect((await atRevision(owner, document.uuid, 2)).body.markdown).toBe('The quick fox.');
    expect((await atRevision(owner, document.uuid, 3)).body).toEqual({
      ...revisionEntry(3, 'suggest', person(false), { blocks_changed: 1 }),
      uuid: document.uuid,
      markdown: 'The {~~quick~>slow~~}{>>s1<<} fox.',
    });
    expect((await atRevision(owner, document.uuid, 4)).body).toMatchObject({
      cause: 'accept',
      markdown: 'The slow fox.',
    });

    const missing = await atRevision(owner, document.uuid, 5);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'revision_not_found', error_description: expect.any(String) });
    for (const bad of ['0', 'two', '1.5', '-1']) {
      const response = await atRevision(owner, document.uuid, bad);
      expect(response.status).toBe(422);
      expect(response.body.error).toBe('invalid_revision');
    }
  });

  it('restores a revision as a new one: same text, comments on kept text stay attached, those whose text is gone are detached', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { markdown: 'Keep this paragraph.\n\nOriginal ending.' });
    expect(
      (
        await edit(owner, document.uuid, [
          { type: 'replace', find: 'Original ending', with: 'A later ending' },
        ])
      ).status,
    ).toBe(200);
    const kept = await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { body: 'On kept', on: 'Keep this' },
    });
    const gone = await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { body: 'On later', on: 'later' },
    });
    expect([kept.status, gone.status]).toEqual([201, 201]);

    const restored = await restore(owner, document.uuid, 2);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(
      documentContent(document.uuid, 4, 'Keep this paragraph.\n\nOriginal ending.', [
        expect.objectContaining({ uuid: kept.body.uuid, placement: 'attached', quote: 'Keep this' }),
        expect.objectContaining({ uuid: gone.body.uuid, placement: 'detached', quote: 'later' }),
      ]),
    );
    // The spec's content read answers the same.
    expect((await readContent(owner, document.uuid)).body).toEqual(restored.body);
    expect((await history(owner, document.uuid, '?limit=1')).body.data).toEqual([
      revisionEntry(4, 'restore', person(true), { blocks_changed: 1 }, 2),
    ]);

    // Restoring the text the document already has adds no revision.
    const again = await restore(owner, document.uuid, 2);
    expect(again.status).toBe(200);
    expect(again.body.revision).toBe(4);
    expect((await restore(owner, document.uuid, 9)).body.error).toBe('revision_not_found');
  });

  it('restores a revision without the suggestions pending at it; a current suggestion whose text goes is detached and stays open', async () => {
    const owner = await makeUser();
    const { document, commenter } = await documentWithColleagues(
      owner,
      { commenter: 'commenter' },
      { markdown: 'Alpha beta.' },
    );
    const suggest = (find: string, replacement: string) =>
      call('POST', `/v1/documents/${document.uuid}/suggestions`, {
        token: commenter.token,
        json: { operations: [{ type: 'replace', find, with: replacement }] },
      });
    const old = await suggest('beta', 'gamma');
    expect(old.body.revision).toBe(3);
    expect(
      (
        await call('POST', `/v1/documents/${document.uuid}/suggestions/${old.body.suggestions[0]}/reject`, {
          token: owner.token,
        })
      ).status,
    ).toBe(200);
    expect(
      (await edit(owner, document.uuid, [{ type: 'replace', find: 'Alpha', with: 'Omega' }])).status,
    ).toBe(200);
    const current = await suggest('Omega', 'Psi');
    expect(current.status).toBe(201);

    const restored = await restore(owner, document.uuid, 3);
    expect(restored.status).toBe(200);
    expect(restored.body.markdown).toBe('Alpha beta.');
    expect(restored.body.threads).toEqual([
      expect.objectContaining({
        uuid: current.body.suggestions[0],
        kind: 'suggestion',
        status: 'open',
        placement: 'detached',
      }),
    ]);
  });

  it('needs the editor role and the scopes: a commenter gets 403 forbidden, a stranger 404, docs.read cannot restore, Trash is 409', async () => {
    const owner = await makeUser();
    const { document, commenter, stranger } = await documentWithColleagues(
      owner,
      { commenter: 'commenter', stranger: null },
      { markdown: 'Text.' },
    );
    for (const response of [
      await history(commenter, document.uuid),
      await atRevision(commenter, document.uuid, 1),
      await restore(commenter, document.uuid, 1),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error: 'forbidden',
        error_description: expect.stringContaining('the editor role or higher'),
      });
    }
    for (const response of [
      await history(stranger, document.uuid),
      await atRevision(stranger, document.uuid, 1),
      await restore(stranger, document.uuid, 1),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('not_found');
    }
    const readOnly = { token: await tokenFor(owner, ['docs.read']) };
    expect((await history(readOnly, document.uuid)).status).toBe(200);
    const refused = await restore(readOnly, document.uuid, 1);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
    expect((await history({ token: await tokenFor(owner, ['docs.write']) }, document.uuid)).body.error).toBe(
      'insufficient_scope',
    );

    expect((await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token })).status).toBe(
      200,
    );
    const trashed = await restore(owner, document.uuid, 1);
    expect(trashed.status).toBe(409);
    expect(trashed.body.error).toBe('document_trashed');
    expect((await readContent(owner, document.uuid)).body.revision).toBe(2);
  });
});
