// `npm run bench`: every benchmark in bench/, one after another, each at a size that keeps the whole run under about
// ten minutes on the project's 2-core machine when it is quiet. Each script prints its figures beside its limit or peer
// measured in the same run, and the ratio. FOLIO_BENCH_FULL=1 runs the full sizes instead (each script's own
// defaults, much longer); any FOLIO_BENCH_* variable set by the caller wins over the quick size.
//
//   npm run bench                 # quick sizes
//   FOLIO_BENCH_FULL=1 npm run bench
//   npm run bench -- drive-requests changes-feed   # only these
//   FOLIO_BENCH_CPU_PROF=/tmp/prof npm run bench   # and profile each stack's API and worker, then:
//   node --import tsx bench/profile-summary.ts /tmp/prof/documents-edit
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { say } from './support.js';

interface Bench {
  script: string;
  /** The quick size: environment and arguments. */
  quick: { env?: Record<string, string>; args?: string[] };
}

const BENCHES: Bench[] = [
  { script: 'drive-requests', quick: { env: { FOLIO_BENCH_SECONDS: '5' } } },
  {
    script: 'drive-transfer',
    // The simple upload at the size of its RSS target (100 MB); the chunked one at 128 MiB, alternated three times.
    quick: { env: { FOLIO_BENCH_SIMPLE_BYTES: '100000000', FOLIO_BENCH_CHUNKED_BYTES: '134217728' } },
  },
  { script: 'changes-feed', quick: { env: { FOLIO_BENCH_ITEMS: '20000' } } },
  { script: 'trash-cascade', quick: { args: ['9'] } },
  { script: 'documents-complexity', quick: {} },
  { script: 'documents-engine', quick: { env: { FOLIO_BENCH_RUNS: '5', FOLIO_BENCH_SIZES: '10,100' } } },
  {
    script: 'documents-edit',
    quick: {
      env: {
        FOLIO_BENCH_EDITS: '200',
        FOLIO_BENCH_SECONDS: '5',
        FOLIO_BENCH_SIZES: '10,100',
        FOLIO_BENCH_BUDGET: '60',
      },
    },
  },
  {
    script: 'thumbnails',
    quick: { env: { FOLIO_BENCH_IMAGES: '8', FOLIO_BENCH_UPLOADS: '10', FOLIO_BENCH_BURST: '10' } },
  },
  { script: 'webhooks', quick: { args: ['300', '16'] } },
  { script: 'cli', quick: { env: { FOLIO_BENCH_RUNS: '5' } } },
];

const full = process.env.FOLIO_BENCH_FULL === '1';
const only = process.argv.slice(2);
const chosen = only.length ? BENCHES.filter((bench) => only.includes(bench.script)) : BENCHES;
if (only.length && chosen.length !== only.length) {
  say(
    `unknown benchmark: ${only.filter((name) => !BENCHES.some((bench) => bench.script === name)).join(', ')}`,
  );
  process.exit(2);
}

const started = performance.now();
const outcomes: string[] = [];
for (const bench of chosen) {
  say(`\n=== bench/${bench.script}.ts ${full ? '(full size)' : '(quick size)'} ===`);
  const benchStarted = performance.now();
  const env: NodeJS.ProcessEnv = full ? { ...process.env } : { ...bench.quick.env, ...process.env };
  // Each benchmark's profiles in a folder of its own, so a summary says which run they came from.
  if (process.env.FOLIO_BENCH_CPU_PROF) {
    env.FOLIO_BENCH_CPU_PROF = join(process.env.FOLIO_BENCH_CPU_PROF, bench.script);
    mkdirSync(env.FOLIO_BENCH_CPU_PROF, { recursive: true });
  }
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', `bench/${bench.script}.ts`, ...(full ? [] : (bench.quick.args ?? []))],
    { env, stdio: 'inherit' },
  );
  const seconds = ((performance.now() - benchStarted) / 1000).toFixed(0);
  outcomes.push(
    `${bench.script.padEnd(18)} ${child.status === 0 ? 'ok    ' : `FAILED (exit ${child.status ?? child.signal})`} ${seconds} s`,
  );
  if (child.status !== 0) process.exitCode = 1;
}
say(`\n=== ${chosen.length} benchmarks in ${((performance.now() - started) / 60_000).toFixed(1)} min ===`);
for (const line of outcomes) say(line);
