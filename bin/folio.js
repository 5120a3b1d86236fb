#!/usr/bin/env node
// Runs the folio CLI: the bundled build when there is one (`npm start` and `npm run build` write dist/cli-bundle/;
// production images ship it), which starts several times faster than the module-per-file build in dist/cli/ and far
// faster than compiling TypeScript on the fly (docs/benchmarks.md § CLI); otherwise the TypeScript source through tsx.
// In a checkout a build older than any source file is stale and the source runs instead, so an edit takes effect at
// once; FOLIO_CLI_FROM_SOURCE=1 runs the source even beside a fresh build (the test suite does).
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const builds = ['dist/cli-bundle/folio.mjs', 'dist/cli/folio.js'].map((path) => new URL(path, root));
const source = new URL('cli/folio.ts', root);

/** Folders of a checkout that hold no code the CLI runs. */
const NOT_CLI_SOURCE = new Set([
  'node_modules',
  'dist',
  'test',
  'bench',
  'docs',
  'bin',
  'clients',
  'openapi',
]);

/** Whether any TypeScript file of the checkout, or the lockfile, changed after `since` (milliseconds). */
function sourceChangedAfter(since) {
  if (statSync(new URL('package-lock.json', root)).mtimeMs > since) return true;
  const pending = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_CLI_SOURCE.has(entry.name))
    .map((entry) => new URL(`${entry.name}/`, root));
  while (pending.length) {
    const folder = pending.pop();
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) pending.push(new URL(`${entry.name}/`, folder));
      else if (entry.name.endsWith('.ts') && statSync(new URL(entry.name, folder)).mtimeMs > since)
        return true;
    }
  }
  return false;
}

const build = builds.find((url) => existsSync(url));
const runSource =
  !build ||
  (existsSync(source) &&
    (Boolean(process.env.FOLIO_CLI_FROM_SOURCE) || sourceChangedAfter(statSync(build).mtimeMs)));
if (runSource) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(build.href);
}
