// The large fuzz run, on demand: the integration fuzz test (test/integration/fuzz/bad-input.test.ts) with 100,000
// generated requests instead of CI's 10,000. Usage: node --import tsx bench/fuzz.ts [runs] [seed]
// Record the printed line in docs/fuzzing.md with the machine and date.
import { spawnSync } from 'node:child_process';

const runs = process.argv[2] ?? '100000';
const seed = process.argv[3] ?? String(Date.now() % 2 ** 31);
const started = Date.now();
const result = spawnSync('npx', ['vitest', 'run', '--project', 'integration', 'test/integration/fuzz'], {
  stdio: 'inherit',
  env: { ...process.env, FOLIO_FUZZ_RUNS: runs, FOLIO_FUZZ_SEED: seed },
});
const seconds = Math.round((Date.now() - started) / 1000);
console.log(
  `fuzz: ${runs} requests, seed ${seed}: ${result.status === 0 ? 'no 5xx, no refused request changed a row' : 'FAILED'} (${seconds} s with stack start)`,
);
process.exit(result.status ?? 1);
