// The revision log's block-level deltas: random sequences of revisions and in-place changes are written as the
// database writer writes them (a snapshot once the diffs since the last one add up to a state, diffs otherwise,
// in-place changes appended to the current row), stored through a JSONB-like round trip, and every revision rebuilt
// must equal the state recorded for it, while the log stays within twice the size of the diffs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { addComment, applyEdit, removeCommentMarks } from '../../../domain/document-engine/index.js';
import { acceptSuggestion, rejectSuggestion } from '../../../domain/document-engine/suggestions.js';
import {
  renderMarkdown,
  stateFromMarkdown,
  type DocumentState,
  type NodeJSON,
  type ThreadAnchor,
} from '../../../domain/document-engine/state.js';
import {
  applySplices,
  diffSequence,
  diffStates,
  isEmptyDiff,
  rebuildState,
  revisionEntry,
  snapshotDue,
  type RevisionRow,
  type RevisionStep,
} from '../../../domain/documents/revision-log.js';
import { docArb } from './arbitraries.js';

const RUNS = Number(process.env.FOLIO_PROPERTY_RUNS ?? 100);
const TIMEOUT = 60_000 + RUNS * 300;

/** What PostgreSQL hands back for a JSONB value: the same JSON with keys reordered (shorter keys first). */
function throughJsonb<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const keys = Object.keys(item).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(keys.map((key) => [key, item[key]]));
  }) as T;
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * An in-memory log written the way appendRevision and amendRevision write the table. `expected[r]` is the state of
 * revision r as it last stood: what readRevisionState must give back.
 */
class MemoryLog {
  rows: RevisionRow[] = [];
  expected = new Map<number, DocumentState>();
  current: DocumentState;
  revision = 1;
  chain = { snapshotRevision: 1, bytes: 0 };
  /** Bytes the log stores after revision 1, and what the diffs alone would have stored. */
  stored = 0;
  diffs = 0;

  constructor(first: DocumentState) {
    this.current = first;
    this.rows.push(throughJsonb({ revision: 1, state: first, delta: [] }));
    this.expected.set(1, plain(first));
  }

  commit(next: DocumentState): void {
    this.revision++;
    const entry = revisionEntry(this.revision, this.chain, this.current, next);
    this.chain = entry.chain;
    this.stored += entry.bytes;
    this.diffs += entry.diffBytes;
    this.rows.push(
      throughJsonb({
        revision: this.revision,
        state: entry.state === null ? null : JSON.parse(entry.state),
        delta: JSON.parse(entry.delta) as RevisionStep[],
      }),
    );
    // The next write starts from the state as the log gives it back, through JSONB too.
    this.current = throughJsonb(next);
    this.expected.set(this.revision, plain(next));
  }

  amend(next: DocumentState): void {
    const diff = diffStates(this.current, next);
    if (!isEmptyDiff(diff)) {
      this.rows[this.rows.length - 1]!.delta.push(throughJsonb(diff));
      const bytes = Buffer.byteLength(JSON.stringify([diff]));
      this.chain = { ...this.chain, bytes: this.chain.bytes + bytes };
      this.stored += bytes;
      this.diffs += bytes;
    }
    this.current = throughJsonb(next);
    this.expected.set(this.revision, plain(next));
  }

  /** What readRevisionState selects: the nearest snapshot at or before `revision`, then every row up to it. */
  read(revision: number): DocumentState {
    let from = revision - 1;
    while (!this.rows[from]!.state) from--;
    return rebuildState(this.rows.slice(from, revision));
  }

  /** Snapshots never cost more than the diffs before them: at most twice the diffs, plus the last state. */
  expectBounded(): void {
    expect(this.stored).toBeLessThanOrEqual(2 * this.diffs + Buffer.byteLength(JSON.stringify(this.current)));
  }
}

function expectEveryRevisionRebuilds(log: MemoryLog): void {
  for (const [revision, state] of log.expected)
    expect(plain(log.read(revision)), `revision ${revision}`).toEqual(state);
  // The current revision reads as the current state.
  expect(plain(log.read(log.revision))).toEqual(plain(log.current));
  log.expectBounded();
}

