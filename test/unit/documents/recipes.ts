// Random edit recipes for the property tests: what to do, picked by fast-check, and how to do it to a state.
import fc from 'fast-check';
import { AppError } from '../../../domain/errors.js';
import { addComment } from '../../../domain/document-engine/comments.js';
import { applyEdit, type EditOptions } from '../../../domain/document-engine/engine.js';
import {
  acceptSuggestion,
  rejectSuggestion,
  removeSuggestion,
} from '../../../domain/document-engine/suggestions.js';
import { renderMarkdown, type DocumentState } from '../../../domain/document-engine/state.js';

/** How an edit's operations are applied to a state: applyEdit, unless a test routes them another way. */
export type ApplyEdit = (state: DocumentState, operations: unknown[], options: EditOptions) => DocumentState;

const coldEdit: ApplyEdit = (state, operations, options) => applyEdit(state, operations, options).state;

export type Recipe =
  | { kind: 'replace' | 'delete'; at: number; length: number; with: string; mode: 'edit' | 'suggest' }
  | {
      kind: 'insert';
      markdown: string;
      anchor: 'start' | 'end' | 'quote' | 'heading' | 'section';
      at: number;
      after: boolean;
      mode: 'edit' | 'suggest';
    }
  | { kind: 'set_document'; at: number; length: number; insertAt: number; text: string }
  | { kind: 'decide'; how: 'accept' | 'reject' | 'remove'; pick: number }
  | { kind: 'comment'; at: number; length: number };

export const recipeArb = (
  text: fc.Arbitrary<string>,
  markdown: fc.Arbitrary<string>,
  suggestions: boolean,
): fc.Arbitrary<Recipe> => {
  const at = fc.double({ min: 0, max: 1, noNaN: true });
  const mode = suggestions
    ? fc.constantFrom<'edit' | 'suggest'>('edit', 'suggest')
    : fc.constant<'edit'>('edit');
  return fc.oneof(
    fc.record({
      kind: fc.constantFrom<'replace' | 'delete'>('replace', 'delete'),
      at,
      length: fc.integer({ min: 1, max: 14 }),
      with: text,
      mode,
    }),
    fc.record({
      kind: fc.constant<'insert'>('insert'),
      markdown,
      anchor: fc.constantFrom<'start' | 'end' | 'quote' | 'heading' | 'section'>(
        'start',
        'end',
        'quote',
        'heading',
        'section',
      ),
      at,
      after: fc.boolean(),
      mode,
    }),
    fc.record({
      kind: fc.constant<'set_document'>('set_document'),
      at,
      length: fc.integer({ min: 0, max: 10 }),
      insertAt: at,
      text,
    }),
    ...(suggestions
      ? [
          fc.record({
            kind: fc.constant<'decide'>('decide'),
            how: fc.constantFrom<'accept' | 'reject' | 'remove'>('accept', 'reject', 'remove'),
            pick: at,
          }),
        ]
      : []),
    fc.record({ kind: fc.constant<'comment'>('comment'), at, length: fc.integer({ min: 1, max: 10 }) }),
  );
};

export function counters(firstRef = 1): { options: (mode: 'edit' | 'suggest') => EditOptions } {
  let ids = 0;
  let refs = firstRef - 1;
  return { options: (mode) => ({ mode, newThreadId: () => `t${++ids}`, nextRef: () => ++refs }) };
}

const slice = (text: string, at: number, length: number) => {
  const start = Math.min(text.length, Math.floor(at * text.length));
  return { start, text: text.slice(start, start + length) };
};

/** Applies one recipe; a refusal (an AppError) leaves the state as it was. Edits go through `edit`. */
export function step(
  state: DocumentState,
  recipe: Recipe,
  ids: ReturnType<typeof counters>,
  forbidden: (md: string, at: number) => boolean,
  edit: ApplyEdit = coldEdit,
  markdown = renderMarkdown(state),
): DocumentState {
  try {
    switch (recipe.kind) {
      case 'replace':
      case 'delete': {
        const find = slice(markdown, recipe.at, recipe.length).text;
        if (!find) return state;
        const op =
          recipe.kind === 'replace'
            ? { type: 'replace', find, occurrence: 'first', with: recipe.with }
            : { type: 'delete', find, occurrence: 'first' };
        return edit(state, [op], ids.options(recipe.mode));
      }
      case 'insert': {
        const headings = markdown
          .split('\n')
          .filter((line) => /^#{1,6} /.test(line))
          .map((line) => line.replace(/^#+ /, ''));
        const quote = slice(markdown, recipe.at, 8).text;
        const heading = headings[Math.floor(recipe.at * headings.length)];
        const anchor =
          recipe.anchor === 'quote'
            ? quote
            : recipe.anchor === 'heading' || recipe.anchor === 'section'
              ? heading
                ? `${recipe.anchor}:${heading}`
                : 'end'
              : recipe.anchor;
        if (!anchor.trim()) return state;
        const op = {
          type: 'insert',
          markdown: recipe.markdown,
          [recipe.after ? 'after' : 'before']: anchor,
          occurrence: 'first',
        };
        return edit(state, [op], ids.options(recipe.mode));
      }
      case 'set_document': {
        const cut = slice(markdown, recipe.at, recipe.length);
        let next = markdown.slice(0, cut.start) + markdown.slice(cut.start + cut.text.length);
        let insertAt = Math.floor(recipe.insertAt * next.length);
        if (forbidden(next, insertAt)) insertAt = 0;
        next = next.slice(0, insertAt) + recipe.text + next.slice(insertAt);
        return edit(state, [{ type: 'set_document', markdown: next }], ids.options('edit'));
      }
      case 'decide': {
        const open = state.threads.filter(
          (thread) => thread.kind === 'suggestion' && thread.status === 'open',
        );
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
