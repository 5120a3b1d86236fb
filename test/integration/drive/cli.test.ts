// `folio drive` as a Drive tool (issue 25), run as a person runs it (`npx folio drive …`) against the suite's stack:
// paths as well as uuids, mkdir -p, rm to the trash, mv, cat, put of a directory that skips what is unchanged,
// --overwrite, get refusing to overwrite a local file, a two-way sync with a conflict and a dry run, and the exit
// code and `--json` error object of each class of failure (docs/cli.md § Exit codes).
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import { call, makeUser, makeWorkspace, type TestUser } from '../../support/api.js';
import { CLI_TIMEOUT_MS, runFolio } from '../../support/cli.js';
import { folioClient } from '../../support/folio-client.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'folio-cli-drive-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `folio drive <args>` as `user` (or with the token given), whatever its exit code. */
async function drive(user: TestUser | { token: string; url?: string }, ...args: string[]): Promise<Run> {
  const url = 'url' in user && user.url ? user.url : process.env.FOLIO_API_URL!;
  return runFolio('drive', ...args, '--url', url, '--token', user.token).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Run) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** `folio drive <args> --json`: the exit code and the one JSON object on stdout. */
async function driveJson(user: TestUser | { token: string; url?: string }, ...args: string[]) {
  const run = await drive(user, ...args, '--json');
  const lines = run.stdout.trim().split('\n');
  expect(lines, `one JSON line from folio drive ${args.join(' ')}: ${run.stderr}`).toHaveLength(1);
  return { code: run.code, body: JSON.parse(lines[0]!) };
}

