// bin/folio.js picks what runs: the bundle `npm start` and `npm run build` write, unless a source file of the checkout
// (or the lockfile) changed after it, or FOLIO_CLI_FROM_SOURCE asks for the source; an image without the source runs
// its build. Run against a copy of bin/folio.js in a scratch checkout whose bundle and source each print their name.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let checkout: string;

/** A file at `path` under the scratch checkout, dated `secondsAgo` in the past. */
function write(path: string, text: string, secondsAgo: number) {
  const file = join(checkout, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, when, when);
}

const runCli = (env: Record<string, string> = {}) =>
  execFileSync(process.execPath, [join(checkout, 'bin', 'folio.js')], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  }).trim();

beforeEach(() => {
  checkout = mkdtempSync(join(tmpdir(), 'folio-cli-entry-'));
  mkdirSync(join(checkout, 'bin'));
  copyFileSync(new URL('../../../bin/folio.js', import.meta.url), join(checkout, 'bin', 'folio.js'));
  symlinkSync(new URL('../../../node_modules', import.meta.url).pathname, join(checkout, 'node_modules'));
  write('package.json', '{"type": "module"}', 120);
  write('package-lock.json', '{}', 120);
  write('cli/folio.ts', "console.log('source');", 60);
  write('domain/drive/items.ts', 'export {};', 60);
  write('test/unit/some.test.ts', 'export {};', 1); // Tests are not the CLI's code.
  write('dist/cli-bundle/folio.mjs', "console.log('bundle');", 30);
});

afterEach(() => rmSync(checkout, { recursive: true, force: true }));

describe('bin/folio.js', () => {
  it('runs the bundle when it is newer than every source file and the lockfile', () => {
    expect(runCli()).toBe('bundle');
  });

  it('runs the source once a source file changed after the bundle was built', () => {
    write('domain/drive/items.ts', 'export const edited = true;', 0);
    expect(runCli()).toBe('source');
  });

  it('runs the source once the lockfile changed after the bundle was built', () => {
    write('package-lock.json', '{"changed": true}', 0);
    expect(runCli()).toBe('source');
  });

  it('runs the source when FOLIO_CLI_FROM_SOURCE asks, even beside a fresh bundle', () => {
    expect(runCli({ FOLIO_CLI_FROM_SOURCE: '1' })).toBe('source');
  });

  it('runs the build of an image that ships no source', () => {
    rmSync(join(checkout, 'cli'), { recursive: true });
    write('domain/drive/items.ts', 'export const edited = true;', 0);
    expect(runCli({ FOLIO_CLI_FROM_SOURCE: '1' })).toBe('bundle');
  });
});
