// Linear work on every input (issue 14): each case grows its input tenfold and checks the engine's inner-loop steps
// (domain/document-engine/steps.ts) grow at most fifteenfold. Steps, not time: a busy machine cannot fail these.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { addComment } from '../../../domain/document-engine/comments.js';
import { parseMarkdown } from '../../../domain/document-engine/markdown.js';
import { textReading } from '../../../domain/document-engine/quotes.js';
import {
  stateFromMarkdown,
  threadPlacements,
  toWorking,
  type DocumentState,
  type NodeJSON,
  type ThreadAnchor,
} from '../../../domain/document-engine/state.js';
import { steps } from '../../../domain/document-engine/steps.js';
import { WorkingDocument } from '../../../domain/document-engine/working-document.js';
import { placeThreads, type ThreadRecord } from '../../../domain/documents/threads.js';
import { appError } from './helpers.js';

/** The steps one run takes. */
function stepsOf(run: () => unknown): number {
  steps.count = 0;
  run();
  return steps.count;
}

/** Runs `make(n)` at n and 10n and checks the work grows at most 15× (and that it is counted at all). */
function expectLinear(n: number, run: (n: number) => unknown) {
  const small = stepsOf(() => run(n));
  const large = stepsOf(() => run(10 * n));
  expect(small).toBeGreaterThan(0);
  expect(large / small, `steps at n=${n}: ${small}, at n=${10 * n}: ${large}`).toBeLessThanOrEqual(15);
}

describe('the CriticMarkup reader', { timeout: 120_000 }, () => {
  it('reads an unclosed opener repeated n times in linear steps', () => {
    expectLinear(2_000, (n) => parseMarkdown('{++'.repeat(n)));
  });

  it('reads openers of every kind followed by closers of another kind in linear steps', () => {
    // Each {++ ends only at a ++}, but a nested span closes at any closer: the old scan walked to the end each time.
    expectLinear(1_000, (n) => parseMarkdown(`${'{++'.repeat(n)}${'--}'.repeat(n)}`));
  });

  it('reads notes and code spans inside unclosed openers in linear steps', () => {
    expectLinear(1_000, (n) => parseMarkdown('{++ `a` ``b {>>note \\{ x'.repeat(n)));
  });
});

/** One paragraph of n letters `e` between other letters. */
const letters = (n: number) => stateFromMarkdown('ex '.repeat(n).trim());

describe('quote matching', { timeout: 120_000 }, () => {
  it('matches a one-letter quote on a long paragraph in linear steps, listing 50 candidates and truncated', () => {
    expectLinear(2_000, (n) => appError(() => addComment(letters(n), { on: 'e' }, 'c1')));
    const error = appError(() => addComment(letters(20_000), { on: 'e' }, 'c1'));
    expect(error.code).toBe('target_ambiguous');
    expect(error.extras.candidates).toHaveLength(50);
    expect(error.extras.truncated).toBe(true);
  });

  it('anchors a comment on one letter of a long paragraph by occurrence in linear steps', () => {
    expectLinear(2_000, (n) => addComment(letters(n), { on: 'e', occurrence: n }, 'c1'));
  });

  it('narrows a one-letter quote with a long before and after in linear steps', () => {
    // n matches, each checked against a before and an after a tenth of the paragraph long.
    expectLinear(1_000, (n) => {
      const context = 'ab'.repeat(n / 10);
      return addComment(
        stateFromMarkdown('ab'.repeat(n)),
        { on: 'b', before: `${context}a`, after: context, occurrence: 'last' },
        'c1',
      );
    });
  });

  it('matches a one-letter quote found only in the text reading in linear steps', () => {
    // "x y" is not in the markdown "x *y*": it is found in the text reading.
    const split = (n: number) => stateFromMarkdown('x *y* '.repeat(n).trim());
    expectLinear(1_000, (n) => addComment(split(n), { on: 'x y', occurrence: 'last' }, 'c1'));
  });
});

/** A document of n paragraphs, each with a comment and every other one with a suggestion, and its thread records. */
function threaded(n: number): { state: DocumentState; records: ThreadRecord[] } {
  const content: NodeJSON[] = [];
  const threads: ThreadAnchor[] = [];
  for (let i = 0; i < n; i++) {
    const marks = [{ type: 'comment', attrs: { thread: `c${i}` } }];
    const inline: NodeJSON[] = [
      { type: 'text', text: `Paragraph ${i} has ` },
      { type: 'text', text: `word ${i}`, marks },
    ];
    threads.push({ id: `c${i}`, kind: 'comment', scope: 'text', quote: `word ${i}` });
    if (i % 2 === 0) {
      inline.push({
        type: 'text',
        text: ' and more',
        marks: [{ type: 'suggest_insert', attrs: { thread: `s${i}` } }],
      });
      threads.push({
        id: `s${i}`,
        kind: 'suggestion',
        ref: i + 1,
        status: 'open',
        resolution: null,
        format: null,
        blockType: null,
      });
    }
    content.push({ type: 'paragraph', content: inline });
  }
  const state: DocumentState = { version: 1, doc: { type: 'doc', content }, threads };
  const person = { uuid: 'u', first_name: null, last_name: null };
  const records = threads.map((thread) => ({
    uuid: thread.id,
    kind: thread.kind,
    ref: thread.kind === 'suggestion' ? thread.ref : null,
    status: 'open' as const,
    author: person,
    created_at: new Date(0),
    messages: [],
  }));
  return { state, records };
}

describe('thread placement', { timeout: 120_000 }, () => {
  it('places n threads on a document of n paragraphs in linear steps', () => {
    expectLinear(100, (n) => {
      const { state, records } = threaded(n);
      return placeThreads(records, WorkingDocument.open(state));
    });
  });

  it('places every thread where the one-at-a-time placement does', () => {
    const { state, records } = threaded(7);
    const views = placeThreads(records, WorkingDocument.open(state));
    expect(views.find((view) => view.uuid === 'c3')?.placement).toEqual({
      placement: 'attached',
      quote: 'word 3',
      suggested_text: null,
      suggested_format: null,
    });
    expect(views.find((view) => view.uuid === 's4')?.placement).toEqual({
      placement: 'attached',
      quote: ' and more',
      suggested_text: ' and more',
      suggested_format: null,
    });
    expect([...threadPlacements(state).keys()]).toHaveLength(records.length);
  });
});

describe('the text reading', { timeout: 120_000 }, () => {
  /** A document of n short paragraphs with some markup. */
  const doc = (n: number) =>
    toWorking(
      stateFromMarkdown(Array.from({ length: n }, (_, i) => `Line ${i} with *some* text`).join('\n\n')),
    ).doc;

  it('is built in linear steps', () => {
    expectLinear(1_000, (n) => textReading(doc(n), { find: 'with some' }));
  });

  it('keeps a compact form: a string and offsets, not an object per character', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const big = doc(20_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    const reading = textReading(big, { find: 'with some' });
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(reading.haystack.length).toBeGreaterThan(400_000);
    // Before: ~90 bytes a character (an array slot and a {from, to} object each, and a string built a character
    // at a time). A string and two 32-bit offsets a character is about 10.
    expect(retained / reading.haystack.length).toBeLessThan(24);
  });
});
