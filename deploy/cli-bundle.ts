// The folio CLI as one ESM bundle with a chunk per command group (esbuild, code splitting), so a command loads a few
// files instead of several hundred modules of knex, zod and the rest: on-call staff wait on the answer, not on Node's
// module loader (docs/benchmarks.md § CLI). `npm run build` writes it to dist/cli-bundle/; bin/folio.js runs it when
// present.
import { build } from 'esbuild';

/**
 * Left to node_modules at run time: native addons, packages that read their own files beside them, and the database
 * drivers knex names but Folio does not use (knex requires them only for their dialects).
 */
const EXTERNAL = [
  '@temporalio/*',
  '@opentelemetry/*',
  'sharp',
  'heic-decode',
  'pg-native',
  'pg-query-stream',
  'better-sqlite3',
  'sqlite3',
  'mysql',
  'mysql2',
  'mariadb',
  'mariadb/*',
  'oracledb',
  'tedious',
];

/** Writes the bundle of cli/folio.ts into outdir (entry: folio.mjs). */
export async function buildCliBundle(outdir: string): Promise<void> {
  await build({
    entryPoints: { folio: 'cli/folio.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    external: EXTERNAL,
    // CommonJS dependencies (knex, pg) call require(); an ESM bundle has none unless it makes one.
    banner: {
      js: "import { createRequire as folioCreateRequire } from 'node:module'; const require = folioCreateRequire(import.meta.url);",
    },
    sourcemap: true,
    logLevel: 'warning',
  });
}