describe('diffSequence', () => {
  it('turns any array into any other, with sorted splices that do not overlap', () => {
    const item = fc.oneof(
      fc.constantFrom('a', 'b', 'c', 'd', ''),
      fc.record({ t: fc.constantFrom('p', 'h'), n: fc.integer({ min: 0, max: 3 }) }),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), fc.array(item, { maxLength: 30 }), (a, b) => {
        const splices = diffSequence(a, b);
        expect(applySplices(a, splices)).toEqual(b);
        let end = 0;
        for (const splice of splices) {
          expect(splice.at).toBeGreaterThanOrEqual(end);
          expect(splice.remove + splice.insert.length).toBeGreaterThan(0);
          end = splice.at + splice.remove;
        }
        expect(end).toBeLessThanOrEqual(a.length);
      }),
      { numRuns: RUNS * 10 },
    );
  });

  it('keeps a change to two blocks far apart to those two blocks, even among repeated empty paragraphs', () => {
    const blocks = Array.from({ length: 1000 }, (_, i) =>
      i % 10 === 0
        ? { type: 'paragraph' }
        : { type: 'paragraph', content: [{ type: 'text', text: `p${i}` }] },
    );
    const next = blocks.slice();
    next[3] = { type: 'paragraph', content: [{ type: 'text', text: 'changed' }] };
    next.splice(900, 0, { type: 'horizontal_rule' });
    next.splice(500, 1);
    const splices = diffSequence(blocks, next);
    expect(applySplices(blocks, splices)).toEqual(next);
    expect(splices.reduce((sum, splice) => sum + splice.remove + splice.insert.length, 0)).toBe(4);
  });
});

// Synthetic states: random blocks (the engine's own generator) and thread anchors, changed by random steps.
const anchorArb: fc.Arbitrary<ThreadAnchor> = fc.oneof(
  fc.record({
    id: fc.constantFrom('c1', 'c2', 'c3'),
    kind: fc.constant('comment' as const),
    scope: fc.constantFrom('text' as const, 'document' as const),
    quote: fc.option(fc.string({ maxLength: 5 })),
  }),
  fc.record({
    id: fc.constantFrom('s1', 's2', 's3'),
    kind: fc.constant('suggestion' as const),
    ref: fc.integer({ min: 1, max: 9 }),
    status: fc.constantFrom('open' as const, 'closed' as const),
    resolution: fc.constantFrom('accepted' as const, 'rejected' as const, null),
    format: fc.constant(null),
    blockType: fc.constant(null),
  }),
);
const blocksArb = docArb.map((doc) => ((doc.toJSON() as NodeJSON).content ?? []) as NodeJSON[]);

interface Change {
  amend: boolean;
  blocks: { at: number; remove: number; insert: NodeJSON[]; duplicate: boolean }[];
  threads: { at: number; remove: number; insert: ThreadAnchor[] }[];
  attrs: boolean;
}

const changeArb: fc.Arbitrary<Change> = fc.record({
  amend: fc.boolean(),
  blocks: fc.array(
    fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: blocksArb, duplicate: fc.boolean() }),
    { maxLength: 3 },
  ),
  threads: fc.array(
    fc.record({ at: fc.nat(), remove: fc.nat({ max: 2 }), insert: fc.array(anchorArb, { maxLength: 2 }) }),
    { maxLength: 2 },
  ),
  attrs: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

function changed(state: DocumentState, change: Change): DocumentState {
  const blocks = [...(state.doc.content ?? [])];
  for (const edit of change.blocks) {
    const at = blocks.length ? edit.at % (blocks.length + 1) : 0;
    // Duplicates copy a block already there, so the diff meets repeated blocks.
    const insert = edit.duplicate && blocks.length ? [blocks[edit.at % blocks.length]!] : edit.insert;
    blocks.splice(at, edit.remove, ...insert);
  }
  const threads = [...state.threads];
  for (const edit of change.threads)
    threads.splice(threads.length ? edit.at % (threads.length + 1) : 0, edit.remove, ...edit.insert);
  const doc: NodeJSON = {
    type: 'doc',
    ...(change.attrs
      ? { attrs: { flipped: !state.doc.attrs?.flipped } }
      : state.doc.attrs
        ? { attrs: state.doc.attrs }
        : {}),
  };
  if (blocks.length) doc.content = blocks;
  return { version: 1, doc, threads };
}

