// The editor page's script, bundled by esbuild from api/editor-app/client/ on first use (docs/editor.md § Build):
// nothing is generated into the tree and nothing comes from a CDN. The bundle is held in memory for the process.
import { fileURLToPath } from 'node:url';

let bundle: Promise<Buffer> | undefined;

/** The bundled script; built once, the first time a page asks for it. */
export function editorScript(): Promise<Buffer> {
  bundle ??= (async () => {
    // esbuild is a development dependency: a production image builds the bundle before it drops them (npm run build).
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(new URL('./client/editor.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    return Buffer.from(result.outputFiles[0]!.contents);
  })();
  bundle.catch(() => (bundle = undefined));
  return bundle;
}
