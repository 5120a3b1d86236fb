#!/usr/bin/env node
// Runs the folio CLI: from the TypeScript source in a checkout (via tsx), else the compiled build that
// production images ship without sources (deploy/Dockerfile).
import { existsSync } from 'node:fs';

const source = new URL('../cli/folio.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli/folio.js', import.meta.url).href);
}
