// Every error code the edit engine raises, with its status and the fields the spec gives it.
import { describe, expect, it } from 'vitest';
import { addComment, removeCommentMarks } from '../../../domain/document-engine/comments.js';
import { applyEdit } from '../../../domain/document-engine/engine.js';
import {
  acceptSuggestion,
  rejectSuggestion,
  removeSuggestion,
} from '../../../domain/document-engine/suggestions.js';
import { stateFromMarkdown } from '../../../domain/document-engine/state.js';
import { appError, counters } from './helpers.js';

const doc = stateFromMarkdown(
  '# Title\n\nThe cat sat on the mat.\n\nThe cat left.\n\n- one\n- two\n\n```\ncode here\n```',
);
const edit =
  (ops: unknown, mode: 'edit' | 'suggest' = 'edit') =>
  () =>
    applyEdit(doc, ops, counters(mode));

function suggested(ops: unknown[]) {
  return applyEdit(doc, ops, counters('suggest'));
}

describe('invalid_operations', () => {
  it.each([
    ['not an array', { type: 'replace' }],
    ['a string', 'replace'],
    ['empty', []],
    ['over 100 operations', Array.from({ length: 101 }, () => ({ type: 'delete', find: 'cat' }))],
  ])('refuses operations that are %s with 422 invalid_operations', (_name, ops) => {
    const error = appError(edit(ops));
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid_operations');
    expect(error.extras.operation).toBeUndefined();
  });

  it('accepts exactly 100 operations', () => {
    const ops = Array.from({ length: 100 }, () => ({ type: 'insert', markdown: 'x', after: 'end' }));
    expect(() => edit(ops)()).not.toThrow();
  });
});

describe('invalid_operation', () => {
  it.each([
    ['not an object', 'delete'],
    ['null', null],
    ['an unknown type', { type: 'move', find: 'cat' }],
    ['a missing type', { find: 'cat' }],
    ['a replace without find', { type: 'replace', with: 'dog' }],
    ['an empty find', { type: 'replace', find: '', with: 'dog' }],
    ['a find that is not a string', { type: 'delete', find: 3 }],
    ['a replace without with', { type: 'replace', find: 'cat' }],
    ['a with that is not a string', { type: 'replace', find: 'cat', with: null }],
    [
      'an insert with both after and before',
      { type: 'insert', markdown: 'x', after: 'start', before: 'end' },
    ],
    ['an insert with neither after nor before', { type: 'insert', markdown: 'x' }],
    ['an insert with blank markdown', { type: 'insert', markdown: '  ', after: 'end' }],
    ['a set_document without markdown', { type: 'set_document' }],
    ['an unknown field', { type: 'replace', find: 'cat', replacement: 'dog', with: 'dog' }],
    ['occurrence 0', { type: 'delete', find: 'cat', occurrence: 0 }],
    ['occurrence 1.5', { type: 'delete', find: 'cat', occurrence: 1.5 }],
    ['occurrence "middle"', { type: 'delete', find: 'cat', occurrence: 'middle' }],
    ['an empty before', { type: 'delete', find: 'cat', before: '' }],
    ['a comment on a direct edit', { type: 'delete', find: 'cat', comment: 'why' }],
  ])('refuses %s with 422 invalid_operation naming the operation', (_name, op) => {
    const error = appError(edit([{ type: 'insert', markdown: 'ok', after: 'end' }, op]));
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid_operation');
    expect(error.extras.operation).toBe(1);
  });

  it('takes a comment on a suggested operation', () => {
    expect(suggested([{ type: 'delete', find: 'sat', comment: 'Redundant.' }]).suggestionThreadIds).toEqual([
      't1',
    ]);
  });

  it('refuses an insert whose markdown holds only blank structure', () => {
    const error = appError(edit([{ type: 'insert', markdown: '<br>', after: 'end' }]));
    expect(error.code).toBe('invalid_operation');
  });
});

describe('invalid_markdown', () => {
  it.each([
    ['a div', { type: 'insert', markdown: '<div>x</div>', after: 'end' }],
    ['an HTML comment', { type: 'insert', markdown: '<!-- note -->', after: 'end' }],
    ['an unknown inline tag', { type: 'replace', find: 'mat', with: 'H<sub>2</sub>O' }],
    ['CriticMarkup in an insert', { type: 'insert', markdown: '{++new++}{>>s1<<}', after: 'end' }],
    ['CriticMarkup without a ref', { type: 'set_document', markdown: 'a {++b++}' }],
    ['CriticMarkup naming no open suggestion', { type: 'set_document', markdown: 'a {--b--}{>>s9<<}' }],
    ['a CriticMarkup comment', { type: 'set_document', markdown: 'a {>>remark<<}' }],
    ['a block marker in mid-paragraph', { type: 'set_document', markdown: 'a {++¶++}{>>s1<<}' }],
  ])('refuses %s with 422 invalid_markdown', (_name, op) => {
    const error = appError(edit([op]));
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid_markdown');
    expect(error.extras.operation).toBe(0);
  });

  it('refuses CriticMarkup in a new document', () => {
    const error = appError(() => stateFromMarkdown('{++x++}{>>s1<<}'));
    expect(error.code).toBe('invalid_markdown');
  });
});

