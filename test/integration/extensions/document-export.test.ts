// Document export, an extension (docs/extensions.md § Export): markdown or HTML, suggestions shown as CriticMarkup or
// resolved as all accepted or all rejected; any role that can read; the document itself is not changed.
import { describe, expect, it } from 'vitest';
import { call, makeUser, tokenFor } from '../../support/api.js';
import { documentWithColleagues, readContent } from '../../support/documents.js';

const exportOf = (user: { token: string }, uuid: string, query = '') =>
  call('GET', `/v1/documents/${uuid}/export${query}`, { token: user.token });

async function documentWithSuggestion() {
  const owner = await makeUser();
  const markdown = '# Plan\n\nThe **quick** fox, <u>under</u> and <span data-color="red">red</span>.';
  const colleagues = await documentWithColleagues(
    owner,
    { commenter: 'commenter', viewer: 'viewer', stranger: null },
    { title: 'Plan: Q3/Q4 ✓', markdown },
  );
  const suggested = await call('POST', `/v1/documents/${colleagues.document.uuid}/suggestions`, {
    token: colleagues.commenter.token,
    json: { operations: [{ type: 'replace', find: 'fox', with: 'hound' }] },
  });
  expect(suggested.status).toBe(201);
  return { owner, ...colleagues };
}

describe('document export', () => {
  it("exports markdown with suggestions shown (the content read's markdown), accepted or rejected, as a file named after the title", async () => {
    const { owner, viewer, document } = await documentWithSuggestion();
    const shown = await exportOf(viewer, document.uuid);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(shown.headers.get('content-disposition')).toBe(
      `attachment; filename="Plan: Q3/Q4 _.md"; filename*=UTF-8''Plan%3A%20Q3%2FQ4%20%E2%9C%93.md`,
    );
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(shown.headers.get('x-folio-revision')).toBe('3');
    const content = await readContent(owner, document.uuid);
    expect(shown.body).toBe(content.body.markdown);
    expect(shown.body).toBe(
      '# Plan\n\nThe **quick** {~~fox~>hound~~}{>>s1<<}, <u>under</u> and <span data-color="red">red</span>.',
    );

    expect((await exportOf(viewer, document.uuid, '?format=md&suggestions=accept')).body).toBe(
      '# Plan\n\nThe **quick** hound, <u>under</u> and <span data-color="red">red</span>.',
    );
    expect((await exportOf(viewer, document.uuid, '?suggestions=reject')).body).toBe(
      '# Plan\n\nThe **quick** fox, <u>under</u> and <span data-color="red">red</span>.',
    );
    // Nothing was decided: the suggestion is still open at the same revision.
    expect(await readContent(owner, document.uuid)).toMatchObject({
      body: { revision: 3, threads: [expect.objectContaining({ kind: 'suggestion', status: 'open' })] },
    });
  });

  it('exports HTML through markdown-it: suggestions as <del>/<ins>, or resolved; a sandboxed page titled with the document', async () => {
    const { viewer, document } = await documentWithSuggestion();
    const shown = await exportOf(viewer, document.uuid, '?format=html');
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shown.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''Plan%3A%20Q3%2FQ4%20%E2%9C%93.html`,
    );
    expect(shown.headers.get('content-security-policy')).toContain('sandbox');
    const page = (body: string) =>
      `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>Plan: Q3/Q4 ✓</title>\n</head>\n<body>\n<h1>Plan</h1>\n<p>${body}</p>\n</body>\n</html>\n`;
    expect(shown.body).toBe(
      page(
        'The <strong>quick</strong> <del class="suggestion" data-ref="s1">fox</del><ins class="suggestion" data-ref="s1">hound</ins>, <u>under</u> and <span data-color="red">red</span>.',
      ),
    );
    expect((await exportOf(viewer, document.uuid, '?format=html&suggestions=accept')).body).toBe(
      page('The <strong>quick</strong> hound, <u>under</u> and <span data-color="red">red</span>.'),
    );
    expect((await exportOf(viewer, document.uuid, '?format=html&suggestions=reject')).body).toBe(
      page('The <strong>quick</strong> fox, <u>under</u> and <span data-color="red">red</span>.'),
    );
  });

  it('needs docs.read and a role that can read; refuses an unknown format or suggestions value with 422', async () => {
    const { owner, stranger, document } = await documentWithSuggestion();
    const hidden = await exportOf(stranger, document.uuid);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('not_found');
    const noScope = await exportOf({ token: await tokenFor(owner, ['docs.write']) }, document.uuid);
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toBe('insufficient_scope');
    for (const [query, code] of [
      ['?format=docx', 'invalid_format'],
      ['?format=pdf', 'invalid_format'],
      ['?suggestions=hide', 'invalid_suggestions'],
      ['?format=md&format=html', 'invalid_format'],
    ] as const) {
      const response = await exportOf(owner, document.uuid, query);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: code, error_description: expect.any(String) });
    }
    expect((await call('GET', '/v1/documents/not-a-uuid/export', { token: owner.token })).body.error).toBe(
      'invalid_uuid',
    );
  });
});
