// Property tests of the engine: random edits never leave markdown that fails to read back, and anchors never move
// onto other text.
import fc from 'fast-check';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { addComment } from '../../../domain/document-engine/comments.js';
import { applyEdit } from '../../../domain/document-engine/engine.js';
import { parseMarkdown } from '../../../domain/document-engine/markdown.js';
import { schema } from '../../../domain/document-engine/schema.js';
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
import { counters, recipeArb, step } from './recipes.js';

const RUNS = Number(process.env.FOLIO_PROPERTY_RUNS ?? 300);
const TIMEOUT = 60_000 + RUNS * 100;

// Through the schema again, so text left with the same marks joins up as a parse would join it.
const withoutComments = (doc: PMNode) =>
  schema
    .nodeFromJSON(
      JSON.parse(
        JSON.stringify(doc.toJSON(), (key, value) =>
          key === 'marks' && Array.isArray(value)
            ? value.filter((mark: { type: string }) => mark.type !== 'comment')
            : value,
        ),
      ),
    )
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
        fc.property(
          markdownArb,
          fc.array(recipeArb(textArb, markdownArb, true), { minLength: 1, maxLength: 12 }),
          (start, recipes) => {
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
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'never produce markdown that fails to read back, from documents holding every construct',
    () => {
      const threads: DocumentState['threads'] = SUGGESTIONS.map((s) => ({
        id: s.id,
        kind: 'suggestion',
        ref: s.ref,
        status: 'open',
        resolution: null,
        format: null,
        blockType: null,
      }));
      fc.assert(
        fc.property(
          docArb,
          fc.array(recipeArb(textArb, markdownArb, true), { minLength: 1, maxLength: 8 }),
          (doc, recipes) => {
            let state = fromWorking({ doc, threads });
            const ids = counters(SUGGESTIONS.length + 1);
            expectReadsBack(state);
            for (const recipe of recipes) {
              state = step(state, recipe, ids, noForbidden);
              expectReadsBack(state);
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

// Anchored text uses letters nothing else in these runs can write, so any anchored character that is not one of
// them would be an anchor that moved onto other text.
const SAFE_WORDS = fc
  .array(fc.constantFrom(...'abcdefghij'), { minLength: 1, maxLength: 5 })
  .map((chars) => chars.join(''));
const safeText = fc
  .array(fc.oneof(SAFE_WORDS, fc.constantFrom(' ', ' ', '**', '*', '\n\n', '- ', '# ')), { maxLength: 6 })
  .map((parts) => parts.join(''));
const safeMarkdown = fc.array(SAFE_WORDS, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

function anchoredText(state: DocumentState, test: (type: string, thread: string) => boolean): string {
  let text = '';
  toWorking(state).doc.descendants((node) => {
    if (node.isText && node.marks.some((mark) => test(mark.type.name, String(mark.attrs.thread))))
      text += node.text;
  });
  return text;
}

describe('anchors', () => {
  it(
    'stay on their text or become detached, never on other text',
    () => {
      const base = fc
        .tuple(
          fc.array(SAFE_WORDS, { minLength: 1, maxLength: 6 }),
          fc.array(SAFE_WORDS, { minLength: 1, maxLength: 6 }),
          fc.boolean(),
        )
        .map(([a, b, split]) => `${a.join(' ')} QZ ${b.join(' ')}${split ? '\n\n' : ' '}XW ${a.join(' ')}`);
      fc.assert(
        fc.property(
          base,
          fc.array(recipeArb(safeText, safeMarkdown, false), { minLength: 1, maxLength: 12 }),
          (markdown, recipes) => {
            let state = addComment(stateFromMarkdown(markdown), { on: 'QZ' }, 'c1');
            state = applyEdit(state, [{ type: 'delete', find: 'XW' }], {
              mode: 'suggest',
              newThreadId: () => 's',
              nextRef: () => 1,
            }).state;
            const ids = counters();
            // set_document may not type inside the anchored words or the suggestion's markup.
            const forbidden = (md: string, at: number) => {
              const spans = [md.indexOf('QZ'), md.indexOf('{--XW')]
                .filter((i) => i >= 0)
                .map((i) => [i, md.indexOf(i === md.indexOf('QZ') ? 'Z' : '<<}', i) + 1]);
              return spans.some(([from, to]) => at > from! && at < to!);
            };
            let commentDetached = false;
            let suggestionDetached = false;
            for (const recipe of recipes) {
              state = step(state, recipe, ids, forbidden);
              expectReadsBack(state);
              const commented = anchoredText(state, (type, thread) => type === 'comment' && thread === 'c1');
              const suggested = anchoredText(
                state,
                (type, thread) => type.startsWith('suggest_') && thread === 's',
              );
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
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
