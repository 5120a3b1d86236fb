// The working-document cache's path (a document parsed once and edited again and again, as the API keeps it per
// revision) against the cold path (the state read back from its stored JSON and parsed afresh for every step): after
// every step both hold the same state, the same markdown and the same placements, refuse the same operations, and the
// revision log's diff between cached states rebuilds the cold one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { applyEdit } from '../../../domain/document-engine/engine.js';
import { parseOperations } from '../../../domain/document-engine/operations.js';
import {
  fromWorking,
  renderMarkdown,
  stateFromMarkdown,
  threadPlacements,
  type DocumentState,
} from '../../../domain/document-engine/state.js';
import { WorkingDocument } from '../../../domain/document-engine/working-document.js';
import { applyStep, diffStates, stateBytes, stateJson } from '../../../domain/documents/revision-log.js';
import { docArb, markdownArb, SUGGESTIONS, textArb } from './arbitraries.js';
import { counters, recipeArb, step, type ApplyEdit } from './recipes.js';

const RUNS = Number(process.env.FOLIO_PROPERTY_RUNS ?? 300);
const TIMEOUT = 60_000 + RUNS * 200;

/** A state as the database gives it back: its stored JSON, read again. */
const stored = (state: DocumentState): DocumentState => JSON.parse(stateJson(state)) as DocumentState;

/** The cached path: every state it made maps to the working document that made it, kept warm as the API keeps it. */
function cachedPath() {
  const documents = new WeakMap<DocumentState, WorkingDocument>();
  const documentOf = (state: DocumentState) => {
    let document = documents.get(state);
    if (!document) {
      // A state made by accept, reject, delete or a comment: the API parses it once and keeps it.
      document = WorkingDocument.open(state);
      documents.set(state, document);
    }
    // Read as a request would, so the next edit finds its block strings, units and placements made.
    void document.markdown;
    document.placements(state.threads.map((thread) => thread.id));
    return document;
  };
  const edit: ApplyEdit = (state, operations, options) => {
    const { document } = documentOf(state).edit(parseOperations(operations, options.mode), options);
    documents.set(document.state, document);
    return document.state;
  };
  return { documentOf, edit };
}

/** Both paths agree on a state: JSON, markdown, placements, and the log's diff from the previous cached state. */
function expectSame(
  previousCached: DocumentState,
  cached: DocumentState,
  previousCold: DocumentState,
  cold: DocumentState,
  documentOf: (state: DocumentState) => WorkingDocument,
) {
  expect(stored(cached)).toEqual(stored(cold));
  const document = documentOf(cached);
  expect(document.markdown).toBe(renderMarkdown(cold));
  const ids = cold.threads.map((thread) => thread.id);
  expect(document.placements(ids)).toEqual(threadPlacements(cold, ids));
  expect(stored(applyStep(stored(previousCold), diffStates(previousCached, cached)))).toEqual(stored(cold));
}

function runBoth(start: DocumentState, recipes: Parameters<typeof step>[1][], firstRef = 1) {
  const cold = { state: stored(start), ids: counters(firstRef) };
  const cached = { state: start, ids: counters(firstRef), ...cachedPath() };
  for (const recipe of recipes) {
    const previousCold = cold.state;
    const previousCached = cached.state;
    cold.state = stored(step(stored(cold.state), recipe, cold.ids, () => false));
    cached.state = step(
      cached.state,
      recipe,
      cached.ids,
      () => false,
      cached.edit,
      cached.documentOf(cached.state).markdown,
    );
    expectSame(previousCached, cached.state, previousCold, cold.state, cached.documentOf);
  }
}

describe('the cached working document', () => {
  it(
    'agrees with a cold parse after every step of random edits',
    () => {
      fc.assert(
        fc.property(
          markdownArb,
          fc.array(recipeArb(textArb, markdownArb, true), { minLength: 1, maxLength: 12 }),
          (markdown, recipes) => {
            let start: DocumentState;
            try {
              start = stateFromMarkdown(markdown);
            } catch {
              return;
            }
            runBoth(start, recipes);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'agrees with a cold parse on documents holding every construct',
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
            runBoth(fromWorking({ doc, threads }), recipes, SUGGESTIONS.length + 1);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it('refuses what the cold path refuses, with the same error, and is left as it was', () => {
    const start = stateFromMarkdown('# Title\n\nSome text, and some more text.\n\n- one\n- two');
    const document = WorkingDocument.open(start);
    const before = document.markdown;
    const attempts: unknown[][] = [
      [{ type: 'replace', find: 'absent', with: 'x' }],
      [{ type: 'replace', find: 'text', with: 'x' }],
      [
        { type: 'replace', find: 'Some', with: 'Any' },
        { type: 'delete', find: 'missing' },
      ],
      [{ type: 'replace', find: 'Title\n\nSome', with: 'x' }],
    ];
    for (const operations of attempts) {
      const error = (run: () => unknown) => {
        try {
          run();
        } catch (caught) {
          expect(caught).toBeInstanceOf(AppError);
          return {
            code: (caught as AppError).code,
            status: (caught as AppError).status,
            message: (caught as AppError).message,
          };
        }
        throw new Error(`expected ${JSON.stringify(operations)} to be refused`);
      };
      const cold = error(() => applyEdit(stored(start), operations, counters().options('edit')));
      expect(
        error(() => document.edit(parseOperations(operations, 'edit'), counters().options('edit'))),
      ).toEqual(cold);
      expect(document.markdown).toBe(before);
      expect(stored(document.state)).toEqual(stored(start));
    }
  });

  it('shares the JSON of the blocks an edit kept, so the new state writes and diffs only what changed', () => {
    const markdown = Array.from({ length: 50 }, (_, i) => `Paragraph ${i} with **bold** text.`).join('\n\n');
    const document = WorkingDocument.open(stored(stateFromMarkdown(markdown)));
    const { document: next } = document.edit(
      parseOperations([{ type: 'replace', find: 'Paragraph 25 ', with: 'Changed 25 ' }], 'edit'),
      counters().options('edit'),
    );
    const before = document.state.doc.content!;
    const after = next.state.doc.content!;
    expect(after.filter((block, i) => block !== before[i]).length).toBe(1);
    expect(diffStates(document.state, next.state).blocks).toEqual([
      { at: 25, remove: 1, insert: [after[25]] },
    ]);
    expect(JSON.parse(stateJson(next.state))).toEqual(JSON.parse(JSON.stringify(next.state)));
    for (const state of [next.state, document.state, stateFromMarkdown(''), stateFromMarkdown('Ünïcode ✓')]) {
      expect(stateBytes(state)).toBe(Buffer.byteLength(JSON.stringify(state)));
    }
  });
});
