// Document content: reading markdown, editing with quoted operations, base_revision conflicts, batch_id retries, errors.
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import {
  call,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  type TestUser,
} from '../../support/api.js';
import { documentContent, documentWithColleagues, readContent } from '../../support/documents.js';

const edit = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/content`, { token: user.token, json: body });

/** A new user's new document holding the markdown, and its answer to one edit with these operations. */
async function editNewDocument(markdown: string, operations: unknown[]) {
  const user = await makeUser();
  const document = await makeDocument(user, { markdown });
  return edit(user, document.uuid, { operations });
}

const SAMPLE = '# Plan\n\nShip the beta in May. Ship the docs in June.\n\n## Risks\n\nNone yet.';

describe('reading content', () => {
  it('answers document_content with the markdown, the revision and no threads', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: SAMPLE });
    const response = await readContent(user, document.uuid);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(documentContent(document.uuid, 2, SAMPLE, []));
  });

  it('lets every role read, and hides the document from others with 404 not_found', async () => {
    const owner = await makeUser();
    const { document, viewer, stranger } = await documentWithColleagues(
      owner,
      { viewer: 'viewer', stranger: null },
      { markdown: 'Shared text.' },
    );
    expect((await readContent(viewer, document.uuid)).body.markdown).toBe('Shared text.');
    const hidden = await readContent(stranger, document.uuid);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: 'not_found', error_description: expect.any(String) });
  });

  it('keeps the formatting conventions and drops a color outside the palette when written', async () => {
    const user = await makeUser();
    const markdown =
      'A <u>line</u> in <span data-color="teal">teal</span>, <mark data-color="pink">marked</mark>, ~~struck~~ and <span data-color="neon">neon</span>.';
    const document = await makeDocument(user, { markdown });
    expect((await readContent(user, document.uuid)).body.markdown).toBe(
      'A <u>line</u> in <span data-color="teal">teal</span>, <mark data-color="pink">marked</mark>, ~~struck~~ and neon.',
    );
  });
});

describe('editing content', () => {
  it('applies replace, insert and delete in order as one revision and answers the content after it', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: SAMPLE });
    const response = await edit(user, document.uuid, {
      base_revision: 2,
      operations: [
        { type: 'replace', find: 'May', with: '*April*' },
        { type: 'insert', before: 'heading:Risks', markdown: '- QA pass' },
        { type: 'delete', find: ' Ship the docs in June.' },
        { type: 'replace', find: 'None yet', with: 'Two known' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(documentContent(document.uuid, 3, expect.any(String), []));
    expect(response.body.markdown).toContain('Ship the beta in *April*.');
    expect(response.body.markdown).not.toContain('June');
    expect(response.body.markdown).toContain('Two known.');
    expect(response.body.markdown.indexOf('QA pass')).toBeLessThan(
      response.body.markdown.indexOf('## Risks'),
    );
    expect((await readContent(user, document.uuid)).body).toEqual(response.body);
  });

  it('keeps the formatting of replaced text', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Very **important** note.' });
    const response = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'important', with: 'urgent' }],
    });
    expect(response.body.markdown).toBe('Very **urgent** note.');
  });

  it('refuses a quote found more than once with 422 target_ambiguous and candidates, unless occurrence, before or after picks one', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'One cat. Two cat. Red cat.' });
    const ambiguous = await edit(user, document.uuid, {
      operations: [
        { type: 'replace', find: 'Two', with: '2' },
        { type: 'replace', find: 'cat', with: 'dog' },
      ],
    });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toEqual({
      error: 'target_ambiguous',
      error_description: expect.any(String),
      operation: 1,
      retryable: true,
      candidates: [
        { occurrence: 1, snippet: expect.any(String) },
        { occurrence: 2, snippet: expect.any(String) },
        { occurrence: 3, snippet: expect.any(String) },
      ],
    });
    // Nothing changed, not even the first operation.
    expect((await readContent(user, document.uuid)).body).toMatchObject({
      revision: 2,
      markdown: 'One cat. Two cat. Red cat.',
    });
    const byOccurrence = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'cat', with: 'dog', occurrence: 'last' }],
    });
    expect(byOccurrence.body.markdown).toBe('One cat. Two cat. Red dog.');
    const byContext = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'cat', with: 'cow', before: 'Two ' }],
    });
    expect(byContext.body.markdown).toBe('One cat. Two cow. Red dog.');
    const byNumber = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'cat', with: 'owl', occurrence: 1 }],
    });
    expect(byNumber.body.markdown).toBe('One owl. Two cow. Red dog.');
  });

  it('refuses a quote that is not there with 422 target_not_found, retryable, naming the operation', async () => {
    const response = await editNewDocument('Alpha beta.', [{ type: 'delete', find: 'gamma' }]);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'target_not_found',
      error_description: expect.any(String),
      operation: 0,
      retryable: true,
    });
  });

  it('refuses a replace reaching across blocks with 422 target_spans_blocks', async () => {
    const response = await editNewDocument('First para.\n\nSecond para.', [
      { type: 'replace', find: 'para.\n\nSecond', with: 'x' },
    ]);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'target_spans_blocks',
      error_description: expect.any(String),
      operation: 0,
    });
  });

  it('refuses markdown the engine cannot read with 422 invalid_markdown', async () => {
    const response = await editNewDocument('Text.', [
      { type: 'insert', after: 'end', markdown: '<div>raw html</div>' },
    ]);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'invalid_markdown',
      error_description: expect.any(String),
      operation: 0,
    });
  });

  it('refuses malformed operations with 422 invalid_operation (with the index) or invalid_operations (the list)', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Text.' });
    const malformed = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'Text', with: 'T' }, { type: 'rewrite' }],
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toEqual({
      error: 'invalid_operation',
      error_description: expect.any(String),
      operation: 1,
    });
    for (const operations of [
      undefined,
      'set_document',
      [],
      Array.from({ length: 101 }, () => ({ type: 'delete', find: 'x' })),
    ]) {
      const response = await edit(user, document.uuid, { operations });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_operations', error_description: expect.any(String) });
    }
    const hundred = await edit(user, document.uuid, {
      operations: Array.from({ length: 100 }, (_, i) => ({
        type: 'insert',
        after: 'end',
        markdown: `Line ${i}`,
      })),
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.revision).toBe(3);
  });

  it('answers 409 conflict with current when the document moved past base_revision, changing nothing', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Version two.' });
    await edit(user, document.uuid, {
      base_revision: 2,
      operations: [{ type: 'replace', find: 'two', with: 'three' }],
    });
    const stale = await edit(user, document.uuid, {
      base_revision: 2,
      operations: [{ type: 'replace', find: 'Version', with: 'Stale' }],
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      error: 'conflict',
      error_description: expect.any(String),
      current: documentContent(document.uuid, 3, 'Version three.', []),
    });
    expect((await readContent(user, document.uuid)).body.revision).toBe(3);
  });

  it('refuses a base_revision that is not a revision number with 422 invalid_base_revision', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Text.' });
    for (const base_revision of ['2', 0, -1, 1.5, 99, true]) {
      const response = await edit(user, document.uuid, {
        base_revision,
        operations: [{ type: 'replace', find: 'Text', with: 'T' }],
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'invalid_base_revision',
        error_description: expect.any(String),
      });
    }
  });

  it('serialises concurrent edits on one base_revision: one wins, the others get 409 conflict', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Counter: 0' });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        edit(user, document.uuid, {
          base_revision: 2,
          operations: [{ type: 'replace', find: 'Counter: 0', with: `Counter: ${i + 1}` }],
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const after = await readContent(user, document.uuid);
    expect(after.body.revision).toBe(3);
    const revisions = await db()('document_revisions')
      .where({ document_uuid: document.uuid })
      .orderBy('revision')
      .pluck('revision');
    expect(revisions).toEqual([1, 2, 3]);
  });

  it('applies a batch_id once: a retry answers the first response and adds no revision', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Tally: a' });
    const body = {
      batch_id: 'retry-1',
      base_revision: 2,
      operations: [{ type: 'insert', after: 'end', markdown: 'Appended once.' }],
    };
    const first = await edit(user, document.uuid, body);
    expect(first.status).toBe(200);
    const retry = await edit(user, document.uuid, body);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await readContent(user, document.uuid)).body).toMatchObject({
      revision: 3,
      markdown: 'Tally: a\n\nAppended once.',
    });
    // Another person's identical batch_id is their own.
    const colleague = await makeColleague(user);
    await shareDocument(document.uuid, colleague, 'editor');
    const theirs = await edit(colleague, document.uuid, {
      batch_id: 'retry-1',
      operations: [{ type: 'replace', find: 'Tally', with: 'Total' }],
    });
    expect(theirs.body.revision).toBe(4);
  });

  it('refuses a batch_id replayed on the other endpoint (/content then /suggestions, and back) with 422 batch_id_reused, changing nothing', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Tally: a' });
    const edited = await edit(user, document.uuid, {
      batch_id: 'both-ways',
      operations: [{ type: 'insert', after: 'end', markdown: 'Edited.' }],
    });
    expect(edited.status).toBe(200);
    const suggestions = (body: Record<string, unknown>) =>
      call('POST', `/v1/documents/${document.uuid}/suggestions`, { token: user.token, json: body });
    const crossed = await suggestions({
      batch_id: 'both-ways',
      operations: [{ type: 'insert', after: 'end', markdown: 'Suggested.' }],
    });
    expect(crossed.status).toBe(422);
    expect(crossed.body).toEqual({ error: 'batch_id_reused', error_description: expect.any(String) });

    const suggested = await suggestions({
      batch_id: 'other-way',
      operations: [{ type: 'insert', after: 'end', markdown: 'Suggested.' }],
    });
    expect(suggested.status).toBe(201);
    const back = await edit(user, document.uuid, {
      batch_id: 'other-way',
      operations: [{ type: 'insert', after: 'end', markdown: 'Edited again.' }],
    });
    expect(back.status).toBe(422);
    expect(back.body.error).toBe('batch_id_reused');
    expect((await readContent(user, document.uuid)).body).toMatchObject({
      revision: suggested.body.revision,
      markdown: suggested.body.markdown,
    });
    // Each endpoint still answers its own retry.
    expect(
      (
        await suggestions({
          batch_id: 'other-way',
          operations: [{ type: 'insert', after: 'end', markdown: 'Suggested.' }],
        })
      ).body,
    ).toEqual(suggested.body);
  });

  it('refuses a batch_id that is not a string of 1 to 64 characters with 422 invalid_batch_id', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Text.' });
    for (const batch_id of ['', 'x'.repeat(65), 12, ['a']]) {
      const response = await edit(user, document.uuid, {
        batch_id,
        operations: [{ type: 'replace', find: 'Text', with: 'T' }],
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_batch_id', error_description: expect.any(String) });
    }
    const atLimit = await edit(user, document.uuid, {
      batch_id: 'x'.repeat(64),
      operations: [{ type: 'replace', find: 'Text', with: 'T' }],
    });
    expect(atLimit.status).toBe(200);
  });

  it('sets the whole document with set_document, and setting the same markdown adds no revision', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Para one.\n\nPara two.' });
    const same = await edit(user, document.uuid, {
      operations: [{ type: 'set_document', markdown: 'Para one.\n\nPara two.' }],
    });
    expect(same.body.revision).toBe(2);
    const changed = await edit(user, document.uuid, {
      operations: [{ type: 'set_document', markdown: 'Para one.\n\nPara 2.' }],
    });
    expect(changed.body).toMatchObject({ revision: 3, markdown: 'Para one.\n\nPara 2.' });
  });

  it('needs the editor role: a viewer or commenter gets 403 forbidden naming editor', async () => {
    const owner = await makeUser();
    const { document, viewer, commenter, editor } = await documentWithColleagues(
      owner,
      { viewer: 'viewer', commenter: 'commenter', editor: 'editor' },
      { markdown: 'Owned text.' },
    );
    for (const user of [viewer, commenter]) {
      const response = await edit(user, document.uuid, {
        operations: [{ type: 'replace', find: 'Owned', with: 'Taken' }],
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error: 'forbidden',
        error_description: expect.stringContaining('editor'),
      });
    }
    const allowed = await edit(editor, document.uuid, {
      operations: [{ type: 'replace', find: 'Owned', with: 'Shared' }],
    });
    expect(allowed.body.markdown).toBe('Shared text.');
  });

  it('refuses an edit of a trashed document with 409 document_trashed, and allows it again after a restore', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Text.' });
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: user.token });
    const refused = await edit(user, document.uuid, {
      operations: [{ type: 'replace', find: 'Text', with: 'T' }],
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'document_trashed', error_description: expect.any(String) });
    expect((await readContent(user, document.uuid)).status).toBe(200);
    await call('POST', `/v1/documents/${document.uuid}`, { token: user.token, json: { trashed: false } });
    expect(
      (await edit(user, document.uuid, { operations: [{ type: 'replace', find: 'Text', with: 'T' }] }))
        .status,
    ).toBe(200);
  });

  it('keeps every revision in the log so history can be read back', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'v2' });
    await edit(user, document.uuid, { operations: [{ type: 'replace', find: 'v2', with: 'v3' }] });
    const rows = await db()('document_revisions')
      .where({ document_uuid: document.uuid })
      .orderBy('revision')
      .select('revision', 'cause', 'author_uuid');
    expect(rows).toEqual([
      { revision: 1, cause: 'create', author_uuid: user.uuid },
      { revision: 2, cause: 'edit', author_uuid: user.uuid },
      { revision: 3, cause: 'edit', author_uuid: user.uuid },
    ]);
    const { renderMarkdown } = await import('../../../domain/document-engine/index.js');
    // The log stores what changed (a snapshot at 1, diffs after it); readRevisionState rebuilds each revision.
    const { readRevisionState } = await import('../../../domain/documents/revision-log.js');
    const states = await Promise.all(
      [1, 2, 3].map((revision) => readRevisionState(db(), document.uuid, revision)),
    );
    expect(states.map((state) => renderMarkdown(state!))).toEqual(['', 'v2', 'v3']);
  });
});
