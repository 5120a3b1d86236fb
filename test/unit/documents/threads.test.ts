// Comments and suggestions as threads: anchoring, placement, and how edits and set_document move their anchors.
import { describe, expect, it } from 'vitest';
import { addComment, removeCommentMarks } from '../../../domain/document-engine/comments.js';
import { applyEdit } from '../../../domain/document-engine/engine.js';
import {
  acceptSuggestion,
  rejectSuggestion,
  removeSuggestion,
} from '../../../domain/document-engine/suggestions.js';
import {
  emptyDocumentState,
  renderMarkdown,
  stateFromMarkdown,
  threadPlacement,
  threadPlacements,
  type DocumentState,
} from '../../../domain/document-engine/state.js';
import { appError, counters } from './helpers.js';

const edit = (state: DocumentState, ops: unknown[]) => applyEdit(state, ops, counters()).state;
const suggest = (state: DocumentState, ops: unknown[]) => applyEdit(state, ops, counters('suggest'));

describe('document state', () => {
  it('starts empty', () => {
    expect(renderMarkdown(emptyDocumentState())).toBe('');
    expect(emptyDocumentState().threads).toEqual([]);
  });

  it('is plain JSON', () => {
    const { state } = suggest(addComment(stateFromMarkdown('**a** b c'), { on: 'b' }, 'c1'), [
      { type: 'delete', find: 'c' },
    ]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('reads back its own markdown with set_document as no change, suggestions and comments included', () => {
    let state = stateFromMarkdown('# Plan\n\nShip the *first* cut.\n\n- one\n- two');
    state = addComment(state, { on: 'first' }, 'c1');
    state = suggest(state, [{ type: 'replace', find: 'Ship', with: 'Send' }]).state;
    state = applyEdit(state, [{ type: 'insert', markdown: '- three', after: 'two' }], {
      ...counters('suggest'),
      newThreadId: () => 't2',
      nextRef: () => 2,
    }).state;
    const markdown = renderMarkdown(state);
    expect(markdown).toBe(
      '# Plan\n\n{~~Ship~>Send~~}{>>s1<<} the *first* cut.\n\n- one\n- two\n- {++¶++}{>>s2<<}{++three++}{>>s2<<}',
    );
    const after = edit(state, [{ type: 'set_document', markdown }]);
    expect(after).toEqual(state);
  });

  it('keeps the comment on an unchanged paragraph when set_document changes another', () => {
    const state = addComment(stateFromMarkdown('Keep this.\n\nChange this.'), { on: 'Keep' }, 'c1');
    const after = edit(state, [{ type: 'set_document', markdown: 'Keep this.\n\nChanged that.' }]);
    expect(threadPlacement(after, 'c1')).toMatchObject({ placement: 'attached', quote: 'Keep' });
  });

  it('keeps a comment on the unchanged part of a changed paragraph', () => {
    const state = addComment(stateFromMarkdown('The quick brown fox.'), { on: 'quick brown' }, 'c1');
    const after = edit(state, [{ type: 'set_document', markdown: 'The quick brown fox jumps.' }]);
    expect(threadPlacement(after, 'c1')).toMatchObject({ placement: 'attached', quote: 'quick brown' });
  });

  it('keeps a comment on an unchanged list item when another item changes', () => {
    const state = addComment(stateFromMarkdown('- alpha\n- beta'), { on: 'alpha' }, 'c1');
    const after = edit(state, [{ type: 'set_document', markdown: '- alpha\n- gamma\n- delta' }]);
    expect(threadPlacement(after, 'c1')).toMatchObject({ placement: 'attached', quote: 'alpha' });
  });

  it('lets set_document edit a suggestion it writes back', () => {
    const { state } = suggest(stateFromMarkdown('Hello world.'), [
      { type: 'replace', find: 'world', with: 'there' },
    ]);
    const after = edit(state, [{ type: 'set_document', markdown: 'Hi, {~~world~>there~~}{>>s1<<}.' }]);
    expect(renderMarkdown(after)).toBe('Hi, {~~world~>there~~}{>>s1<<}.');
    expect(renderMarkdown(acceptSuggestion(after, 't1'))).toBe('Hi, there.');
  });

  it('refuses CriticMarkup naming a suggestion that has left the document, so it never lands on other text', () => {
    const { state } = suggest(stateFromMarkdown('Hello world.'), [{ type: 'delete', find: 'world' }]);
    const gone = edit(state, [{ type: 'delete', find: 'Hello world.' }]);
    const error = appError(() => edit(gone, [{ type: 'set_document', markdown: 'Hi {--there--}{>>s1<<}' }]));
    expect(error.code).toBe('invalid_markdown');
  });

  it('leaves a suggestion with nothing in the document when set_document drops its markup', () => {
    const { state } = suggest(stateFromMarkdown('Hello world.'), [
      { type: 'replace', find: 'world', with: 'there' },
    ]);
    const after = edit(state, [{ type: 'set_document', markdown: 'Hello world.' }]);
    expect(threadPlacement(after, 't1').placement).toBe('detached');
  });
});

describe('comments', () => {
  const base = stateFromMarkdown('The quick brown fox jumps over the lazy dog.');

  it('anchors on the quoted text without showing in the markdown', () => {
    const state = addComment(base, { on: 'brown fox' }, 'c1');
    expect(renderMarkdown(state)).toBe('The quick brown fox jumps over the lazy dog.');
    expect(threadPlacement(state, 'c1')).toEqual({
      placement: 'attached',
      quote: 'brown fox',
      suggested_text: null,
      suggested_format: null,
    });
  });

  it('anchors on the whole document when on is absent', () => {
    const state = addComment(base, {}, 'c1');
    expect(threadPlacement(state, 'c1').placement).toBe('document');
  });

  it('picks an occurrence and narrows with before and after', () => {
    const state = stateFromMarkdown('the cat, the cat, the cat');
    expect(threadPlacement(addComment(state, { on: 'cat', occurrence: 'last' }, 'c1'), 'c1').quote).toBe(
      'cat',
    );
    expect(
      threadPlacement(addComment(state, { on: 'the cat', after: ', the cat, the' }, 'c1'), 'c1').placement,
    ).toBe('attached');
  });

  it('lets comments overlap', () => {
    let state = addComment(base, { on: 'quick brown' }, 'c1');
    state = addComment(state, { on: 'brown fox' }, 'c2');
    expect(threadPlacement(state, 'c1').quote).toBe('quick brown');
    expect(threadPlacement(state, 'c2').quote).toBe('brown fox');
  });

  it('follows its text when text before it changes', () => {
    const state = edit(addComment(base, { on: 'lazy dog' }, 'c1'), [
      { type: 'replace', find: 'quick', with: 'very quick' },
    ]);
    expect(threadPlacement(state, 'c1').quote).toBe('lazy dog');
  });

  it('covers text replaced inside it', () => {
    const state = edit(addComment(base, { on: 'quick brown fox' }, 'c1'), [
      { type: 'replace', find: 'brown', with: 'red' },
    ]);
    expect(threadPlacement(state, 'c1').quote).toBe('quick red fox');
  });

  it('does not spread onto text replacing its edge', () => {
    const state = edit(addComment(base, { on: 'quick brown' }, 'c1'), [
      { type: 'replace', find: 'brown fox', with: 'red cat' },
    ]);
    expect(threadPlacement(state, 'c1').quote).toBe('quick ');
  });

  it('is detached once all its text is deleted, and shows the text it was on', () => {
    const state = edit(addComment(base, { on: 'lazy' }, 'c1'), [{ type: 'delete', find: 'lazy' }]);
    expect(threadPlacement(state, 'c1')).toEqual({
      placement: 'detached',
      quote: 'lazy',
      suggested_text: null,
      suggested_format: null,
    });
  });

  it('is detached when its text is replaced whole', () => {
    const state = edit(addComment(base, { on: 'lazy' }, 'c1'), [
      { type: 'replace', find: 'lazy', with: 'sleepy' },
    ]);
    expect(threadPlacement(state, 'c1').placement).toBe('detached');
  });

  it('never re-attaches when the same text comes back', () => {
    let state = edit(addComment(base, { on: 'lazy' }, 'c1'), [{ type: 'delete', find: 'lazy' }]);
    state = edit(state, [{ type: 'set_document', markdown: 'The quick brown fox jumps over the lazy dog.' }]);
    expect(threadPlacement(state, 'c1').placement).toBe('detached');
  });

  it('goes with its marks when deleted', () => {
    const state = removeCommentMarks(addComment(base, { on: 'lazy' }, 'c1'), 'c1');
    expect(state.threads).toEqual([]);
    expect(JSON.stringify(state.doc)).not.toContain('comment');
  });

  it('anchors inside a code block', () => {
    const state = addComment(stateFromMarkdown('```\nlet x = 1;\n```'), { on: 'x = 1' }, 'c1');
    expect(threadPlacement(state, 'c1').quote).toBe('x = 1');
  });

  it('stays on a block kept whole when a neighbour is deleted', () => {
    const state = edit(addComment(stateFromMarkdown('One.\n\nTwo.\n\nThree.'), { on: 'Three' }, 'c1'), [
      { type: 'delete', find: 'Two.' },
    ]);
    expect(threadPlacement(state, 'c1').quote).toBe('Three');
  });

  it('spans blocks when its quote does', () => {
    const state = addComment(stateFromMarkdown('One end.\n\nTwo start.'), { on: 'end.\n\nTwo' }, 'c1');
    expect(threadPlacement(state, 'c1').quote).toBe('end.\nTwo');
  });
});

describe('suggestion placement', () => {
  const base = stateFromMarkdown('Hello world.\n\nEnd.');

  it('shows a replacement as its quote and suggested text', () => {
    const { state, suggestionThreadIds } = suggest(base, [
      { type: 'replace', find: 'world', with: '*there*' },
    ]);
    expect(suggestionThreadIds).toEqual(['t1']);
    expect(threadPlacement(state, 't1')).toEqual({
      placement: 'attached',
      quote: 'world',
      suggested_text: '*there*',
      suggested_format: null,
    });
  });

  it('shows an insertion as its quote and suggested text', () => {
    const { state } = suggest(base, [{ type: 'insert', markdown: 'New **one**.', after: 'Hello' }]);
    expect(threadPlacement(state, 't1')).toEqual({
      placement: 'attached',
      quote: 'New one.',
      suggested_text: 'New **one**.',
      suggested_format: null,
    });
  });

  it('shows a format change as the quote written with the new formatting', () => {
    const { state } = suggest(base, [{ type: 'replace', find: 'world', with: '<u>world</u>' }]);
    expect(threadPlacement(state, 't1')).toEqual({
      placement: 'attached',
      quote: 'world',
      suggested_text: null,
      suggested_format: '<u>world</u>',
    });
  });

  it('shows a removal as its quote', () => {
    const { state } = suggest(base, [{ type: 'delete', find: 'Hello ' }]);
    expect(threadPlacement(state, 't1')).toMatchObject({
      placement: 'attached',
      quote: 'Hello ',
      suggested_text: null,
    });
  });

  it('is detached once an edit removes all of it', () => {
    const { state } = suggest(base, [{ type: 'replace', find: 'world', with: 'there' }]);
    const edited = edit(state, [{ type: 'delete', find: 'Hello worldthere.' }]);
    expect(threadPlacement(edited, 't1').placement).toBe('detached');
  });

  it('closes on accept and remembers how', () => {
    const { state } = suggest(base, [{ type: 'delete', find: 'world' }]);
    const accepted = acceptSuggestion(state, 't1');
    expect(accepted.threads).toEqual([
      {
        id: 't1',
        kind: 'suggestion',
        ref: 1,
        status: 'closed',
        resolution: 'accepted',
        format: null,
        blockType: null,
      },
    ]);
    expect(rejectSuggestion(state, 't1').threads[0]).toMatchObject({
      status: 'closed',
      resolution: 'rejected',
    });
  });

  it('is forgotten when deleted', () => {
    const { state } = suggest(base, [{ type: 'delete', find: 'world' }]);
    expect(removeSuggestion(state, 't1').threads).toEqual([]);
  });

  it('lists every thread placement', () => {
    const { state } = suggest(addComment(base, {}, 'c1'), [{ type: 'delete', find: 'End.' }]);
    expect([...threadPlacements(state).entries()].map(([id, p]) => [id, p.placement])).toEqual([
      ['c1', 'document'],
      ['t1', 'attached'],
    ]);
  });

  it('treats an unknown thread as detached', () => {
    expect(threadPlacement(base, 'nope').placement).toBe('detached');
  });

  it('keeps an added suggestion text editable by a direct edit', () => {
    const { state } = suggest(base, [{ type: 'replace', find: 'world', with: 'big planet' }]);
    const edited = edit(state, [{ type: 'replace', find: 'big', with: 'huge' }]);
    expect(renderMarkdown(edited)).toBe('Hello {~~world~>huge planet~~}{>>s1<<}.\n\nEnd.');
  });
});

describe('block type suggestion', () => {
  // Made by the editor app rather than the API: a paragraph proposed to become a heading.
  const state: DocumentState = {
    version: 1,
    doc: {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          attrs: { suggestion: { kind: 'format', thread: 'b1' } },
          content: [{ type: 'text', text: 'Title' }],
        },
      ],
    },
    threads: [
      {
        id: 'b1',
        kind: 'suggestion',
        ref: 4,
        status: 'open',
        resolution: null,
        format: null,
        blockType: { type: 'heading', attrs: { level: 2 } },
      },
    ],
  };

  it('is written {==¶==} at the start of the block', () => {
    expect(renderMarkdown(state)).toBe('{==¶==}{>>s4<<}Title');
    expect(threadPlacement(state, 'b1')).toMatchObject({
      placement: 'attached',
      quote: 'Title',
      suggested_format: '## Title',
    });
  });

  it('changes the block type on accept', () => {
    expect(renderMarkdown(acceptSuggestion(state, 'b1'))).toBe('## Title');
  });

  it('leaves the block on reject', () => {
    expect(renderMarkdown(rejectSuggestion(state, 'b1'))).toBe('Title');
  });

  it('reads back through set_document', () => {
    expect(edit(state, [{ type: 'set_document', markdown: renderMarkdown(state) }])).toEqual(state);
  });
});
