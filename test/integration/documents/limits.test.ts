// Limits the spec leaves open (docs/documents-api.md § Limits): the document's size, its threads, and how many
// candidates a target_ambiguous answer lists. The stack runs with small limits (test/setup/global.ts):
// FOLIO_DOCUMENT_MAX_BYTES=500000, FOLIO_DOCUMENT_MAX_THREADS=25.
import { describe, expect, it } from 'vitest';
import {
  call,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  type TestUser,
} from '../../support/api.js';

const MAX_BYTES = 500_000;
const MAX_THREADS = 25;

const edit = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/content`, { token: user.token, json: body });
const suggest = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/suggestions`, { token: user.token, json: body });
const comment = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/comments`, { token: user.token, json: body });
const read = (user: TestUser, uuid: string) =>
  call('GET', `/v1/documents/${uuid}/content`, { token: user.token });

describe('the document size cap', () => {
  it('refuses an edit or a suggestion that would make the markdown larger than the cap with 413 document_too_large and max_bytes, counting UTF-8 bytes', async () => {
    const owner = await makeUser();
    const commenter = await makeColleague(owner);
    const document = await makeDocument(owner);
    await shareDocument(document.uuid, commenter, 'commenter');
    // 1,672 paragraphs of 99 three-byte characters: 499,926 bytes, under the cap, though 167,214 characters long.
    const atCap = Array.from({ length: 1672 }, () => '€'.repeat(99)).join('\n\n');
    const fits = await edit(owner, document.uuid, {
      operations: [{ type: 'set_document', markdown: atCap }],
    });
    expect(fits.status).toBe(200);
    expect(Buffer.byteLength(fits.body.markdown, 'utf8')).toBe(499_926);

    // 102 bytes more pass the cap.
    const over = await edit(owner, document.uuid, {
      operations: [{ type: 'insert', after: 'end', markdown: 'x'.repeat(100) }],
    });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      error: 'document_too_large',
      error_description: expect.any(String),
      max_bytes: MAX_BYTES,
    });

    const whole = await edit(owner, document.uuid, {
      operations: [{ type: 'set_document', markdown: `${atCap}\n\n${'y'.repeat(100)}` }],
    });
    expect(whole.status).toBe(413);
    expect(whole.body.max_bytes).toBe(MAX_BYTES);

    // A commenter cannot grow it past the cap either.
    const suggested = await suggest(commenter, document.uuid, {
      operations: [{ type: 'insert', after: 'end', markdown: 'x'.repeat(100) }],
    });
    expect(suggested.status).toBe(413);
    expect(suggested.body.error).toBe('document_too_large');

    // Nothing changed, and an edit that keeps it under the cap still lands.
    const after = await read(owner, document.uuid);
    expect(after.body).toMatchObject({ revision: fits.body.revision, markdown: atCap, threads: [] });
    const shrink = await edit(owner, document.uuid, {
      operations: [{ type: 'set_document', markdown: 'Short again.' }],
    });
    expect(shrink.status).toBe(200);
  });
});

describe('the thread cap', () => {
  it('counts every thread of the document, open or not, and refuses the ones past it with 422 too_many_threads and max_threads, changing nothing', async () => {
    const owner = await makeUser();
    const commenter = await makeColleague(owner);
    const document = await makeDocument(owner, { markdown: 'Base text.' });
    await shareDocument(document.uuid, commenter, 'commenter');
    const lines = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => ({ type: 'insert', after: 'end', markdown: `Line ${from + i}` }));

    const many = await suggest(commenter, document.uuid, { operations: lines(MAX_THREADS - 1) });
    expect(many.status).toBe(201);
    const revision = many.body.revision as number;

    // Two more would pass the cap: the whole request is refused, before the engine runs.
    const two = await suggest(commenter, document.uuid, { operations: lines(2, 100) });
    expect(two.status).toBe(422);
    expect(two.body).toEqual({
      error: 'too_many_threads',
      error_description: expect.any(String),
      max_threads: MAX_THREADS,
    });
    expect((await read(owner, document.uuid)).body.revision).toBe(revision);

    const last = await comment(commenter, document.uuid, { body: 'The 25th.', on: 'Base' });
    expect(last.status).toBe(201);
    // Resolved or closed threads still count: they are stored and kept.
    expect(
      (
        await call('POST', `/v1/documents/${document.uuid}/comments/${last.body.uuid}`, {
          token: commenter.token,
          json: { status: 'resolved' },
        })
      ).status,
    ).toBe(200);
    const refused = await comment(commenter, document.uuid, { body: 'One more.', on: 'Base' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      error: 'too_many_threads',
      error_description: expect.any(String),
      max_threads: MAX_THREADS,
    });
    expect((await suggest(commenter, document.uuid, { operations: lines(1, 200) })).body.error).toBe(
      'too_many_threads',
    );

    // Deleting one makes room again.
    expect(
      (
        await call('DELETE', `/v1/documents/${document.uuid}/comments/${last.body.uuid}`, {
          token: commenter.token,
        })
      ).status,
    ).toBe(204);
    expect((await comment(commenter, document.uuid, { body: 'Room again.', on: 'Base' })).status).toBe(201);
  });
});

describe('the candidates of target_ambiguous', () => {
  it('lists the first 50 candidates and says truncated: true when there are more, for edits and comments; occurrence still picks any of them', async () => {
    const user = await makeUser();
    const markdown = Array.from({ length: 60 }, (_, i) => `cat ${i}`).join(', ');
    const document = await makeDocument(user, { markdown });

    const ambiguous = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'cat', with: 'dog' }],
    });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toEqual({
      error: 'target_ambiguous',
      error_description: expect.stringContaining('60 times'),
      operation: 0,
      retryable: true,
      candidates: Array.from({ length: 50 }, (_, i) => ({ occurrence: i + 1, snippet: expect.any(String) })),
      truncated: true,
    });

    const onComment = await comment(user, document.uuid, { body: 'Which?', on: 'cat' });
    expect(onComment.status).toBe(422);
    expect(onComment.body.candidates).toHaveLength(50);
    expect(onComment.body.truncated).toBe(true);

    const picked = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'cat', with: 'dog', occurrence: 55 }],
    });
    expect(picked.status).toBe(200);
    expect(picked.body.markdown).toContain('dog 54');
  });

  it('caps the candidates of a repeated heading anchor the same way', async () => {
    const user = await makeUser();
    const markdown = Array.from({ length: 55 }, (_, i) => `## Notes\n\nPart ${i}.`).join('\n\n');
    const document = await makeDocument(user, { markdown });
    const ambiguous = await edit(user, document.uuid, {
      operations: [{ type: 'insert', after: 'heading:Notes', markdown: 'Added.' }],
    });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.error).toBe('target_ambiguous');
    expect(ambiguous.body.candidates).toHaveLength(50);
    expect(ambiguous.body.truncated).toBe(true);
  });
});