describe('target_not_found', () => {
  it.each([
    ['a missing quote', { type: 'replace', find: 'dog', with: 'cat' }],
    ['an occurrence past the last', { type: 'delete', find: 'cat', occurrence: 3 }],
    ['before that never precedes it', { type: 'delete', find: 'cat', before: 'Mr. ' }],
    ['after that never follows it', { type: 'delete', find: 'cat', after: ' ran' }],
    ['a missing heading', { type: 'insert', markdown: 'x', after: 'heading:Nope' }],
    ['a missing section', { type: 'insert', markdown: 'x', after: 'section:Nope' }],
    ['a missing quote anchor', { type: 'insert', markdown: 'x', before: 'no such text' }],
    ['a quote of markup only', { type: 'delete', find: '**' }],
  ])('refuses %s with 422 target_not_found, retryable', (_name, op) => {
    const error = appError(edit([{ type: 'insert', markdown: 'ok', after: 'end' }, op]));
    expect(error.status).toBe(422);
    expect(error.code).toBe('target_not_found');
    expect(error.extras).toMatchObject({ retryable: true, operation: 1 });
  });

  it('refuses a comment on a missing quote', () => {
    const error = appError(() => addComment(doc, { on: 'dog' }, 'c1'));
    expect(error.code).toBe('target_not_found');
    expect(error.extras.retryable).toBe(true);
  });
});

describe('target_ambiguous', () => {
  it('refuses a repeated quote with candidates naming each occurrence', () => {
    const error = appError(edit([{ type: 'replace', find: 'The cat', with: 'A dog' }]));
    expect(error.status).toBe(422);
    expect(error.code).toBe('target_ambiguous');
    expect(error.extras).toMatchObject({ retryable: true, operation: 0 });
    expect(error.extras.candidates).toEqual([
      { occurrence: 1, snippet: '# Title\n\nThe cat sat on the mat.\n\nThe cat left…' },
      {
        occurrence: 2,
        snippet: '…tle\n\nThe cat sat on the mat.\n\nThe cat left.\n\n- one\n- two\n\n```\ncode …',
      },
    ]);
  });

  it('refuses a heading title that several headings have', () => {
    const twice = stateFromMarkdown('## Notes\n\na\n\n## Notes\n\nb');
    const error = appError(() =>
      applyEdit(twice, [{ type: 'insert', markdown: 'x', after: 'section:Notes' }], counters()),
    );
    expect(error.code).toBe('target_ambiguous');
    expect(error.extras.candidates).toEqual([
      { occurrence: 1, snippet: '## Notes' },
      { occurrence: 2, snippet: '## Notes' },
    ]);
  });

  it('refuses an ambiguous comment quote', () => {
    const error = appError(() => addComment(doc, { on: 'cat' }, 'c1'));
    expect(error.code).toBe('target_ambiguous');
    expect(error.extras.operation).toBeUndefined();
  });

  it('counts occurrences among the matches left after before and after', () => {
    const state = stateFromMarkdown('x a y, x a z, w a y');
    const error = appError(() => applyEdit(state, [{ type: 'delete', find: 'a', after: ' y' }], counters()));
    expect((error.extras.candidates as unknown[]).length).toBe(2);
  });
});

describe('target_spans_blocks', () => {
  it.each([
    ['two paragraphs', 'mat.\n\nThe'],
    ['two list items', 'one\n- two'],
    ['a heading and a paragraph', 'Title\n\nThe cat sat'],
  ])('refuses a replace across %s with 422 target_spans_blocks', (_name, find) => {
    const error = appError(edit([{ type: 'replace', find, with: 'x' }]));
    expect(error.status).toBe(422);
    expect(error.code).toBe('target_spans_blocks');
    expect(error.extras.operation).toBe(0);
  });

  it('refuses a suggested replace across blocks too', () => {
    expect(appError(edit([{ type: 'replace', find: 'mat.\n\nThe', with: 'x' }], 'suggest')).code).toBe(
      'target_spans_blocks',
    );
  });
});