describe('the revision log', () => {
  it(
    'rebuilds every revision of random change sequences across snapshot boundaries',
    () => {
      fc.assert(
        fc.property(blocksArb, fc.array(changeArb, { minLength: 1, maxLength: 80 }), (start, changes) => {
          const log = new MemoryLog({
            version: 1,
            doc: start.length ? { type: 'doc', content: start } : { type: 'doc' },
            threads: [],
          });
          for (const change of changes) {
            const next = changed(log.current, change);
            if (change.amend) log.amend(next);
            else log.commit(next);
          }
          expectEveryRevisionRebuilds(log);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'rebuilds every revision of random engine edits, suggestions, decisions and comments',
    () => {
      const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
      const recipeArb = fc.record({
        kind: fc.constantFrom('insert', 'replace', 'suggest', 'decide', 'comment', 'uncomment'),
        word: fc.constantFrom(...words),
        text: fc.constantFrom('one', 'two **bold**', '# Head', '- item', ''),
        pick: fc.double({ min: 0, max: 1, noNaN: true }),
        accept: fc.boolean(),
      });
      fc.assert(
        fc.property(fc.array(recipeArb, { minLength: 1, maxLength: 70 }), (recipes) => {
          const log = new MemoryLog(stateFromMarkdown(words.map((word) => `${word} text.`).join('\n\n')));
          let ids = 0;
          const options = (mode: 'edit' | 'suggest') => ({
            mode,
            newThreadId: () => `t${++ids}`,
            nextRef: () => ids + 100,
          });
          for (const recipe of recipes) {
            const state = log.current;
            const markdown = renderMarkdown(state);
            const present = words.filter((word) => markdown.includes(word));
            const word = present[Math.floor(recipe.pick * present.length)];
            try {
              if (recipe.kind === 'insert' && recipe.text) {
                log.commit(
                  applyEdit(
                    state,
                    [
                      {
                        type: 'insert',
                        after: word ?? 'end',
                        occurrence: 'first',
                        markdown: `${recipe.text} ${recipe.word}`,
                      },
                    ],
                    options('edit'),
                  ).state,
                );
              } else if ((recipe.kind === 'replace' || recipe.kind === 'suggest') && word) {
                const mode = recipe.kind === 'replace' ? 'edit' : 'suggest';
                log.commit(
                  applyEdit(
                    state,
                    [{ type: 'replace', find: word, occurrence: 'first', with: recipe.word }],
                    options(mode),
                  ).state,
                );
              } else if (recipe.kind === 'decide') {
                const open = state.threads.filter(
                  (thread) => thread.kind === 'suggestion' && thread.status === 'open',
                );
                const thread = open[Math.floor(recipe.pick * open.length)];
                if (thread)
                  log.commit(
                    recipe.accept ? acceptSuggestion(state, thread.id) : rejectSuggestion(state, thread.id),
                  );
              } else if (recipe.kind === 'comment' && word) {
                log.amend(addComment(state, { on: word, occurrence: 'first' }, `c${++ids}`));
              } else if (recipe.kind === 'uncomment') {
                const comments = state.threads.filter((thread) => thread.kind === 'comment');
                const thread = comments[Math.floor(recipe.pick * comments.length)];
                if (thread) log.amend(removeCommentMarks(state, thread.id));
              }
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
            }
          }
          expectEveryRevisionRebuilds(log);
        }),
        { numRuns: Math.max(10, RUNS / 5) },
      );
    },
    TIMEOUT,
  );

  it('stores about the size of a small edit of a large document, and a snapshot once the diffs add up to a state', () => {
    const markdown = Array.from(
      { length: 1000 },
      (_, i) => `Paragraph ${i} with some words to make it longer than a line of text.`,
    ).join('\n\n');
    const log = new MemoryLog(stateFromMarkdown(markdown));
    const options = { mode: 'edit' as const, newThreadId: () => 'x', nextRef: () => 1 };
    for (let i = 2; i <= 60; i++) {
      log.commit(
        applyEdit(
          log.current,
          [{ type: 'replace', find: `Paragraph ${i * 7} with`, with: `Paragraph ${i * 7} now with` }],
          options,
        ).state,
      );
    }
    const whole = Buffer.byteLength(JSON.stringify(log.current));
    expect(whole).toBeGreaterThan(100_000);
    // Each revision stores one paragraph's diff, a few hundred bytes of a state over 100 KB; no snapshot yet.
    expect(
      log.rows
        .slice(1)
        .every((row) => row.state === null && Buffer.byteLength(JSON.stringify(row.delta)) < 400),
    ).toBe(true);
    expect(log.stored).toBeLessThan(60 * 400);
    expectEveryRevisionRebuilds(log);
  }, 120_000);

  it('takes a snapshot for a diff of half the state or more, and once the diffs since the last one, this one included, add up to the state', () => {
    const chain = { snapshotRevision: 7, bytes: 900 };
    expect(snapshotDue(chain, 99, 1000)).toBe(false);
    expect(snapshotDue(chain, 100, 1000)).toBe(true);
    // A diff of half the state or more is stored as the state, starting a fresh chain.
    expect(snapshotDue({ snapshotRevision: 9, bytes: 0 }, 499, 1000)).toBe(false);
    expect(snapshotDue({ snapshotRevision: 9, bytes: 0 }, 500, 1000)).toBe(true);
    // A small document takes them often, a large one rarely; both stay within twice the diffs.
    const filler = Array.from({ length: 8 }, (_, i) => `Filler paragraph ${i}.`).join('\n\n');
    const log = new MemoryLog(stateFromMarkdown(`${filler}\n\nCounter 0.`));
    const options = { mode: 'edit' as const, newThreadId: () => 'x', nextRef: () => 1 };
    for (let i = 1; i <= 30; i++)
      log.commit(
        applyEdit(
          log.current,
          [{ type: 'replace', find: `Counter ${i - 1}.`, with: `Counter ${i}.` }],
          options,
        ).state,
      );
    const snapshots = log.rows.filter((row) => row.state).map((row) => row.revision);
    expect(snapshots.length).toBeGreaterThanOrEqual(3);
    expect(log.rows.some((row) => row.state === null)).toBe(true);
    expectEveryRevisionRebuilds(log);
  });
});
