// @folio/client and the `folio drive` / `folio docs` commands built on it, against the real stack: chunked round
// trips at the chunk edges, an upload stopped half-way and resumed from its state file, retries through a
// loopback proxy that fails requests on purpose, a one-way folder mirror through a 410, and a document edit.
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolioClient, readState } from '../../../clients/typescript/src/index.js';
import { pruneChangeLog } from '../../../domain/drive/change-log.js';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { call, makeDocument, makeUser, type TestUser } from '../../support/api.js';
import { CLI_TIMEOUT_MS, runFolio } from '../../support/cli.js';
import { folioClient } from '../../support/folio-client.js';

const CHUNK = 8 * 1024 * 1024;
const run = promisify(execFile);
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'folio-client-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** `folio <args> --json` against the suite's API as `user`: the one JSON object it prints. */
async function folioAs(user: TestUser, ...args: string[]): Promise<any> {
  const { stdout } = await runFolio(...args, '--url', process.env.FOLIO_API_URL!, '--token', user.token, '--json');
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** The MinIO parts of a staged upload: part number → etag (the MD5 of the bytes MinIO received, unquoted). */
async function storedParts(fileUuid: string): Promise<Map<number, string>> {
  const version = await db()('drive_file_versions').where({ uuid: fileUuid }).first();
  const parts: { part: number; etag: string }[] = await (storage() as any).listParts(bucket(), version.storage_key, version.storage_upload_id);
  return new Map(parts.map((part) => [part.part, part.etag.replace(/"/g, '')]));
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** A loopback proxy in front of the API; `fault` decides, per request, to pass it on, answer 503, or drop it. */
async function faultyProxy(fault: (request: IncomingMessage) => 'pass' | 503 | 'drop'): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const target = new URL(process.env.FOLIO_API_URL!);
  const seen: string[] = [];
  const server: Server = createServer((incoming, answer) => {
    seen.push(`${incoming.method} ${incoming.url}`);
    const decision = fault(incoming);
    if (decision === 'drop') return incoming.socket.destroy();
    if (decision === 503) {
      answer.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unavailable' }));
      return;
    }
    const forward = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (response) => {
      answer.writeHead(response.statusCode!, response.headers);
      response.pipe(answer);
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('@folio/client chunked transfer', () => {
  it.each([
    ['0 bytes', 0],
    ['1 byte', 1],
    ['one chunk less a byte', CHUNK - 1],
    ['one chunk and a byte', CHUNK + 1],
  ])('uploads and downloads %s identical', async (_, size) => {
    const user = await makeUser();
    const client = folioClient({ token: user.token });
    const data = randomBytes(size);
    const seen: number[] = [];
    const file = await client.upload({ name: `edge-${size}.bin`, contentType: 'application/octet-stream', size, source: data }, { onProgress: (p) => seen.push(p.bytesDone) });
    expect(file).toMatchObject({ object: 'drive_file', file_size_bytes: size, upload_status: 'completed', ctag: 0 });
    expect(seen.at(0)).toBe(0);
    expect(seen.at(-1)).toBe(size);
    const init = await call('GET', `/v1/drive/files/${file.uuid}/download_init`, { token: user.token });
    expect(init.body.chunk_count).toBe(Math.max(1, Math.ceil(size / CHUNK)));
    expect(init.body.ciphertext_size_bytes).toBe(size + 28 * init.body.chunk_count);
    expect((await client.download(file.uuid)).equals(data)).toBe(true);
  });

  it('resumes an upload stopped after two parts from its state file, sending only the parts it lacks', async () => {
    const user = await makeUser();
    const client = folioClient({ token: user.token, concurrency: 2 });
    const size = 5 * CHUNK + 1234;
    const data = randomBytes(size);
    const stateFile = join(scratch, 'resume.json');
    const stop = new AbortController();
    let stored = 0;
    // onPartStored runs after the part is recorded in the state file: stopping there is a known point.
    const first = client.upload(
      { name: 'resumed.bin', contentType: 'application/octet-stream', size, source: data },
      { stateFile, signal: stop.signal, onPartStored: () => ++stored === 2 && stop.abort(new Error('stopped on purpose')) },
    );
    await expect(first).rejects.toThrow('stopped on purpose');
    const state = await readState(stateFile);
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);
    const sent = Object.keys(state.parts).map(Number);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThan(6);
    const before = await storedParts(state.file_uuid);
    for (const n of sent) expect(before.get(n)).toBe(state.parts[String(n)]!.replace(/"/g, ''));

    // Resume: only the missing parts go out, and the parts MinIO held keep the bytes of the first run.
    const resumedParts: number[] = [];
    const parts = await client.sendParts(state, data, { stateFile, onPartStored: (n) => resumedParts.push(n) });
    expect(resumedParts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6].filter((n) => !sent.includes(n)));
    const after = await storedParts(state.file_uuid);
    expect([...after.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const n of sent) expect(after.get(n)).toBe(before.get(n));
    const file = await client.complete(state, parts);
    expect(file).toMatchObject({ upload_status: 'completed', file_size_bytes: size });
    expect((await client.download(file.uuid)).equals(data)).toBe(true);
    // The object is the first run's parts where they were sent then: MD5 of each stored chunk = its first etag.
    const version = await db()('drive_file_versions').where({ uuid: file.uuid }).first();
    for (const n of sent) {
      const offset = (n - 1) * (CHUNK + 28);
      const stream = await storage().getPartialObject(bucket(), version.storage_key, offset, CHUNK + 28);
      const chunks: Buffer[] = [];
      for await (const piece of stream) chunks.push(piece as Buffer);
      expect(md5(Buffer.concat(chunks))).toBe(before.get(n));
    }
  });

  it('resumes through resume(): the upload completes and the state file is removed', async () => {
    const user = await makeUser();
    const client = folioClient({ token: user.token, concurrency: 1 });
    const size = 2 * CHUNK + 5;
    const data = randomBytes(size);
    const stateFile = join(scratch, 'resume-2.json');
    const stop = new AbortController();
    await expect(
      client.upload({ name: 'again.bin', contentType: 'text/plain', size, source: data }, { stateFile, signal: stop.signal, onPartStored: () => stop.abort(new Error('halt')) }),
    ).rejects.toThrow('halt');
    expect(Object.keys((await readState(stateFile)).parts)).toEqual(['1']);
    const progress: number[] = [];
    const file = await client.resume(stateFile, data, { onProgress: (p) => progress.push(p.bytesDone) });
    expect(progress[0]).toBe(CHUNK); // Counted from the part already stored.
    expect(file).toMatchObject({ name: 'again.bin', upload_status: 'completed' });
    await expect(stat(stateFile)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await client.download(file.uuid)).equals(data)).toBe(true);
  });

  it('retries a 503 and a dropped connection with backoff; an initiate is never retried', async () => {
    const user = await makeUser();
    const failed = new Set<string>();
    const once = (key: string, outcome: 503 | 'drop') => (failed.has(key) ? 'pass' : (failed.add(key), outcome));
    const proxy = await faultyProxy((incoming) => {
      if (incoming.url!.endsWith('/part_urls')) return once('part_urls', 'drop');
      if (incoming.url!.endsWith('/complete')) return once('complete', 503);
      if (incoming.url!.endsWith('/download_init')) return once('download_init', 503);
      return 'pass';
    });
    try {
      const responses: number[] = [];
      const client = new FolioClient({ baseUrl: proxy.url, token: user.token, retry: { baseDelayMs: 10 }, onResponse: (r) => void responses.push(r.status) });
      const data = randomBytes(CHUNK + 7);
      const file = await client.upload({ name: 'retried.bin', contentType: 'application/octet-stream', size: data.length, source: data });
      expect((await client.download(file.uuid)).equals(data)).toBe(true);
      const count = (suffix: string) => proxy.seen.filter((line) => line.endsWith(suffix)).length;
      expect(count('/part_urls')).toBe(2);
      expect(count('/complete')).toBe(2);
      expect(count('/download_init')).toBe(2);
      expect(responses.filter((status) => status === 503)).toHaveLength(2);

      const refusing = await faultyProxy(() => 503);
      try {
        const doomed = new FolioClient({ baseUrl: refusing.url, token: user.token, retry: { baseDelayMs: 1, retries: 3 } });
        await expect(doomed.initiateUpload({ name: 'x', contentType: 'text/plain', size: 1 })).rejects.toMatchObject({ status: 503 });
        expect(refusing.seen).toEqual(['POST /v1/drive/uploads']);
        await expect(doomed.getFile(file.uuid)).rejects.toMatchObject({ status: 503 });
        expect(refusing.seen.filter((line) => line.startsWith('GET'))).toHaveLength(4); // The first try and 3 retries.
      } finally {
        await refusing.close();
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('folio drive and folio docs', () => {
  it('puts, lists and gets a file; progress goes to stderr as plain lines when not a terminal', { timeout: CLI_TIMEOUT_MS }, async () => {
    const user = await makeUser();
    const path = join(scratch, 'put.bin');
    const data = randomBytes(CHUNK + 3);
    await writeFile(path, data);
    const folder = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Inbox' } });
    const { stdout, stderr } = await runFolio('drive', 'put', path, '--folder', folder.body.uuid, '--url', process.env.FOLIO_API_URL!, '--token', user.token, '--json');
    const put = JSON.parse(stdout);
    expect(put).toMatchObject({ object: 'drive_file', name: 'put.bin', folder_uuid: folder.body.uuid, file_size_bytes: data.length, upload_status: 'completed' });
    expect(stderr).toMatch(/^put\.bin 0% /m);
    expect(stderr).toMatch(/^put\.bin 100% 8\.4 MB of 8\.4 MB /m);
    await expect(stat(`${path}.folio-upload.json`)).rejects.toMatchObject({ code: 'ENOENT' });

    const list = await folioAs(user, 'drive', 'ls', folder.body.uuid);
    expect(list).toMatchObject({ object: 'list', folder_uuid: folder.body.uuid, folders: [], files: [{ uuid: put.uuid, name: 'put.bin' }] });
    const root = await folioAs(user, 'drive', 'ls');
    expect(root.folders.map((entry: any) => entry.name)).toEqual(['Inbox']);

    const target = join(scratch, 'got.bin');
    expect(await folioAs(user, 'drive', 'get', put.uuid, '-o', target)).toEqual({ uuid: put.uuid, path: target, bytes: data.length });
    expect((await readFile(target)).equals(data)).toBe(true);
  });

  it('refuses without an address or token, with a clear message', { timeout: CLI_TIMEOUT_MS }, async () => {
    const { FOLIO_URL: _url, FOLIO_TOKEN: _token, ...env } = process.env;
    await expect(run('npx', ['--no-install', 'folio', 'drive', 'ls', '--json'], { env: { ...env, FOLIO_CLI_FROM_SOURCE: '1' } })).rejects.toMatchObject({
      stdout: '',
      stderr: expect.stringContaining('No API address: pass --url or set FOLIO_URL.'),
    });
  });

  it('mirrors a folder one way, follows renames, moves and deletes, and reseeds after a 410', { timeout: 4 * CLI_TIMEOUT_MS }, async () => {
    const user = await makeUser();
    const client = folioClient({ token: user.token });
    const folder = (path: string, parent: string | null) => client.createFolder({ name: path, parent_uuid: parent });
    const put = (name: string, text: string, folderUuid: string | null) =>
      client.upload({ name, contentType: 'text/plain', size: Buffer.byteLength(text), source: Buffer.from(text), folderUuid });
    const mirrored = await folder('Mirrored', null);
    const sub = await folder('Sub', mirrored.uuid);
    const a = await put('a.txt', 'alpha', mirrored.uuid);
    const b = await put('b.txt', 'bravo', sub.uuid);
    await put('outside.txt', 'not mirrored', null);
    const dir = join(scratch, 'mirror');
    const tree = async (): Promise<Record<string, string>> => {
      const files: Record<string, string> = {};
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || entry.name === '.folio-sync.json') continue;
        const full = join(entry.parentPath, entry.name);
        files[full.slice(dir.length + 1)] = await readFile(full, 'utf8');
      }
      return files;
    };

    const seeded = await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid);
    expect(seeded).toEqual({ object: 'drive_sync', dir, folder_uuid: mirrored.uuid, reseeded: false, downloaded: 2, moved: 0, removed: 0, files: 2 });
    expect(await tree()).toEqual({ 'a.txt': 'alpha', [join('Sub', 'b.txt')]: 'bravo' });

    // Renamed, moved, replaced, deleted, added: the mirror follows without downloading what did not change.
    await call('POST', `/v1/drive/files/${a.uuid}`, { token: user.token, json: { name: 'a-renamed.txt', folder_uuid: sub.uuid } });
    await client.replace(b.uuid, { size: 7, source: Buffer.from('bravo 2') });
    const c = await put('c.txt', 'charlie', mirrored.uuid);
    const caught = await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid);
    expect(caught).toMatchObject({ reseeded: false, downloaded: 2, moved: 1, removed: 0, files: 3 });
    expect(await tree()).toEqual({ 'c.txt': 'charlie', [join('Sub', 'a-renamed.txt')]: 'alpha', [join('Sub', 'b.txt')]: 'bravo 2' });

    // The stored token falls behind the change log: the next sync gets 410, reseeds, and still ends right.
    await call('DELETE', `/v1/drive/files/${c.uuid}`, { token: user.token });
    await call('POST', `/v1/drive/folders/${sub.uuid}`, { token: user.token, json: { name: 'Renamed sub' } });
    const d = await put('d.txt', 'delta', mirrored.uuid);
    const head = await db()('drive_changes').where({ workspace_uuid: user.workspaceUuid }).max('seq as seq').first();
    await pruneChangeLog(db(), user.workspaceUuid, String(head!.seq));
    const stored = JSON.parse(await readFile(join(dir, '.folio-sync.json'), 'utf8'));
    expect((await call('GET', `/v1/drive/changes?since=${encodeURIComponent(stored.sync_token)}`, { token: user.token })).status).toBe(410);
    const reseeded = await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid);
    expect(reseeded).toMatchObject({ reseeded: true, downloaded: 1, moved: 2, removed: 1, files: 3 });
    expect(await tree()).toEqual({ 'd.txt': 'delta', [join('Renamed sub', 'a-renamed.txt')]: 'alpha', [join('Renamed sub', 'b.txt')]: 'bravo 2' });
    expect(await readdir(dir)).not.toContain('Sub');
    expect(d.uuid).toBeDefined();

    // Trashing the folder's content empties the mirror; the feed resumes from the new token (no 410).
    await call('POST', `/v1/drive/folders/${sub.uuid}/trash`, { token: user.token });
    expect(await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid)).toMatchObject({ reseeded: false, removed: 2, files: 1 });
    expect(await tree()).toEqual({ 'd.txt': 'delta' });
  });

  it('reads a document as markdown and edits it by find and replace', { timeout: CLI_TIMEOUT_MS }, async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Hello world\n\nSecond world' });
    const { stdout } = await runFolio('docs', 'get', document.uuid, '--url', process.env.FOLIO_API_URL!, '--token', user.token);
    expect(stdout).toBe('Hello world\n\nSecond world\n');
    const edited = await folioAs(user, 'docs', 'edit', document.uuid, '--find', 'world', '--replace', '**Folio**', '--occurrence', 'last');
    expect(edited).toMatchObject({ object: 'document_content', uuid: document.uuid, markdown: 'Hello world\n\nSecond **Folio**' });
    const ambiguous = await runFolio('docs', 'edit', document.uuid, '--find', 'o', '--replace', '0', '--url', process.env.FOLIO_API_URL!, '--token', user.token, '--json').then(
      () => undefined,
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(ambiguous).toMatchObject({ stdout: '', stderr: expect.stringContaining('422') });
    expect(ambiguous!.stderr).toContain('target_ambiguous');
    expect((await call('GET', `/v1/documents/${document.uuid}/content`, { token: user.token })).body.revision).toBe(edited.revision);
  });

  it('shows a moving progress bar for folio drive put on a terminal', { timeout: CLI_TIMEOUT_MS }, async () => {
    const user = await makeUser();
    const path = join(scratch, 'tty.bin');
    await writeFile(path, randomBytes(6 * CHUNK));
    const command = ['node', 'bin/folio.js', 'drive', 'put', path, '--window', '1', '--url', process.env.FOLIO_API_URL!, '--token', user.token].join(' ');
    // script(1) runs the command on a pseudo-terminal and copies what it draws to our stdout.
    const { stdout } = await run('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, FOLIO_CLI_FROM_SOURCE: '1', TERM: 'xterm' }, maxBuffer: 16 * 1024 * 1024 });
    const percentages = new Set([...stdout.matchAll(/(\d+)% \| [\d.]+ MB\/50\.3 MB \| [\d.]+ MB\/s \| ETA /g)].map((match) => Number(match[1])));
    expect(percentages.size).toBeGreaterThanOrEqual(3);
    expect(percentages.has(100)).toBe(true);
    expect(stdout.includes('\r') || stdout.includes('\u001b[')).toBe(true); // Redrawn in place, not line after line.
    expect(stdout).toContain('uuid: ');
  });
});
