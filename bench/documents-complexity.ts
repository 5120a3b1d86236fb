// Benchmark: the document engine's work on the inputs issue 14 found quadratic, at two sizes ten times apart.
//
//   node --import tsx bench/documents-complexity.ts
//
// For each case it prints the engine's inner-loop steps (domain/document-engine/steps.ts) and the wall time at n and
// 10n, and their ratios: linear work shows a step ratio near 10. FOLIO_BENCH_SCALE (default 1) multiplies every n;
// FOLIO_BENCH_CASES (comma-separated names) picks cases. The complexity unit tests assert the same on smaller inputs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { addComment } from '../domain/document-engine/comments.js';
import { parseMarkdown } from '../domain/document-engine/markdown.js';
import { textReading } from '../domain/document-engine/quotes.js';
import {
  stateFromMarkdown,
  toWorking,
  type DocumentState,
  type NodeJSON,
  type ThreadAnchor,
} from '../domain/document-engine/state.js';
import { steps } from '../domain/document-engine/steps.js';
import { WorkingDocument } from '../domain/document-engine/working-document.js';
import { placeThreads, type ThreadRecord } from '../domain/documents/threads.js';
import { say } from './support.js';

const SCALE = Number(process.env.FOLIO_BENCH_SCALE ?? 1);
const PICK = process.env.FOLIO_BENCH_CASES?.split(',');

/** A document of n paragraphs, each with a comment and every other one with a suggestion, and its thread records. */
function threaded(n: number): { state: DocumentState; records: ThreadRecord[] } {
  const content: NodeJSON[] = [];
  const threads: ThreadAnchor[] = [];
  for (let i = 0; i < n; i++) {
    const inline: NodeJSON[] = [
      { type: 'text', text: `Paragraph ${i} has ` },
      { type: 'text', text: `word ${i}`, marks: [{ type: 'comment', attrs: { thread: `c${i}` } }] },
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
  return { state: { version: 1, doc: { type: 'doc', content }, threads }, records };
}

const attempt = (run: () => unknown) => {
  try {
    run();
  } catch {
    // A refusal (target_ambiguous, invalid_markdown) is an answer: its work counts all the same.
  }
};

interface Case {
  name: string;
  what: string;
  n: number;
  /** Builds the input (not measured) and answers the measured run. */
  prepare(n: number): () => unknown;
}

const cases: Case[] = [
  {
    name: 'open',
    what: 'parse `{++` × n',
    n: 10_000,
    prepare: (n) => () => attempt(() => parseMarkdown('{++'.repeat(n))),
  },
  {
    name: 'nested',
    what: 'parse `{++` × n/2 then `--}` × n/2',
    n: 10_000,
    prepare: (n) => () => attempt(() => parseMarkdown(`${'{++'.repeat(n / 2)}${'--}'.repeat(n / 2)}`)),
  },
  {
    name: 'letter',
    what: 'comment on "e" in a paragraph of n "ex " (ambiguous)',
    n: 10_000,
    prepare: (n) => {
      const state = stateFromMarkdown('ex '.repeat(n).trim());
      return () => attempt(() => addComment(state, { on: 'e' }, 'c1'));
    },
  },
  {
    name: 'placement',
    what: 'place n threads on n paragraphs (a content read)',
    n: 1_000,
    prepare: (n) => {
      const { state, records } = threaded(n);
      return () => placeThreads(records, WorkingDocument.open(state));
    },
  },
  {
    name: 'text',
    what: 'text reading of n short paragraphs',
    n: 10_000,
    prepare: (n) => {
      const doc = toWorking(
        stateFromMarkdown(Array.from({ length: n }, (_, i) => `Line ${i} with *some* text`).join('\n\n')),
      ).doc;
      return () => textReading(doc, { find: 'with some' });
    },
  },
];

function measure(testCase: Case, n: number) {
  const run = testCase.prepare(n);
  steps.count = 0;
  const start = performance.now();
  run();
  return { steps: steps.count, ms: performance.now() - start };
}

// Warm up on small inputs so the first size does not pay for compilation.
for (const testCase of cases) measure(testCase, 100);

for (const testCase of cases) {
  if (PICK && !PICK.includes(testCase.name)) continue;
  const n = testCase.n * SCALE;
  const small = measure(testCase, n);
  const large = measure(testCase, 10 * n);
  say(
    `${testCase.name.padEnd(10)} ${testCase.what}\n` +
      `           n=${n}: ${small.steps} steps, ${small.ms.toFixed(0)} ms   n=${10 * n}: ${large.steps} steps, ${large.ms.toFixed(0)} ms` +
      `   ratio: steps ${(large.steps / small.steps).toFixed(1)}×, time ${(large.ms / small.ms).toFixed(1)}×`,
  );
}

// Memory the text reading keeps per character of its string.
if (!PICK || PICK.includes('text')) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const doc = toWorking(
    stateFromMarkdown(
      Array.from({ length: 100_000 * SCALE }, (_, i) => `Line ${i} with *some* text`).join('\n\n'),
    ),
  ).doc;
  gc();
  const before = process.memoryUsage().heapUsed;
  const reading = textReading(doc, { find: 'with some' });
  gc();
  say(
    `text       keeps ${((process.memoryUsage().heapUsed - before) / reading.haystack.length).toFixed(1)} bytes per character (${reading.haystack.length} characters)`,
  );
}
