// Comments: anchored on a quote or on the whole document, replies, resolve and reopen, edit and delete, and errors.
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { readRevisionState } from '../../../domain/documents/revision-log.js';
import {
  call,
  makeColleague,
  makeDocument,
  shareDocument,
  tokenFor,
  type TestUser,
} from '../../support/api.js';
import { documentWithCommenter, person, readContent } from '../../support/documents.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const base = (uuid: string) => `/v1/documents/${uuid}/comments`;

const comment = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', base(uuid), { token: user.token, json: body });

const setup = () => documentWithCommenter('The quick brown fox.\n\nJumps over the lazy dog.');

describe('creating comments', () => {
  it('anchors a comment on quoted text and answers 201 with the thread as the content read lists it', async () => {
    const { owner, commenter, document } = await setup();
    const response = await comment(commenter, document.uuid, { body: 'Which **fox**?', on: 'brown fox' });
    expect(response.status).toBe(201);
    const thread = {
      uuid: expect.any(String),
      kind: 'comment',
      ref: null,
      status: 'open',
      placement: 'attached',
      quote: 'brown fox',
      suggested_text: null,
      suggested_format: null,
      author: person(true, 'Cora'),
      created_at: expect.any(String),
      messages: [
        {
          uuid: expect.any(String),
          author: person(true, 'Cora'),
          body: 'Which **fox**?',
          created_at: expect.any(String),
          edited_at: null,
        },
      ],
    };
    expect(response.body).toEqual(thread);
    const content = await readContent(owner, document.uuid);
    // Comments are not marked in the text and do not move the revision.
    expect(content.body).toMatchObject({
      revision: 2,
      markdown: 'The quick brown fox.\n\nJumps over the lazy dog.',
    });
    expect(content.body.threads).toEqual([
      {
        ...response.body,
        author: person(false, 'Cora'),
        messages: [{ ...response.body.messages[0], author: person(false, 'Cora') }],
      },
    ]);
  });

  it('comments on the whole document without on, and lists threads oldest first', async () => {
    const { owner, document } = await setup();
    const first = await comment(owner, document.uuid, { body: 'Overall: good' });
    expect(first.body).toMatchObject({ placement: 'document', quote: null });
    const second = await comment(owner, document.uuid, { body: 'On dog', on: 'dog' });
    const content = await readContent(owner, document.uuid);
    expect(content.body.threads.map((t: { uuid: string }) => t.uuid)).toEqual([
      first.body.uuid,
      second.body.uuid,
    ]);
  });

  it('picks among repeated quotes with occurrence, before and after, and refuses an ambiguous or missing one', async () => {
    const { owner } = await setup();
    const document = await makeDocument(owner, { markdown: 'red fish, blue fish, red fish' });
    const ambiguous = await comment(owner, document.uuid, { body: 'x', on: 'red fish' });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toEqual({
      error: 'target_ambiguous',
      error_description: expect.any(String),
      retryable: true,
      candidates: [
        { occurrence: 1, snippet: expect.any(String) },
        { occurrence: 2, snippet: expect.any(String) },
      ],
    });
    const missing = await comment(owner, document.uuid, { body: 'x', on: 'green fish' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      error: 'target_not_found',
      error_description: expect.any(String),
      retryable: true,
    });
    expect(
      (await comment(owner, document.uuid, { body: 'second', on: 'red fish', occurrence: 2 })).status,
    ).toBe(201);
    expect((await comment(owner, document.uuid, { body: 'first', on: 'fish', after: ', blue' })).status).toBe(
      201,
    );
    expect((await readContent(owner, document.uuid)).body.threads).toHaveLength(2);
  });

  it('shows a comment whose text was deleted as detached, keeping its quote', async () => {
    const { owner, document } = await setup();
    const made = await comment(owner, document.uuid, { body: 'Too lazy?', on: 'lazy' });
    await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: owner.token,
      json: { operations: [{ type: 'delete', find: 'lazy ' }] },
    });
    const content = await readContent(owner, document.uuid);
    expect(content.body.threads).toEqual([
      expect.objectContaining({ uuid: made.body.uuid, placement: 'detached', quote: 'lazy' }),
    ]);
  });

  it('refuses a blank or missing body with 422 invalid_body and a malformed quote with 422 invalid_operation', async () => {
    const { owner, document } = await setup();
    for (const body of [{}, { body: '   ' }, { body: 3 }]) {
      const response = await comment(owner, document.uuid, body);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_body', error_description: expect.any(String) });
    }
    const badQuote = await comment(owner, document.uuid, { body: 'x', on: 'fox', occurrence: 0 });
    expect(badQuote.status).toBe(422);
    expect(badQuote.body).toEqual({ error: 'invalid_operation', error_description: expect.any(String) });
    expect((await readContent(owner, document.uuid)).body.threads).toEqual([]);
  });

  it('needs commenter and docs.comment: a viewer gets 403 forbidden, a docs.write token 403 insufficient_scope', async () => {
    const { owner, document } = await setup();
    const viewer = await makeColleague(owner);
    await shareDocument(document.uuid, viewer, 'viewer');
    const refused = await comment(viewer, document.uuid, { body: 'hi' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('commenter'),
    });
    const token = await tokenFor(owner, ['docs.read', 'docs.write']);
    const noScope = await call('POST', base(document.uuid), { token, json: { body: 'hi' } });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toBe('insufficient_scope');
  });

  it('refuses comments on a trashed document with 409 document_trashed', async () => {
    const { owner, document } = await setup();
    const made = await comment(owner, document.uuid, { body: 'before' });
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
    const responses = [
      await comment(owner, document.uuid, { body: 'after' }),
      await call('POST', `${base(document.uuid)}/${made.body.uuid}/replies`, {
        token: owner.token,
        json: { body: 'r' },
      }),
      await call('POST', `${base(document.uuid)}/${made.body.uuid}`, {
        token: owner.token,
        json: { status: 'resolved' },
      }),
      await call('DELETE', `${base(document.uuid)}/${made.body.uuid}`, { token: owner.token }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ error: 'document_trashed', error_description: expect.any(String) });
    }
  });
});