describe('folio drive', () => {
  it(
    'names items by path: mkdir -p, put, --overwrite, cat, get refusing to overwrite, mv, rm to the trash',
    { timeout: 4 * CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const made = await driveJson(user, 'mkdir', '-p', '/Photos/2026');
      expect(made).toMatchObject({ code: 0, body: { object: 'drive_folder', name: '2026' } });
      // -p succeeds on a folder that exists; without -p that is a conflict, and a missing parent is not found.
      expect((await driveJson(user, 'mkdir', '-p', 'Photos/2026')).body.uuid).toBe(made.body.uuid);
      // The message is Drive's error code in words (its bodies have no description), not the raw body.
      expect(await driveJson(user, 'mkdir', '/Photos/2026')).toEqual({
        code: 5,
        body: { error: { code: 'name_taken', message: 'name taken', status: 422 } },
      });
      expect(await driveJson(user, 'mkdir', '/Nope/x')).toMatchObject({
        code: 4,
        body: { error: { code: 'not_found' } },
      });

      const local = join(scratch, 'a.txt');
      await writeFile(local, 'first');
      const put = await driveJson(user, 'put', local, '/Photos/2026');
      expect(put).toMatchObject({
        code: 0,
        body: { object: 'drive_file', name: 'a.txt', folder_uuid: made.body.uuid, result: 'uploaded' },
      });
      // The same name again: a conflict that says how to replace it; --overwrite replaces the contents in place.
      const again = await driveJson(user, 'put', local, '/Photos/2026');
      expect(again).toMatchObject({ code: 5, body: { error: { code: 'name_taken', status: null } } });
      expect(again.body.error.message).toContain('--overwrite');
      await writeFile(local, 'second version');
      expect(await driveJson(user, 'put', local, '/Photos/2026', '--overwrite')).toMatchObject({
        code: 0,
        body: { uuid: put.body.uuid, ctag: 1, result: 'replaced' },
      });
      expect(await driveJson(user, 'put', local, '--folder', '/Photos/2026', '--overwrite')).toMatchObject({
        code: 0,
        body: { uuid: put.body.uuid, ctag: 1, result: 'unchanged' },
      });

      expect((await drive(user, 'cat', '/Photos/2026/a.txt')).stdout).toBe('second version');
      expect((await drive(user, 'cat', put.body.uuid)).stdout).toBe('second version');

      // get leaves a local file alone unless told.
      const target = join(scratch, 'got.txt');
      await writeFile(target, 'mine');
      expect(await driveJson(user, 'get', '/Photos/2026/a.txt', '-o', target)).toMatchObject({
        code: 5,
        body: { error: { code: 'local_exists' } },
      });
      expect(await readFile(target, 'utf8')).toBe('mine');
      expect(await driveJson(user, 'get', '/Photos/2026/a.txt', '-o', target, '--overwrite')).toMatchObject({
        code: 0,
        body: { uuid: put.body.uuid, path: target, bytes: 14 },
      });
      expect(await readFile(target, 'utf8')).toBe('second version');

      // mv into a folder keeps the name; mv to a free path renames; a folder moves as a file does.
      expect(await driveJson(user, 'mv', '/Photos/2026/a.txt', '/Photos')).toMatchObject({
        body: { uuid: put.body.uuid, name: 'a.txt' },
      });
      expect(await driveJson(user, 'mv', '/Photos/a.txt', '/Photos/b.txt')).toMatchObject({
        body: { uuid: put.body.uuid, name: 'b.txt' },
      });
      expect(await driveJson(user, 'mv', '/Photos/2026', '/Archive-2026')).toMatchObject({
        body: { uuid: made.body.uuid, name: 'Archive-2026', parent_uuid: null },
      });
      const photos = await driveJson(user, 'ls', '/Photos');
      expect(photos.body.files.map((file: { name: string }) => file.name)).toEqual(['b.txt']);
      expect(photos.body.folders).toEqual([]);

      // rm puts the file in the trash; a folder needs -r.
      expect(await driveJson(user, 'rm', '/Photos')).toMatchObject({
        code: 2,
        body: { error: { code: 'is_a_folder' } },
      });
      expect(await driveJson(user, 'rm', '/Photos/b.txt')).toMatchObject({
        code: 0,
        body: { trashed: true },
      });
      const trash = await call('GET', '/v1/drive/trash', { token: user.token });
      expect(trash.body.files.map((file: { uuid: string }) => file.uuid)).toEqual([put.body.uuid]);
      expect(await driveJson(user, 'rm', '-r', '/Archive-2026')).toMatchObject({ code: 0 });
      expect((await driveJson(user, 'ls')).body.folders.map((f: { name: string }) => f.name)).toEqual([
        'Photos',
      ]);
    },
  );

  it(
    'puts a directory, skips what is unchanged, reports a changed file as a conflict until --overwrite',
    { timeout: 3 * CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const dir = join(scratch, 'album');
      await mkdir(join(dir, 'sub', 'deep'), { recursive: true });
      await writeFile(join(dir, 'x.txt'), 'x');
      await writeFile(join(dir, 'sub', 'y.txt'), 'y');
      await writeFile(join(dir, 'sub', 'deep', 'z.txt'), 'z');
      const first = await driveJson(user, 'put', dir);
      expect(first).toMatchObject({
        code: 0,
        body: { object: 'drive_put', uploaded: 3, replaced: 0, unchanged: 0, conflicts: [], failed: [] },
      });

      await writeFile(join(dir, 'sub', 'y.txt'), 'y, edited');
      await writeFile(join(dir, 'w.txt'), 'w');
      const second = await driveJson(user, 'put', dir, '/album');
      expect(second).toMatchObject({
        code: 5,
        body: { folder_uuid: first.body.folder_uuid, uploaded: 1, unchanged: 2, conflicts: ['sub/y.txt'] },
      });
      expect(await driveJson(user, 'put', dir, '--overwrite', '--transfers', '2')).toMatchObject({
        code: 0,
        body: { uploaded: 0, replaced: 1, unchanged: 3, conflicts: [] },
      });
      expect((await drive(user, 'cat', '/album/sub/y.txt')).stdout).toBe('y, edited');
      expect((await drive(user, 'cat', '/album/sub/deep/z.txt')).stdout).toBe('z');
    },
  );

  it(
    'syncs both ways: a dry run first, then edits, deletions and a conflict that keeps both versions',
    { timeout: 4 * CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const client = folioClient({ token: user.token });
      const text = (value: string) => ({ size: Buffer.byteLength(value), source: Buffer.from(value) });
      const folder = await client.createFolder({ name: 'Synced', parent_uuid: null });
      const remote = async (name: string, value: string) =>
        client.upload({ name, contentType: 'text/plain', folderUuid: folder.uuid, ...text(value) });
      const r = await remote('r.txt', 'remote 1');
      const c = await remote('c.txt', 'common');
      const e = await remote('e.txt', 'to trash in Drive');
      const dir = join(scratch, 'synced');
      await mkdir(join(dir, 'local-sub'), { recursive: true });
      await writeFile(join(dir, 'local-sub', 'l.txt'), 'local 1');
      await writeFile(join(dir, 'd.txt'), 'to delete here');
      const tree = async () => {
        const files: Record<string, string> = {};
        for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile() || entry.name === '.folio-bisync.json') continue;
          const full = join(entry.parentPath, entry.name);
          files[full.slice(dir.length + 1)] = await readFile(full, 'utf8');
        }
        return files;
      };

      const dry = await driveJson(user, 'sync', dir, '/Synced', '--dry-run');
      expect(dry.body).toMatchObject({ dry_run: true, uploaded: 0, downloaded: 0 });
      expect(dry.body.actions).toEqual([
        { action: 'download', path: 'c.txt' },
        { action: 'upload', path: 'd.txt' },
        { action: 'download', path: 'e.txt' },
        { action: 'upload', path: 'local-sub/l.txt' },
        { action: 'download', path: 'r.txt' },
      ]);
      expect(Object.keys(await tree()).sort()).toEqual(['d.txt', join('local-sub', 'l.txt')]);
      expect((await client.listFolder(folder.uuid)).files).toHaveLength(3);

      expect(await driveJson(user, 'sync', dir, '/Synced')).toMatchObject({
        code: 0,
        body: { uploaded: 2, downloaded: 3, conflicts: 0 },
      });
      expect(await tree()).toEqual({
        'c.txt': 'common',
        'd.txt': 'to delete here',
        'e.txt': 'to trash in Drive',
        [join('local-sub', 'l.txt')]: 'local 1',
        'r.txt': 'remote 1',
      });
      expect((await drive(user, 'cat', '/Synced/local-sub/l.txt')).stdout).toBe('local 1');

      // Each side changes: an edit here, an edit there, a deletion on each side, and c.txt edited on both.
      await writeFile(join(dir, 'local-sub', 'l.txt'), 'local 2, edited here');
      await client.replace(r.uuid, text('remote 2, edited in Drive'));
      await rm(join(dir, 'd.txt'));
      await call('POST', `/v1/drive/files/${e.uuid}/trash`, { token: user.token });
      await writeFile(join(dir, 'c.txt'), 'common, edited here');
      await client.replace(c.uuid, text('common, edited in Drive'));

      const synced = await driveJson(user, 'sync', dir, '--folder', folder.uuid);
      expect(synced.body).toMatchObject({
        uploaded: 1,
        downloaded: 1,
        deleted_local: 1,
        trashed_remote: 1,
        conflicts: 1,
        failed: [],
      });
      const conflict = synced.body.actions.find((action: { action: string }) => action.action === 'conflict');
      expect(conflict.copy).toMatch(/^c \(conflicted copy \d{4}-\d\d-\d\d \d{6}\)\.txt$/);
      // Drive's version keeps the name; the local one is kept beside it, on both sides.
      const expected = {
        'c.txt': 'common, edited in Drive',
        [conflict.copy]: 'common, edited here',
        [join('local-sub', 'l.txt')]: 'local 2, edited here',
        'r.txt': 'remote 2, edited in Drive',
      };
      expect(await tree()).toEqual(expected);
      const inDrive = await client.listFolder(folder.uuid);
      expect(inDrive.files.map((file) => file.name).sort()).toEqual(['c.txt', conflict.copy, 'r.txt'].sort());
      expect(
        (await client.download(inDrive.files.find((f) => f.name === conflict.copy)!.uuid)).toString(),
      ).toBe('common, edited here');
      expect(
        (
          await client.download((await client.listFolder(inDrive.folders[0]!.uuid)).files[0]!.uuid)
        ).toString(),
      ).toBe('local 2, edited here');
      const trash = await call('GET', '/v1/drive/trash', { token: user.token });
      expect(trash.body.files.map((file: { name: string }) => file.name).sort()).toEqual(['d.txt', 'e.txt']);

      // Nothing changed since: nothing to do.
      expect(await driveJson(user, 'sync', dir, '/Synced')).toMatchObject({
        body: {
          uploaded: 0,
          downloaded: 0,
          deleted_local: 0,
          trashed_remote: 0,
          conflicts: 0,
          unchanged: 4,
          actions: [],
        },
      });
      expect(await tree()).toEqual(expected);
    },
  );

  it(
    'answers each class of failure with its exit code and one JSON error object; --version',
    { timeout: 3 * CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const missing = '00000000-0000-4000-8000-000000000000';
      expect(await driveJson(user, 'get', missing)).toEqual({
        code: 4,
        body: { error: { code: 'not_found', message: expect.any(String), status: null } },
      });
      expect(await driveJson({ token: 'folio_at_not-a-token' }, 'ls')).toEqual({
        code: 3,
        body: { error: { code: 'invalid_token', message: 'invalid token', status: 401 } },
      });
      expect(await driveJson(user, 'ls', '--no-such-option')).toMatchObject({
        code: 2,
        body: { error: { code: 'usage', message: expect.stringContaining('--no-such-option') } },
      });
      // A refusal with a field of its own (spec/drive.md § Errors) says it in words too.
      const full = await makeUser({ workspace: await makeWorkspace({ storageLimitBytes: 4 }) });
      const tooBig = join(scratch, 'too-big.txt');
      await writeFile(tooBig, 'five!');
      expect(await driveJson(full, 'put', tooBig, '/')).toEqual({
        code: 1,
        body: {
          error: {
            code: 'storage_limit_exceeded',
            message: 'storage limit exceeded (pool_bytes: 4)',
            status: 422,
          },
        },
      });
      // Nothing listens on port 9 of this machine (discard): the server cannot be reached.
      expect(await driveJson({ token: user.token, url: 'http://127.0.0.1:9' }, 'ls')).toMatchObject({
        code: 6,
        body: { error: { code: 'unreachable', status: null } },
      });
      // Without --json the message is on stderr and stdout stays empty.
      const plain = await drive(user, 'cat', `/${missing}.txt`);
      expect(plain).toMatchObject({ code: 4, stdout: '' });
      expect(plain.stderr).toContain('no such file or folder');

      const version = await runFolio('--version');
      expect(version.stdout.trim()).toBe(packageJson.version);
    },
  );
});
