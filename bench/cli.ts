// CLI start-up benchmark (issue 24: "folio on a fresh clone after the README's first command, < 0.3 s"): the wall time
// of `folio --help`, of an API command (`folio drive ls`) and of a database command (`folio workspace create`), through
// bin/folio.js as `npx folio` runs it (the bundle `npm start` builds, after bin/folio.js has checked that no source file
// is newer), and from each build's entry directly: the bundle in dist/cli-bundle/, the module-per-file build in
// dist/cli/ and the TypeScript source, beside a bare `node -e 0` measured in the same run.
//
//   node --import tsx bench/cli.ts   # builds dist/cli-bundle/ first, as `npm start` does
//   npm run build                     # also dist/cli/, the module-per-file build, timed when present
//
// FOLIO_BENCH_RUNS (default 7) runs per command, median reported. FOLIO_BENCH_CLI_BEFORE=<checkout> also times
// `--help`, `drive ls` and `workspace create` of another checkout's bin/folio.js (the code before a change).
// Starts its own stack for the real commands unless FOLIO_BENCH_API_URL and FOLIO_BENCH_TOKEN name a running API.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { benchTarget } from './stack.js';
import { say } from './support.js';

const run = promisify(execFile);
const RUNS = Number(process.env.FOLIO_BENCH_RUNS ?? 7);
const TARGET_SECONDS = 0.3;
/** The row an API command is compared with: the CLI's requests go through node:http (cli/http-fetch.ts). */
const FLOOR = 'node + the same GET (node:http)';
const root = join(import.meta.dirname, '..');

async function median(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run(process.execPath, args, { env: { ...process.env, ...env }, cwd: root });
    times.push((performance.now() - started) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function main() {
  // The bundle as `npm start` builds it on every start (deploy/start.sh), so a fresh clone times what its users run and
  // a bundle older than the source is not skipped by bin/folio.js in favour of the source.
  await run(process.execPath, ['--import', 'tsx', 'deploy/build-cli-bundle.ts'], { cwd: root });
  const target = await benchTarget('bench-cli', { worker: false });
  try {
    say(
      `folio CLI start-up — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load ${loadavg()[0]!.toFixed(1)}, median of ${RUNS}\n`,
    );
    const bare = await median(['-e', '0'], {});
    const rows: [string, number][] = [['node -e 0 (bare start-up)', bare]];
    const api = ['drive', 'ls', '--url', target.apiUrl, '--token', target.token, '--json'];
    const database = () => ['workspace', 'create', '--name', `bench-${Date.now()}`, '--json'];
    // The floor of an API command: node starting and making the same request, nothing else; with the global fetch
    // (undici, what the CLI used before session 14) and with node:http (what cli/http-fetch.ts is built on).
    const listUrl = JSON.stringify(`${target.apiUrl}/v1/drive/files`);
    const headers = `{ authorization: ${JSON.stringify(`Bearer ${target.token}`)} }`;
    const request = `await fetch(${listUrl}, { headers: ${headers} }).then((r) => r.text())`;
    rows.push(['node + the same GET (fetch)', await median(['--input-type=module', '-e', request], {})]);
    const httpRequest = `const { request } = await import(${JSON.stringify(target.apiUrl.startsWith('https:') ? 'node:https' : 'node:http')}); await new Promise((resolve, reject) => request(${listUrl}, { headers: ${headers} }, (r) => r.resume().on('end', resolve)).on('error', reject).end())`;
    rows.push([FLOOR, await median(['--input-type=module', '-e', httpRequest], {})]);
    // Each build's entry run directly: the bundle (what bin/folio.js runs when present), the module-per-file build, and
    // the source through tsx.
    const builds: [string, string, Record<string, string>][] = [];
    if (existsSync(join(root, 'dist/cli-bundle/folio.mjs'))) {
      builds.push(['bin/folio.js, as npx folio runs it', 'bin/folio.js', {}]);
      builds.push(['bundle', 'dist/cli-bundle/folio.mjs', {}]);
    }
    if (existsSync(join(root, 'dist/cli/folio.js'))) builds.push(['dist', 'dist/cli/folio.js', {}]);
    if (!existsSync(join(root, 'dist/cli/folio.js')))
      say('(no module-per-file build in dist/cli/: `npm run build` adds it to the rows)\n');
    builds.push(['source', 'bin/folio.js', { FOLIO_CLI_FROM_SOURCE: '1' }]);
    for (const [label, entry, env] of builds) {
      rows.push([`folio --help (${label})`, await median([entry, '--help'], env)]);
      rows.push([`folio drive ls (${label})`, await median([entry, ...api], env)]);
      if (Object.keys(target.env).length)
        rows.push([
          `folio workspace create (${label})`,
          await median([entry, ...database()], { ...target.env, ...env }),
        ]);
    }
    const before = process.env.FOLIO_BENCH_CLI_BEFORE;
    if (before) {
      rows.push(['before: folio --help', await median([join(before, 'bin/folio.js'), '--help'], {})]);
      rows.push(['before: folio drive ls', await median([join(before, 'bin/folio.js'), ...api], {})]);
      if (Object.keys(target.env).length)
        rows.push([
          'before: folio workspace create',
          await median([join(before, 'bin/folio.js'), ...database()], target.env),
        ]);
    }
    const width = Math.max(...rows.map(([label]) => label.length));
    const floor = rows.find(([label]) => label === FLOOR)![1];
    for (const [label, seconds] of rows) {
      const beside = label.includes('drive ls') ? `, ${(seconds / floor).toFixed(2)}× ${FLOOR}` : '';
      const verdict = label.startsWith('node')
        ? ''
        : `  ${(seconds / bare).toFixed(1)}× bare node${beside}, target < ${TARGET_SECONDS} s: ${seconds < TARGET_SECONDS ? 'met' : 'not met'}`;
      say(`${label.padEnd(width)}  ${seconds.toFixed(3)} s${verdict}`);
    }
  } finally {
    await target.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