describe('replies, status and messages', () => {
  it('adds a reply with 201 and answers the thread with both messages in order', async () => {
    const { owner, commenter, document } = await setup();
    const made = await comment(commenter, document.uuid, { body: 'Question', on: 'fox' });
    const reply = await call('POST', `${base(document.uuid)}/${made.body.uuid}/replies`, {
      token: owner.token,
      json: { body: 'Answer' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.messages).toEqual([
      expect.objectContaining({ body: 'Question', author: person(false, 'Cora') }),
      {
        uuid: expect.any(String),
        author: person(true, 'Olive'),
        body: 'Answer',
        created_at: expect.any(String),
        edited_at: null,
      },
    ]);
  });

  it('resolves and reopens with POST status; a resolved comment leaves the content threads', async () => {
    const { owner, document } = await setup();
    const made = await comment(owner, document.uuid, { body: 'Fix', on: 'quick' });
    const resolved = await call('POST', `${base(document.uuid)}/${made.body.uuid}`, {
      token: owner.token,
      json: { status: 'resolved' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({ ...made.body, status: 'resolved' });
    expect((await readContent(owner, document.uuid)).body.threads).toEqual([]);
    const reopened = await call('POST', `${base(document.uuid)}/${made.body.uuid}`, {
      token: owner.token,
      json: { status: 'open' },
    });
    expect(reopened.body.status).toBe('open');
    expect((await readContent(owner, document.uuid)).body.threads).toHaveLength(1);
    for (const status of ['closed', 'RESOLVED', 1, undefined]) {
      const bad = await call('POST', `${base(document.uuid)}/${made.body.uuid}`, {
        token: owner.token,
        json: { status },
      });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ error: 'invalid_status', error_description: expect.any(String) });
    }
  });

  it('refuses to resolve or reply to a suggestion as a comment with 422 not_a_comment', async () => {
    const { owner, document } = await setup();
    const suggestion = await call('POST', `/v1/documents/${document.uuid}/suggestions`, {
      token: owner.token,
      json: { operations: [{ type: 'delete', find: 'quick ' }] },
    });
    const thread = suggestion.body.suggestions[0];
    for (const response of [
      await call('POST', `${base(document.uuid)}/${thread}`, {
        token: owner.token,
        json: { status: 'resolved' },
      }),
      await call('POST', `${base(document.uuid)}/${thread}/replies`, {
        token: owner.token,
        json: { body: 'r' },
      }),
      await call('DELETE', `${base(document.uuid)}/${thread}`, { token: owner.token }),
    ]) {
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'not_a_comment', error_description: expect.any(String) });
    }
  });

  it('edits a message with POST for its author only, setting edited_at; others get 403 forbidden', async () => {
    const { owner, commenter, document } = await setup();
    const made = await comment(commenter, document.uuid, { body: 'Typo heer' });
    const message = made.body.messages[0].uuid;
    const path = `${base(document.uuid)}/${made.body.uuid}/messages/${message}`;
    const refused = await call('POST', path, { token: owner.token, json: { body: 'Not mine' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'forbidden', error_description: expect.any(String) });
    const edited = await call('POST', path, { token: commenter.token, json: { body: 'Typo here' } });
    expect(edited.status).toBe(200);
    expect(edited.body.messages).toEqual([
      {
        uuid: message,
        author: person(true, 'Cora'),
        body: 'Typo here',
        created_at: made.body.messages[0].created_at,
        edited_at: expect.any(String),
      },
    ]);
    const blank = await call('POST', path, { token: commenter.token, json: { body: '' } });
    expect(blank.status).toBe(422);
    expect(blank.body.error).toBe('invalid_body');
  });

  it('answers 404 comment_not_found for a missing thread or message and 422 invalid_uuid for malformed ones', async () => {
    const { owner, document } = await setup();
    const made = await comment(owner, document.uuid, { body: 'x' });
    for (const [method, path, json] of [
      ['POST', `${base(document.uuid)}/${MISSING}/replies`, { body: 'r' }],
      ['POST', `${base(document.uuid)}/${MISSING}`, { status: 'resolved' }],
      ['POST', `${base(document.uuid)}/${made.body.uuid}/messages/${MISSING}`, { body: 'b' }],
      ['DELETE', `${base(document.uuid)}/${MISSING}`, undefined],
      ['DELETE', `${base(document.uuid)}/${made.body.uuid}/messages/${MISSING}`, undefined],
    ] as const) {
      const response = await call(method, path, { token: owner.token, json });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'comment_not_found', error_description: expect.any(String) });
    }
    // A thread of another document is not on this one.
    const other = await makeDocument(owner, { markdown: 'Other' });
    const elsewhere = await call('POST', `${base(other.uuid)}/${made.body.uuid}/replies`, {
      token: owner.token,
      json: { body: 'r' },
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toBe('comment_not_found');
    const malformed = await call('DELETE', `${base(document.uuid)}/${made.body.uuid}/messages/zzz`, {
      token: owner.token,
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error).toBe('invalid_uuid');
  });
});

describe('deleting comments and messages', () => {
  it('deletes a comment with its replies and marks (204), by its author', async () => {
    const { owner, commenter, document } = await setup();
    const made = await comment(commenter, document.uuid, { body: 'Mine', on: 'fox' });
    await call('POST', `${base(document.uuid)}/${made.body.uuid}/replies`, {
      token: owner.token,
      json: { body: 'reply' },
    });
    const response = await call('DELETE', `${base(document.uuid)}/${made.body.uuid}`, {
      token: commenter.token,
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect((await readContent(owner, document.uuid)).body.threads).toEqual([]);
    expect(
      await db()('document_thread_messages').where({ thread_uuid: made.body.uuid }).first(),
    ).toBeUndefined();
    const { revision } = await db()('documents').where({ uuid: document.uuid }).first('revision');
    const state = await readRevisionState(db(), document.uuid, revision as number);
    expect(JSON.stringify(state)).not.toContain(made.body.uuid);
  });

  it('lets a manager or the owner delete any comment, and refuses another commenter with 403 forbidden', async () => {
    const { owner, commenter, document } = await setup();
    const other = await makeColleague(owner);
    await shareDocument(document.uuid, other, 'editor');
    const made = await comment(commenter, document.uuid, { body: 'Mine' });
    const refused = await call('DELETE', `${base(document.uuid)}/${made.body.uuid}`, { token: other.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('manager or owner'),
    });
    expect(
      (await call('DELETE', `${base(document.uuid)}/${made.body.uuid}`, { token: owner.token })).status,
    ).toBe(204);
  });

  it('deletes only a reply when a reply is deleted, and the whole comment when its opening message is', async () => {
    const { owner, commenter, document } = await setup();
    const made = await comment(owner, document.uuid, { body: 'Opening', on: 'dog' });
    const replied = await call('POST', `${base(document.uuid)}/${made.body.uuid}/replies`, {
      token: commenter.token,
      json: { body: 'Reply' },
    });
    const reply = replied.body.messages[1].uuid;
    const otherCommenter = await makeColleague(owner);
    await shareDocument(document.uuid, otherCommenter, 'commenter');
    const notTheirs = await call('DELETE', `${base(document.uuid)}/${made.body.uuid}/messages/${reply}`, {
      token: otherCommenter.token,
    });
    expect(notTheirs.status).toBe(403);
    const gone = await call('DELETE', `${base(document.uuid)}/${made.body.uuid}/messages/${reply}`, {
      token: commenter.token,
    });
    expect(gone.status).toBe(204);
    expect(
      (await readContent(owner, document.uuid)).body.threads[0].messages.map((m: { body: string }) => m.body),
    ).toEqual(['Opening']);
    const opening = await call(
      'DELETE',
      `${base(document.uuid)}/${made.body.uuid}/messages/${made.body.messages[0].uuid}`,
      { token: owner.token },
    );
    expect(opening.status).toBe(204);
    expect((await readContent(owner, document.uuid)).body.threads).toEqual([]);
    expect(await db()('document_threads').where({ uuid: made.body.uuid }).first()).toBeUndefined();
  });
});
