#!/usr/bin/env node
// Runs the folio CLI: the bundled build when there is one (`npm run build` writes dist/cli-bundle/; production images
// ship it), which starts several times faster than the module-per-file build in dist/cli/ and far faster than
// compiling TypeScript on the fly (docs/benchmarks.md § CLI); otherwise the TypeScript source through tsx.
// FOLIO_CLI_FROM_SOURCE=1 runs the source even beside a build (the test suite does, so it always tests the code in
// the checkout, never a stale build).
import { existsSync } from 'node:fs';

const builds = ['../dist/cli-bundle/folio.mjs', '../dist/cli/folio.js'].map(
  (path) => new URL(path, import.meta.url),
);
const source = new URL('../cli/folio.ts', import.meta.url);
const build = builds.find((url) => existsSync(url));
if (build && !(process.env.FOLIO_CLI_FROM_SOURCE && existsSync(source))) {
  await import(build.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
