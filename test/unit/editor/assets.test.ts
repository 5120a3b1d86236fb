// The editor app's script (docs/editor.md § Build): a built server serves the bundle `npm run build` wrote; without one
// the script is bundled from source in memory; each app instance holds its own, so nothing is shared by the module.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import { afterAll, describe, expect, it } from 'vitest';
import { editorAssets } from '../../../api/editor-app/assets.js';

const folder = mkdtempSync(join(tmpdir(), 'folio-editor-assets-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function builtFile(name: string, body: string): URL {
  const path = join(folder, name);
  writeFileSync(path, body);
  return pathToFileURL(path);
}

/** GETs a path from an app made of the assets middleware alone, answering 404 for anything it passes on. */
async function get(assets: ReturnType<typeof editorAssets>, path: string) {
  const app = new Koa();
  app.use(assets);
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = 'passed on';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: response.status, headers: response.headers, body: await response.text() };
  } finally {
    server.close();
  }
}

describe('the editor app serves its script', () => {
  it('serves the built bundle when the build wrote one', async () => {
    const built = builtFile('built.js', 'window.built = "the bundle npm run build wrote";');
    const answer = await get(editorAssets({ builtScript: built }), '/assets/editor.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.body).toBe('window.built = "the bundle npm run build wrote";');
  });

  it('holds the script per app: a second app reads its own, the first keeps what it read', async () => {
    const path = join(folder, 'changing.js');
    writeFileSync(path, 'window.version = 1;');
    const first = editorAssets({ builtScript: pathToFileURL(path) });
    expect((await get(first, '/assets/editor.js')).body).toBe('window.version = 1;');
    writeFileSync(path, 'window.version = 2;');
    const second = editorAssets({ builtScript: pathToFileURL(path) });
    expect((await get(second, '/assets/editor.js')).body).toBe('window.version = 2;');
    expect((await get(first, '/assets/editor.js')).body).toBe('window.version = 1;');
  });

  it('bundles the page script from source when there is no built file', async () => {
    const answer = await get(
      editorAssets({ builtScript: pathToFileURL(join(folder, 'absent.js')) }),
      '/assets/editor.js',
    );
    expect(answer.status).toBe(200);
    // The page's own script (client/editor.ts), with ProseMirror bundled in: nothing is loaded from elsewhere.
    expect(answer.body).toContain('.document-page');
    expect(answer.body).not.toMatch(/\bimport\s*\(|\brequire\(/);
  }, 60_000);

  it('serves the stylesheet, and passes on any other path', async () => {
    const assets = editorAssets({ builtScript: builtFile('unused.js', '') });
    const css = await get(assets, '/assets/editor.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const path of ['/assets/constructor', '/assets/__proto__', '/assets/other.js', '/editor.js'])
      expect((await get(assets, path)).body, path).toBe('passed on');
  });
});
