// Property tests of the engine: random edits never leave markdown that fails to read back, and anchors never move
// onto other text.
import fc from 'fast-check';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { addComment } from '../../../domain/document-engine/comments.js';
import { applyEdit, type EditOptions } from '../../../domain/document-engine/engine.js';
import { parseMarkdown } from '../../../domain/document-engine/markdown.js';
import { schema } from '../../../domain/document-engine/schema.js';
import { acceptSuggestion, rejectSuggestion, removeSuggestion } from '../../../domain/document-engine/suggestions.js';
import {
  fromWorking,
  renderMarkdown,
  stateFromMarkdown,
  suggestionRefs,
  threadPlacement,
  toWorking,
  type DocumentState,
} from '../../../domain/document-engine/state.js';
import { docArb, markdownArb, SUGGESTIONS, textArb } from './arbitraries.js';

const RUNS = Number(process.env.FOLIO_PROPERTY_RUNS ?? 300);
const TIMEOUT = 60_000 + RUNS * 100;

type Recipe =
  | { kind: 'replace' | 'delete'; at: number; length: number; with: string; mode: 'edit' | 'suggest' }
  | { kind: 'insert'; markdown: string; anchor: 'start' | 'end' | 'quote' | 'heading' | 'section'; at: number; after: boolean; mode: 'edit' | 'suggest' }
  | { kind: 'set_document'; at: number; length: number; insertAt: number; text: string }
  | { kind: 'decide'; how: 'accept' | 'reject' | 'remove'; pick: number }
  | { kind: 'comment'; at: number; length: number };

const recipeArb = (text: fc.Arbitrary<string>, markdown: fc.Arbitrary<string>, suggestions: boolean): fc.Arbitrary<Recipe> => {
  const at = fc.double({ min: 0, max: 1, noNaN: true });
  const mode = suggestions ? fc.constantFrom<'edit' | 'suggest'>('edit', 'suggest') : fc.constant<'edit'>('edit');
  return fc.oneof(
    fc.record({ kind: fc.constantFrom<'replace' | 'delete'>('replace', 'delete'), at, length: fc.integer({ min: 1, max: 14 }), with: text, mode }),
    fc.record({ kind: fc.constant<'insert'>('insert'), markdown, anchor: fc.constantFrom<'start' | 'end' | 'quote' | 'heading' | 'section'>('start', 'end', 'quote', 'heading', 'section'), at, after: fc.boolean(), mode }),
    fc.record({ kind: fc.constant<'set_document'>('set_document'), at, length: fc.integer({ min: 0, max: 10 }), insertAt: at, text }),
    ...(suggestions
      ? [fc.record({ kind: fc.constant<'decide'>('decide'), how: fc.constantFrom<'accept' | 'reject' | 'remove'>('accept', 'reject', 'remove'), pick: at })]
      : []),
    fc.record({ kind: fc.constant<'comment'>('comment'), at, length: fc.integer({ min: 1, max: 10 }) }),
  );
};

function counters(firstRef = 1): { options: (mode: 'edit' | 'suggest') => EditOptions } {
  let ids = 0;
  let refs = firstRef - 1;
  return { options: (mode) => ({ mode, newThreadId: () => `t${++ids}`, nextRef: () => ++refs }) };
}

const slice = (text: string, at: number, length: number) => {
  const start = Math.min(text.length, Math.floor(at * text.length));
  return { start, text: text.slice(start, start + length) };
};

