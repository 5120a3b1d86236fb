#!/usr/bin/env node
// Runs the folio CLI: the compiled build when present (production images), else the TypeScript source via tsx.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/folio.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../cli/folio.ts', import.meta.url).href);
}
