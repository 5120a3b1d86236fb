// The folio CLI as one ESM bundle with a chunk per command group (esbuild, code splitting), so a command loads a few
// files instead of several hundred modules of knex, zod and the rest: on-call staff wait on the answer, not on Node's
// module loader (docs/benchmarks.md § CLI). `npm run build` writes it to dist/cli-bundle/; bin/folio.js runs it when
// present.
import { readFile, rename, rm } from 'node:fs/promises';
import { build, type Plugin } from 'esbuild';

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

/** What pg (lib/stream.js) tests, when it is loaded, to tell a Cloudflare Worker from Node. */
const PG_RESPONSE_PROBE = "typeof Response === 'function'";

/**
 * pg asks whether it runs in a Cloudflare Worker when it is loaded: by `navigator.userAgent` where there is a navigator
 * (Node 21 and later), otherwise by constructing a `Response`, which on Node 20 loads undici for nothing (~15 ms of
 * every database command). The bundle runs on Node only, so the probe is left out; a pg whose source no longer has it
 * fails the build rather than be bundled unseen.
 */
const pgOnNode: Plugin = {
  name: 'pg-on-node',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!source.includes(PG_RESPONSE_PROBE))
        throw new Error(
          `${path} no longer tests ${PG_RESPONSE_PROBE}: review deploy/cli-bundle.ts's pgOnNode`,
        );
      return { contents: source.replace(PG_RESPONSE_PROBE, 'false'), loader: 'js' };
    });
  },
};

/** Writes the bundle of cli/folio.ts into outdir (entry: folio.mjs), replacing what was there. */
export async function buildCliBundle(outdir: string): Promise<void> {
  // Built beside, then put in place: chunks are named by content hash, so building into outdir would pile every build's
  // chunks up, and emptying it first would pull the chunks from under a `folio` already running (npm start rebuilds).
  const building = `${outdir}.building`;
  await rm(building, { recursive: true, force: true });
  await build({
    entryPoints: { folio: 'cli/folio.ts' },
    outdir: building,
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
    plugins: [pgOnNode],
    // Less to read and parse at each start; names are kept short too (the source maps beside the chunks map them
    // back: node --enable-source-maps).
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  await rm(outdir, { recursive: true, force: true });
  await rename(building, outdir);
}