/** Applies one recipe; a refusal (an AppError) leaves the state as it was. */
function step(state: DocumentState, recipe: Recipe, ids: ReturnType<typeof counters>, forbidden: (md: string, at: number) => boolean): DocumentState {
  const markdown = renderMarkdown(state);
  try {
    switch (recipe.kind) {
      case 'replace':
      case 'delete': {
        const find = slice(markdown, recipe.at, recipe.length).text;
        if (!find) return state;
        const op = recipe.kind === 'replace' ? { type: 'replace', find, occurrence: 'first', with: recipe.with } : { type: 'delete', find, occurrence: 'first' };
        return applyEdit(state, [op], ids.options(recipe.mode)).state;
      }
      case 'insert': {
        const headings = markdown.split('\n').filter((line) => /^#{1,6} /.test(line)).map((line) => line.replace(/^#+ /, ''));
        const quote = slice(markdown, recipe.at, 8).text;
        const heading = headings[Math.floor(recipe.at * headings.length)];
        const anchor =
          recipe.anchor === 'quote' ? quote : recipe.anchor === 'heading' || recipe.anchor === 'section' ? (heading ? `${recipe.anchor}:${heading}` : 'end') : recipe.anchor;
        if (!anchor.trim()) return state;
        const op = { type: 'insert', markdown: recipe.markdown, [recipe.after ? 'after' : 'before']: anchor, occurrence: 'first' };
        return applyEdit(state, [op], ids.options(recipe.mode)).state;
      }
      case 'set_document': {
        const cut = slice(markdown, recipe.at, recipe.length);
        let next = markdown.slice(0, cut.start) + markdown.slice(cut.start + cut.text.length);
        let insertAt = Math.floor(recipe.insertAt * next.length);
        if (forbidden(next, insertAt)) insertAt = 0;
        next = next.slice(0, insertAt) + recipe.text + next.slice(insertAt);
        return applyEdit(state, [{ type: 'set_document', markdown: next }], ids.options('edit')).state;
      }
      case 'decide': {
        const open = state.threads.filter((thread) => thread.kind === 'suggestion' && thread.status === 'open');
        const thread = open[Math.floor(recipe.pick * open.length)];
        if (!thread) return state;
        if (recipe.how === 'accept') return acceptSuggestion(state, thread.id);
        if (recipe.how === 'reject') return rejectSuggestion(state, thread.id);
        return removeSuggestion(state, thread.id);
      }
      case 'comment': {
        const on = slice(markdown, recipe.at, recipe.length).text;
        if (!on) return state;
        return addComment(state, { on, occurrence: 'first' }, `c${state.threads.length + 1}-${recipe.at}`);
      }
    }
  } catch (error) {
    if (error instanceof AppError && error.status >= 400 && error.status < 500) return state;
    throw error;
  }
}

// Through the schema again, so text left with the same marks joins up as a parse would join it.
const withoutComments = (doc: PMNode) =>
  schema
    .nodeFromJSON(JSON.parse(JSON.stringify(doc.toJSON(), (key, value) => (key === 'marks' && Array.isArray(value) ? value.filter((mark: { type: string }) => mark.type !== 'comment') : value))))
    .toJSON();

/** The markdown of a state reads back as its document, and writes the same markdown again. */
function expectReadsBack(state: DocumentState) {
  const markdown = renderMarkdown(state);
  const working = toWorking(state);
  const back = parseMarkdown(markdown, { suggestionRefs: suggestionRefs(state.threads) });
  expect(back.toJSON(), markdown).toEqual(withoutComments(working.doc));
  for (const thread of state.threads) threadPlacement(state, thread.id);
}

const noForbidden = () => false;

describe('random edits', () => {
  it(
    'never produce markdown that fails to read back',
    () => {
      fc.assert(
        fc.property(markdownArb, fc.array(recipeArb(textArb, markdownArb, true), { minLength: 1, maxLength: 12 }), (start, recipes) => {
          let state: DocumentState;
          try {
            state = stateFromMarkdown(start);
          } catch {
            return;
          }
          const ids = counters();
          for (const recipe of recipes) {
            state = step(state, recipe, ids, noForbidden);
            expectReadsBack(state);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'never produce markdown that fails to read back, from documents holding every construct',
    () => {
      const threads: DocumentState['threads'] = SUGGESTIONS.map((s) => ({ id: s.id, kind: 'suggestion', ref: s.ref, status: 'open', resolution: null, format: null, blockType: null }));
      fc.assert(
        fc.property(docArb, fc.array(recipeArb(textArb, markdownArb, true), { minLength: 1, maxLength: 8 }), (doc, recipes) => {
          let state = fromWorking({ doc, threads });
          const ids = counters(SUGGESTIONS.length + 1);
          expectReadsBack(state);
          for (const recipe of recipes) {
            state = step(state, recipe, ids, noForbidden);
            expectReadsBack(state);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

// Anchored text uses letters nothing else in these runs can write, so any anchored character that is not one of
// them would be an anchor that moved onto other text.
const SAFE_WORDS = fc.array(fc.constantFrom(...'abcdefghij'), { minLength: 1, maxLength: 5 }).map((chars) => chars.join(''));
const safeText = fc.array(fc.oneof(SAFE_WORDS, fc.constantFrom(' ', ' ', '**', '*', '\n\n', '- ', '# ')), { maxLength: 6 }).map((parts) => parts.join(''));
const safeMarkdown = fc.array(SAFE_WORDS, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

function anchoredText(state: DocumentState, test: (type: string, thread: string) => boolean): string {
  let text = '';
  toWorking(state).doc.descendants((node) => {
    if (node.isText && node.marks.some((mark) => test(mark.type.name, String(mark.attrs.thread)))) text += node.text;
  });
  return text;
}

describe('anchors', () => {
  it(
    'stay on their text or become detached, never on other text',
    () => {
      const base = fc
        .tuple(fc.array(SAFE_WORDS, { minLength: 1, maxLength: 6 }), fc.array(SAFE_WORDS, { minLength: 1, maxLength: 6 }), fc.boolean())
        .map(([a, b, split]) => `${a.join(' ')} QZ ${b.join(' ')}${split ? '\n\n' : ' '}XW ${a.join(' ')}`);
      fc.assert(
        fc.property(base, fc.array(recipeArb(safeText, safeMarkdown, false), { minLength: 1, maxLength: 12 }), (markdown, recipes) => {
          let state = addComment(stateFromMarkdown(markdown), { on: 'QZ' }, 'c1');
          state = applyEdit(state, [{ type: 'delete', find: 'XW' }], { mode: 'suggest', newThreadId: () => 's', nextRef: () => 1 }).state;
          const ids = counters();
          // set_document may not type inside the anchored words or the suggestion's markup.
          const forbidden = (md: string, at: number) => {
            const spans = [md.indexOf('QZ'), md.indexOf('{--XW')].filter((i) => i >= 0).map((i) => [i, md.indexOf(i === md.indexOf('QZ') ? 'Z' : '<<}', i) + 1]);
            return spans.some(([from, to]) => at > from! && at < to!);
          };
          let commentDetached = false;
          let suggestionDetached = false;
          for (const recipe of recipes) {
            state = step(state, recipe, ids, forbidden);
            expectReadsBack(state);
            const commented = anchoredText(state, (type, thread) => type === 'comment' && thread === 'c1');
            const suggested = anchoredText(state, (type, thread) => type.startsWith('suggest_') && thread === 's');
            expect(commented).toMatch(/^[QZ]*$/);
            expect(suggested).toMatch(/^[XW]*$/);
            const comment = threadPlacement(state, 'c1').placement;
            const suggestion = threadPlacement(state, 's').placement;
            expect(comment === 'detached').toBe(commented === '');
            if (commentDetached) expect(comment).toBe('detached');
            if (suggestionDetached) expect(suggestion).toBe('detached');
            commentDetached = comment === 'detached';
            suggestionDetached = suggestion === 'detached';
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
