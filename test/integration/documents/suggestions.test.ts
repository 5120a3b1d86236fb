// Suggestions: CriticMarkup proposals, accept and reject (editor), delete (author, manager, owner), and their errors.
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { call, makeColleague, shareDocument, tokenFor, type TestUser } from '../../support/api.js';
import { documentContent, documentWithCommenter, person, readContent } from '../../support/documents.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

const suggest = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/suggestions`, { token: user.token, json: body });
const decide = (user: TestUser, uuid: string, thread: string, decision: 'accept' | 'reject') =>
  call('POST', `/v1/documents/${uuid}/suggestions/${thread}/${decision}`, { token: user.token });
const remove = (user: TestUser, uuid: string, thread: string) =>
  call('DELETE', `/v1/documents/${uuid}/suggestions/${thread}`, { token: user.token });

async function setup() {
  const made = await documentWithCommenter('The quick brown fox.\n\nJumps over the dog.');
  await makeColleague(made.owner);
  return made;
}

describe('suggesting changes', () => {
  it('turns each operation into its own suggestion, answers 201 document_content plus suggestions in order', async () => {
    const { owner, commenter, document } = await setup();
    const response = await suggest(commenter, document.uuid, {
      base_revision: 2,
      operations: [
        { type: 'replace', find: 'quick', with: 'slow', comment: 'Calmer tone' },
        { type: 'delete', find: ' over' },
        { type: 'insert', after: 'end', markdown: 'New para.' },
        { type: 'replace', find: 'dog', with: '**dog**' },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ...documentContent(
        document.uuid,
        3,
        'The {~~quick~>slow~~}{>>s1<<} brown fox.\n\nJumps{-- over--}{>>s2<<} the {==dog==}{>>s4<<}.\n\n{++¶++}{>>s3<<}{++New para.++}{>>s3<<}',
        expect.any(Array),
      ),
      suggestions: [expect.any(String), expect.any(String), expect.any(String), expect.any(String)],
    });
    const [s1, s2, s3, s4] = response.body.suggestions;
    expect(response.body.threads.map((t: { uuid: string }) => t.uuid)).toEqual([s1, s2, s3, s4]);
    expect(response.body.threads[0]).toEqual({
      uuid: s1,
      kind: 'suggestion',
      ref: 's1',
      status: 'open',
      placement: 'attached',
      quote: 'quick',
      suggested_text: 'slow',
      suggested_format: null,
      author: person(true, 'Cora'),
      created_at: expect.any(String),
      messages: [
        {
          uuid: expect.any(String),
          author: person(true, 'Cora'),
          body: 'Calmer tone',
          created_at: expect.any(String),
          edited_at: null,
        },
      ],
    });
    expect(response.body.threads[1]).toMatchObject({
      ref: 's2',
      quote: ' over',
      suggested_text: null,
      messages: [],
    });
    expect(response.body.threads[2]).toMatchObject({ ref: 's3', suggested_text: 'New para.' });
    expect(response.body.threads[3]).toMatchObject({ ref: 's4', quote: 'dog', suggested_format: '**dog**' });
    // The owner reads the same threads, with the author not being them.
    const seen = await readContent(owner, document.uuid);
    expect(seen.body.threads[0].author).toEqual(person(false, 'Cora'));
    expect(seen.body.markdown).toBe(response.body.markdown);
  });

  it('refuses set_document with 422 not_suggestible and text already suggested for removal with 422 nothing_to_suggest', async () => {
    const { commenter, document } = await setup();
    const notSuggestible = await suggest(commenter, document.uuid, {
      operations: [{ type: 'set_document', markdown: 'All new.' }],
    });
    expect(notSuggestible.status).toBe(422);
    expect(notSuggestible.body).toEqual({
      error: 'not_suggestible',
      error_description: expect.any(String),
      operation: 0,
    });
    await suggest(commenter, document.uuid, { operations: [{ type: 'delete', find: 'brown ' }] });
    const nothing = await suggest(commenter, document.uuid, {
      operations: [{ type: 'delete', find: 'brown' }],
    });
    expect(nothing.status).toBe(422);
    expect(nothing.body).toEqual({
      error: 'nothing_to_suggest',
      error_description: expect.any(String),
      operation: 0,
    });
  });

  it('matches quotes as an edit does, and a refused operation leaves no suggestion behind', async () => {
    const { commenter, document } = await setup();
    const response = await suggest(commenter, document.uuid, {
      operations: [
        { type: 'replace', find: 'quick', with: 'fast' },
        { type: 'delete', find: 'cat' },
      ],
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'target_not_found',
      error_description: expect.any(String),
      operation: 1,
      retryable: true,
    });
    expect((await readContent(commenter, document.uuid)).body).toMatchObject({ revision: 2, threads: [] });
    expect(
      await db()('document_threads').where({ document_uuid: document.uuid }).count({ n: '*' }).first(),
    ).toEqual({ n: '0' });
  });

  it('refuses a blank comment on an operation with 422 invalid_body naming the operation', async () => {
    const { commenter, document } = await setup();
    const response = await suggest(commenter, document.uuid, {
      operations: [{ type: 'delete', find: 'quick ', comment: '  ' }],
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'invalid_body',
      error_description: expect.any(String),
      operation: 0,
    });
  });

  it('needs commenter and docs.comment: a viewer gets 403 forbidden naming commenter', async () => {
    const { owner, document } = await setup();
    const viewer = await makeColleague(owner);
    await shareDocument(document.uuid, viewer, 'viewer');
    const response = await suggest(viewer, document.uuid, {
      operations: [{ type: 'delete', find: 'quick ' }],
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('commenter'),
    });
    const writeOnly = await tokenFor(owner, ['docs.read', 'docs.write']);
    const noScope = await call('POST', `/v1/documents/${document.uuid}/suggestions`, {
      token: writeOnly,
      json: { operations: [{ type: 'delete', find: 'quick ' }] },
    });
    expect(noScope.status).toBe(403);
    expect(noScope.body).toEqual({
      error: 'insufficient_scope',
      error_description: expect.any(String),
      scope: 'docs.comment',
    });
  });

  it('applies a suggestion batch_id once and checks base_revision', async () => {
    const { commenter, document } = await setup();
    const body = { batch_id: 'sug-1', operations: [{ type: 'delete', find: 'quick ' }] };
    const first = await suggest(commenter, document.uuid, body);
    const retry = await suggest(commenter, document.uuid, body);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    const stale = await suggest(commenter, document.uuid, {
      base_revision: 2,
      operations: [{ type: 'delete', find: 'fox' }],
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'conflict',
      current: { revision: 3, threads: [{ ref: 's1' }] },
    });
  });

  it('refuses a suggestion on a trashed document with 409 document_trashed', async () => {
    const { owner, commenter, document } = await setup();
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
    const response = await suggest(commenter, document.uuid, {
      operations: [{ type: 'delete', find: 'quick ' }],
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'document_trashed', error_description: expect.any(String) });
  });
});

describe('accepting and rejecting suggestions', () => {
  it('accepts: the change is applied and the suggestion closes in the same revision', async () => {
    const { owner, commenter, document } = await setup();
    const made = await suggest(commenter, document.uuid, {
      operations: [
        { type: 'replace', find: 'quick', with: 'slow' },
        { type: 'delete', find: ' over' },
      ],
    });
    const [s1, s2] = made.body.suggestions;
    const accepted = await decide(owner, document.uuid, s1, 'accept');
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual(
      documentContent(document.uuid, 4, 'The slow brown fox.\n\nJumps{-- over--}{>>s2<<} the dog.', [
        expect.objectContaining({ uuid: s2, ref: 's2' }),
      ]),
    );
    const row = await db()('document_threads').where({ uuid: s1 }).first('status', 'resolution');
    expect(row).toEqual({ status: 'closed', resolution: 'accepted' });
    const again = await decide(owner, document.uuid, s1, 'reject');
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ error: 'suggestion_closed', error_description: expect.any(String) });
  });

  it('rejects: the change is taken back and the suggestion closes', async () => {
    const { owner, commenter, document } = await setup();
    const made = await suggest(commenter, document.uuid, {
      operations: [{ type: 'insert', after: 'end', markdown: 'Extra.' }],
    });
    const rejected = await decide(owner, document.uuid, made.body.suggestions[0], 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      revision: 4,
      markdown: 'The quick brown fox.\n\nJumps over the dog.',
      threads: [],
    });
    const again = await decide(owner, document.uuid, made.body.suggestions[0], 'accept');
    expect(again.status).toBe(422);
    expect(again.body.error).toBe('suggestion_closed');
  });

  it('needs editor and docs.write: a commenter gets 403 forbidden, a token without docs.write 403 insufficient_scope', async () => {
    const { commenter, document } = await setup();
    const made = await suggest(commenter, document.uuid, {
      operations: [{ type: 'delete', find: 'quick ' }],
    });
    const refused = await decide(commenter, document.uuid, made.body.suggestions[0], 'accept');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('editor'),
    });
    const commentOnly = await tokenFor(commenter, ['docs.read', 'docs.comment']);
    const noScope = await call(
      'POST',
      `/v1/documents/${document.uuid}/suggestions/${made.body.suggestions[0]}/accept`,
      { token: commentOnly },
    );
    expect(noScope.status).toBe(403);
    expect(noScope.body).toEqual({
      error: 'insufficient_scope',
      error_description: expect.any(String),
      scope: 'docs.write',
    });
  });

  it('answers 404 suggestion_not_found, 422 not_a_suggestion for a comment, and 422 invalid_uuid for a malformed thread', async () => {
    const { owner, document } = await setup();
    const missing = await decide(owner, document.uuid, MISSING, 'accept');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'suggestion_not_found', error_description: expect.any(String) });
    const comment = await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { body: 'A note' },
    });
    const wrongKind = await decide(owner, document.uuid, comment.body.uuid, 'reject');
    expect(wrongKind.status).toBe(422);
    expect(wrongKind.body).toEqual({ error: 'not_a_suggestion', error_description: expect.any(String) });
    const malformed = await decide(owner, document.uuid, 'nope', 'accept');
    expect(malformed.status).toBe(422);
    expect(malformed.body).toEqual({ error: 'invalid_uuid', error_description: expect.any(String) });
  });

  it('answers 422 suggestion_not_in_document when an edit removed all of its text', async () => {
    const { owner, commenter, document } = await setup();
    const made = await suggest(commenter, document.uuid, {
      operations: [{ type: 'replace', find: 'quick', with: 'slow' }],
    });
    await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: owner.token,
      json: { operations: [{ type: 'set_document', markdown: 'Fresh start.' }] },
    });
    const response = await decide(owner, document.uuid, made.body.suggestions[0], 'accept');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'suggestion_not_in_document',
      error_description: expect.any(String),
    });
  });

  it('refuses accept on a trashed document with 409 document_trashed', async () => {
    const { owner, commenter, document } = await setup();
    const made = await suggest(commenter, document.uuid, {
      operations: [{ type: 'delete', find: 'quick ' }],
    });
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
    const response = await decide(owner, document.uuid, made.body.suggestions[0], 'accept');
    expect(response.status).toBe(409);
    expect(response.body.error).toBe('document_trashed');
  });
});

describe('deleting suggestions', () => {
  it('lets the author delete their suggestion: marks go as a reject removes them, answered with 200 document_content', async () => {
    const { commenter, document } = await setup();
    const made = await suggest(commenter, document.uuid, {
      operations: [{ type: 'replace', find: 'quick', with: 'slow', comment: 'why not' }],
    });
    const response = await remove(commenter, document.uuid, made.body.suggestions[0]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      documentContent(document.uuid, 4, 'The quick brown fox.\n\nJumps over the dog.', []),
    );
    expect(await db()('document_threads').where({ uuid: made.body.suggestions[0] }).first()).toBeUndefined();
    expect(
      await db()('document_thread_messages').where({ thread_uuid: made.body.suggestions[0] }).first(),
    ).toBeUndefined();
  });

  it('refuses another commenter with 403 forbidden, and lets a manager or the owner delete any suggestion', async () => {
    const { owner, commenter, document } = await setup();
    const other = await makeColleague(owner);
    const manager = await makeColleague(owner);
    await shareDocument(document.uuid, other, 'editor');
    await shareDocument(document.uuid, manager, 'manager');
    const made = await suggest(commenter, document.uuid, {
      operations: [
        { type: 'delete', find: 'quick ' },
        { type: 'delete', find: 'brown ' },
      ],
    });
    const refused = await remove(other, document.uuid, made.body.suggestions[0]);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('manager or owner'),
    });
    expect((await remove(manager, document.uuid, made.body.suggestions[0])).status).toBe(200);
    const byOwner = await remove(owner, document.uuid, made.body.suggestions[1]);
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.markdown).toBe('The quick brown fox.\n\nJumps over the dog.');
  });

  it('deletes a closed suggestion without a new revision, and answers 404 suggestion_not_found once gone', async () => {
    const { owner, commenter, document } = await setup();
    const made = await suggest(commenter, document.uuid, {
      operations: [{ type: 'delete', find: 'quick ' }],
    });
    await decide(owner, document.uuid, made.body.suggestions[0], 'accept');
    const response = await remove(commenter, document.uuid, made.body.suggestions[0]);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ revision: 4, markdown: 'The brown fox.\n\nJumps over the dog.' });
    const gone = await remove(commenter, document.uuid, made.body.suggestions[0]);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('suggestion_not_found');
  });

  it('refuses to delete a comment through the suggestions path with 422 not_a_suggestion', async () => {
    const { owner, document } = await setup();
    const comment = await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { body: 'Note' },
    });
    const response = await remove(owner, document.uuid, comment.body.uuid);
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('not_a_suggestion');
  });
});
