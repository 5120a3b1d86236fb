// The editor app's static files (docs/editor.md § Build): its stylesheet, and the page's script. `npm run build`
// bundles the script into dist/api/editor-app/assets/editor.js (deploy/build-editor-bundle.ts), beside this module's
// build, and a built server serves that file; from source (development, tests) the script is bundled by esbuild in
// memory on first use. Either is held by the app's instance (editorAssets), never by this module.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';

/** Where `npm run build` writes the bundle: beside the built module, in its assets folder. */
const BUILT_SCRIPT = new URL('./assets/editor.js', import.meta.url);
const CLIENT_ENTRY = new URL('./client/editor.ts', import.meta.url);
const STYLESHEET = new URL('./assets/editor.css', import.meta.url);

/** The page's script bundled from client/editor.ts, as the build writes it and development serves it. */
export async function bundleEditorScript(): Promise<Uint8Array> {
  // esbuild is a development dependency: only development and the build reach this.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(CLIENT_ENTRY)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.contents;
}

/** The built bundle when the build wrote one, else undefined (a source tree has none). */
async function readBuilt(file: URL): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Read (or, from source, bundled) once per app, on the first request for it; a failure is tried again next time. */
function once(load: () => Promise<Buffer>): () => Promise<Buffer> {
  let loaded: Promise<Buffer> | undefined;
  return () => {
    loaded ??= load();
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };
}

export interface EditorAssetsOptions {
  /** The built bundle to serve when it exists; the one `npm run build` writes unless a test names another. */
  builtScript?: URL;
}

/** Answers GET /assets/editor.js and /assets/editor.css (paths relative to the app); anything else goes on. */
export function editorAssets(options: EditorAssetsOptions = {}): Middleware {
  const builtScript = options.builtScript ?? BUILT_SCRIPT;
  const script = once(async () => (await readBuilt(builtScript)) ?? Buffer.from(await bundleEditorScript()));
  const stylesheet = once(() => readFile(STYLESHEET));
  const files = new Map([
    // no-cache: the page's script changes with every deploy, and a stale one would send the old operations.
    ['/assets/editor.js', { type: 'text/javascript; charset=utf-8', body: script, cacheControl: 'no-cache' }],
    [
      '/assets/editor.css',
      { type: 'text/css; charset=utf-8', body: stylesheet, cacheControl: 'public, max-age=300' },
    ],
  ]);
  return async (ctx, next) => {
    const file = ctx.method === 'GET' ? files.get(ctx.path) : undefined;
    if (!file) return next();
    ctx.body = await file.body();
    ctx.type = file.type;
    ctx.set('Cache-Control', file.cacheControl);
  };
}
