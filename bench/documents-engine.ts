// Benchmark: the document engine alone (no HTTP, no database) on documents of 10 KB, 100 KB and 1 MB of markdown.
//
//   node --import tsx bench/documents-engine.ts
//
// Each iteration starts from a fresh copy of the stored JSON state, as a request that loads it from the database
// does, then times applyEdit of one operation (a replace, or an insert), and renderMarkdown of the result (what the
// API returns). FOLIO_BENCH_RUNS (default 20) iterations per size; FOLIO_BENCH_SIZES (KB, default 10,100,1024).
// The code is warmed up on another document first. "first" is the first edit of a document the process has not
// seen (nothing of it cached); p50 and p90 are over the runs after it, as when one document is edited repeatedly.
import {
  applyEdit,
  renderMarkdown,
  stateFromMarkdown,
  type DocumentState,
} from '../domain/document-engine/index.js';
import { percentile, sampleMarkdown, say } from './support.js';

const RUNS = Number(process.env.FOLIO_BENCH_RUNS ?? 20);
const SIZES = (process.env.FOLIO_BENCH_SIZES ?? '10,100,1024').split(',').map(Number);

const ms = (value: number) => `${value.toFixed(1)} ms`;

function measure(label: string, stored: string, operation: unknown, quiet = false) {
  const edit: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const state = JSON.parse(stored) as DocumentState;
    const t0 = performance.now();
    const result = applyEdit(state, [operation], { mode: 'edit', newThreadId: () => 't', nextRef: () => 1 });
    const t1 = performance.now();
    renderMarkdown(result.state);
    const t2 = performance.now();
    edit.push(t1 - t0);
    total.push(t2 - t0);
  }
  if (quiet) return;
  const firstEdit = edit.shift()!;
  const firstTotal = total.shift()!;
  edit.sort((a, b) => a - b);
  total.sort((a, b) => a - b);
  say(
    `  ${label.padEnd(8)} applyEdit first ${ms(firstEdit)}  p50 ${ms(percentile(edit, 50))}  p90 ${ms(percentile(edit, 90))}` +
      `   | +render first ${ms(firstTotal)}  p50 ${ms(percentile(total, 50))}  p90 ${ms(percentile(total, 90))}`,
  );
}

const operations = {
  replace: { type: 'replace', find: 'target alpha', with: 'target beta' },
  insert: { type: 'insert', after: 'target alpha', markdown: 'A new paragraph with **bold** text.' },
};

// Documents of their own, so the code that writes uncached blocks is warmed up as well as the cached path.
for (let i = 0; i < 5; i++) {
  const warmup = JSON.stringify(
    stateFromMarkdown(sampleMarkdown(50 * 1024, { word: `Warmup ${i}`, quotes: true })),
  );
  for (const operation of Object.values(operations)) measure('warmup', warmup, operation, true);
}

for (const kb of SIZES) {
  say(`${kb} KB`);
  for (const [label, operation] of Object.entries(operations)) {
    // A document of its own per operation, so the first edit of each finds nothing cached.
    const stored = JSON.stringify(
      stateFromMarkdown(sampleMarkdown(kb * 1024, { word: `${label} paragraph`, quotes: true })),
    );
    measure(label, stored, operation);
  }
}
