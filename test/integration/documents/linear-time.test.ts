// Inputs that once cost the API minutes of CPU while it held the document's row lock (issue 14): a commenter's
// suggestion whose markdown is `{++` repeated 100,000 times, and a comment quoting one letter of a 300 KB
// paragraph. Each answers (2xx or 4xx, never 5xx), /readyz answers alongside it, and the document stays readable.
// No timing: a request that stalled would not complete within the test's timeout.
import { describe, expect, it } from 'vitest';
import { call, type TestUser } from '../../support/api.js';
import { documentWithCommenter, readContent } from '../../support/documents.js';

const suggest = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/suggestions`, { token: user.token, json: body });
const comment = (user: TestUser, uuid: string, body: Record<string, unknown>) =>
  call('POST', `/v1/documents/${uuid}/comments`, { token: user.token, json: body });

describe('work bounded by the input', () => {
  it("answers a commenter's suggestion of `{++` repeated 100,000 times, with /readyz answering alongside", async () => {
    const { owner, commenter, document } = await documentWithCommenter('Intro.');
    const markdown = '{++'.repeat(100_000);
    const [suggested, ready] = await Promise.all([
      suggest(commenter, document.uuid, { operations: [{ type: 'insert', after: 'end', markdown }] }),
      call('GET', '/readyz'),
    ]);
    expect(ready.status).toBe(200);
    expect(suggested.status).toBeGreaterThanOrEqual(200);
    expect(suggested.status).toBeLessThan(500);
    // Unclosed openers are text: the suggestion adds them as written.
    expect(suggested.status).toBe(201);
    const read = await readContent(owner, document.uuid);
    expect(read.status).toBe(200);
    expect(read.body.threads).toHaveLength(1);
    expect(read.body.threads[0].suggested_text).toContain('\\{++\\{++');
    expect((await call('GET', '/readyz')).status).toBe(200);
  });

  it('answers a suggestion of nested openers closed by closers of another kind', async () => {
    const { owner, commenter, document } = await documentWithCommenter('Intro.');
    const markdown = `${'{++'.repeat(50_000)}${'--}'.repeat(50_000)}`;
    const [suggested, ready] = await Promise.all([
      suggest(commenter, document.uuid, { operations: [{ type: 'insert', after: 'end', markdown }] }),
      call('GET', '/readyz'),
    ]);
    expect(ready.status).toBe(200);
    expect(suggested.status).toBeGreaterThanOrEqual(200);
    expect(suggested.status).toBeLessThan(500);
    expect((await readContent(owner, document.uuid)).status).toBe(200);
  });

  it('answers a comment quoting one letter of a 300 KB paragraph with 422 target_ambiguous, 50 candidates and truncated', async () => {
    const paragraph = 'ex '.repeat(100_000).trim();
    const { owner, commenter, document } = await documentWithCommenter(paragraph);
    const [ambiguous, ready] = await Promise.all([
      comment(commenter, document.uuid, { body: 'Which?', on: 'e' }),
      call('GET', '/readyz'),
    ]);
    expect(ready.status).toBe(200);
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toMatchObject({ error: 'target_ambiguous', truncated: true });
    expect(ambiguous.body.candidates).toHaveLength(50);

    const last = await comment(commenter, document.uuid, { body: 'This one.', on: 'e', occurrence: 'last' });
    expect(last.status).toBe(201);
    const read = await readContent(owner, document.uuid);
    expect(read.status).toBe(200);
    expect(read.body.threads.map((thread: { quote: string }) => thread.quote)).toEqual(['e']);
  });
});
