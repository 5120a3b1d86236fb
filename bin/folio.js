#!/usr/bin/env node
// Runs the folio CLI: the compiled build when there is one (`npm run build` writes dist/; production images ship
// only that), which starts several times faster than compiling TypeScript on the fly (docs/benchmarks.md § CLI);
// otherwise the TypeScript source through tsx. FOLIO_CLI_FROM_SOURCE=1 runs the source even beside a build (the
// test suite does, so it always tests the code in the checkout, never a stale build).
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/folio.js', import.meta.url);
const source = new URL('../cli/folio.ts', import.meta.url);
if (existsSync(compiled) && !(process.env.FOLIO_CLI_FROM_SOURCE && existsSync(source))) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