describe('not_suggestible', () => {
  it('refuses set_document as a suggestion', () => {
    const error = appError(
      edit(
        [
          { type: 'delete', find: 'sat' },
          { type: 'set_document', markdown: 'x' },
        ],
        'suggest',
      ),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe('not_suggestible');
    expect(error.extras.operation).toBe(1);
  });

  it('refuses a suggested removal that cuts into a code block', () => {
    expect(appError(edit([{ type: 'delete', find: 'two\n\n```\ncode' }], 'suggest')).code).toBe(
      'not_suggestible',
    );
  });
});

describe('nothing_to_suggest', () => {
  it('refuses to suggest removing text already suggested for removal', () => {
    const first = suggested([{ type: 'delete', find: 'sat' }]);
    const error = appError(() =>
      applyEdit(first.state, [{ type: 'delete', find: 'sat' }], counters('suggest')),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe('nothing_to_suggest');
    expect(error.extras.operation).toBe(0);
  });

  it('refuses to suggest replacing text already suggested for removal', () => {
    const first = suggested([{ type: 'delete', find: 'sat' }]);
    const error = appError(() =>
      applyEdit(first.state, [{ type: 'replace', find: 'sat', with: 'lay' }], counters('suggest')),
    );
    expect(error.code).toBe('nothing_to_suggest');
  });

  it('refuses to suggest formatting text already suggested for removal', () => {
    const first = suggested([{ type: 'delete', find: 'sat' }]);
    const error = appError(() =>
      applyEdit(first.state, [{ type: 'replace', find: 'sat', with: '**sat**' }], counters('suggest')),
    );
    expect(error.code).toBe('nothing_to_suggest');
  });

  it('refuses a suggested replacement that changes nothing', () => {
    expect(appError(edit([{ type: 'replace', find: 'sat', with: 'sat' }], 'suggest')).code).toBe(
      'nothing_to_suggest',
    );
  });

  it('refuses to suggest removing a code block already suggested for removal', () => {
    const first = suggested([{ type: 'replace', find: 'here', with: 'there' }]);
    const error = appError(() =>
      applyEdit(
        first.state,
        [{ type: 'replace', find: 'code here', occurrence: 1, with: 'x' }],
        counters('suggest'),
      ),
    );
    expect(error.code).toBe('nothing_to_suggest');
  });
});

describe('suggestion decisions', () => {
  it('refuses to accept a suggestion twice with 422 suggestion_closed', () => {
    const { state } = suggested([{ type: 'delete', find: 'sat' }]);
    const accepted = acceptSuggestion(state, 't1');
    const error = appError(() => acceptSuggestion(accepted, 't1'));
    expect(error.status).toBe(422);
    expect(error.code).toBe('suggestion_closed');
  });

  it('refuses to reject an accepted suggestion with suggestion_closed', () => {
    const { state } = suggested([{ type: 'delete', find: 'sat' }]);
    expect(appError(() => rejectSuggestion(acceptSuggestion(state, 't1'), 't1')).code).toBe(
      'suggestion_closed',
    );
  });

  it('refuses to accept a suggestion none of which is left with 422 suggestion_not_in_document', () => {
    const { state } = suggested([{ type: 'replace', find: 'sat', with: 'lay' }]);
    const edited = applyEdit(
      state,
      [{ type: 'delete', find: 'The cat satlay on the mat.' }],
      counters(),
    ).state;
    const error = appError(() => acceptSuggestion(edited, 't1'));
    expect(error.status).toBe(422);
    expect(error.code).toBe('suggestion_not_in_document');
    expect(appError(() => rejectSuggestion(edited, 't1')).code).toBe('suggestion_not_in_document');
  });

  it('refuses to accept a comment with 422 not_a_suggestion', () => {
    const commented = addComment(doc, { on: 'mat' }, 'c1');
    const error = appError(() => acceptSuggestion(commented, 'c1'));
    expect(error.status).toBe(422);
    expect(error.code).toBe('not_a_suggestion');
    expect(appError(() => rejectSuggestion(commented, 'c1')).code).toBe('not_a_suggestion');
    expect(appError(() => removeSuggestion(commented, 'c1')).code).toBe('not_a_suggestion');
  });

  it('refuses an unknown suggestion with 404 suggestion_not_found', () => {
    const error = appError(() => acceptSuggestion(doc, 'nope'));
    expect(error.status).toBe(404);
    expect(error.code).toBe('suggestion_not_found');
  });

  it('refuses to remove comment marks of a suggestion with 422 not_a_comment', () => {
    const { state } = suggested([{ type: 'delete', find: 'sat' }]);
    const error = appError(() => removeCommentMarks(state, 't1'));
    expect(error.status).toBe(422);
    expect(error.code).toBe('not_a_comment');
  });
});

describe('all or nothing', () => {
  it('leaves the state untouched when a later operation fails', () => {
    const before = JSON.stringify(doc);
    const error = appError(
      edit([
        { type: 'replace', find: 'sat', with: 'lay' },
        { type: 'delete', find: 'nowhere' },
      ]),
    );
    expect(error.extras.operation).toBe(1);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('leaves the state untouched when a suggestion fails', () => {
    const before = JSON.stringify(doc);
    appError(
      edit(
        [
          { type: 'delete', find: 'sat' },
          { type: 'set_document', markdown: '' },
        ],
        'suggest',
      ),
    );
    expect(JSON.stringify(doc)).toBe(before);
  });
});
