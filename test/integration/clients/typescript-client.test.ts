// @folio/client and the `folio drive` / `folio docs` commands built on it, against the real stack: chunked round
// trips at the chunk edges, an upload stopped half-way and resumed from its state file (in the same process, and in a
// new one after the first was SIGKILLed), retries through a loopback proxy that fails requests on purpose, a one-way
// folder mirror through a 410, and a document edit.
import { createHash, randomBytes } from 'node:crypto';
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { FolioClient, contentHash, readState } from '../../../clients/typescript/src/index.js';
import { pruneChangeLog } from '../../../domain/drive/change-log.js';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { call, makeDocument, makeFolder, makeUser, type TestUser } from '../../support/api.js';
import { CLI_TIMEOUT_MS, runFolio } from '../../support/cli.js';
import { startExtraApi } from '../../support/extra-api.js';
import { folioClient } from '../../support/folio-client.js';
import { rememberBearerToken } from '../../support/log-scan.js';
import { checkApiResponse } from '../../support/openapi-check.js';

type ChangesPage = Awaited<ReturnType<FolioClient['changes']>>;

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
  const { stdout } = await runFolio(
    ...args,
    '--url',
    process.env.FOLIO_API_URL!,
    '--token',
    user.token,
    '--json',
  );
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** The MinIO parts of a staged upload: part number → etag (the MD5 of the bytes MinIO received, unquoted). */
async function storedParts(fileUuid: string): Promise<Map<number, string>> {
  const version = await db()('drive_file_versions').where({ uuid: fileUuid }).first();
  const parts: { part: number; etag: string }[] = await (storage() as any).listParts(
    bucket(),
    version.storage_key,
    version.storage_upload_id,
  );
  return new Map(parts.map((part) => [part.part, part.etag.replace(/"/g, '')]));
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** A loopback proxy in front of the API; `fault` decides, per request, to pass it on, answer 503, or drop it. */
async function faultyProxy(
  fault: (request: IncomingMessage) => 'pass' | 503 | 'drop',
): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const target = new URL(process.env.FOLIO_API_URL!);
  const seen: string[] = [];
  const server: Server = createServer((incoming, answer) => {
    seen.push(`${incoming.method} ${incoming.url}`);
    const decision = fault(incoming);
    if (decision === 'drop') return incoming.socket.destroy();
    if (decision === 503) {
      answer
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'unavailable' }));
      return;
    }
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        answer.writeHead(response.statusCode!, response.headers);
        response.pipe(answer);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
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
    const file = await client.upload(
      { name: `edge-${size}.bin`, contentType: 'application/octet-stream', size, source: data },
      { onProgress: (p) => seen.push(p.bytesDone) },
    );
    expect(file).toMatchObject({
      object: 'drive_file',
      file_size_bytes: size,
      upload_status: 'completed',
      ctag: 0,
    });
    expect(seen.at(0)).toBe(0);
    expect(seen.at(-1)).toBe(size);
    const init = await call('GET', `/v1/drive/files/${file.uuid}/download_init`, { token: user.token });
    expect(init.body.chunk_count).toBe(Math.max(1, Math.ceil(size / CHUNK)));
    expect(init.body.ciphertext_size_bytes).toBe(size + 28 * init.body.chunk_count);
    expect((await client.download(file.uuid)).equals(data)).toBe(true);
  });

  it('reads and seals each part as its slot frees, into the frame of the part before: five parts through a window of one', async () => {
    // With one part on the wire, part k + 1 is read only once part k is stored, and sealed into part k's frame.
    const user = await makeUser();
    const client = folioClient({ token: user.token });
    const size = 4 * CHUNK + 12_345;
    const data = randomBytes(size);
    const events: string[] = [];
    const file = await client.upload(
      {
        name: 'reused-frames.bin',
        contentType: 'application/octet-stream',
        size,
        source: (offset, length) => {
          events.push(`read ${offset / CHUNK + 1}`);
          return data.subarray(offset, offset + length);
        },
      },
      { window: 1, onPartStored: (n) => events.push(`stored ${n}`) },
    );
    expect(events).toEqual([1, 2, 3, 4, 5].flatMap((n) => [`read ${n}`, `stored ${n}`]));
    expect(file).toMatchObject({ file_size_bytes: size, upload_status: 'completed' });
    expect((await client.download(file.uuid)).equals(data)).toBe(true);
  });

  it('sends each part without a window and refusing redirects, so fetch does not clone it; a redirect fails the part', async () => {
    // fetch clones a request that may be redirected, copying its body once more (UNCLONED, clients/typescript/src/http.ts);
    // a presigned storage URL never redirects, so one that does is a misconfigured endpoint and the part is not stored.
    let redirected = 0;
    const redirector = createServer((req, res) => {
      redirected++;
      req.resume();
      res.writeHead(307, { location: req.headers['x-original-url'] as string }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => redirector.close(() => resolve())));
    const { port } = redirector.address() as AddressInfo;
    const user = await makeUser();
    rememberBearerToken(user.token);
    const partInits: RequestInit[] = [];
    const client = new FolioClient({
      baseUrl: process.env.FOLIO_API_URL!,
      token: user.token,
      retry: { retries: 1, baseDelayMs: 1 },
      fetch: (input, init) => {
        const url = String(input);
        if (!url.includes('partNumber=')) return fetch(input, init);
        partInits.push(init!);
        const headers = { ...(init!.headers as Record<string, string>), 'x-original-url': url };
        return fetch(`http://127.0.0.1:${port}/part`, { ...init, headers });
      },
    });
    const stateFile = join(scratch, 'redirected.json');
    const upload = client.upload(
      {
        name: 'redirected.bin',
        contentType: 'application/octet-stream',
        size: 1000,
        source: randomBytes(1000),
      },
      { stateFile },
    );
    await expect(upload).rejects.toThrow(TypeError);
    expect(partInits).toHaveLength(2); // The first attempt and its one retry.
    for (const init of partInits)
      expect(init).toMatchObject({ method: 'PUT', redirect: 'error', window: null });
    expect(redirected).toBe(2);
    expect(await storedParts((await readState(stateFile)).file_uuid)).toEqual(new Map());
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
      {
        stateFile,
        signal: stop.signal,
        onPartStored: () => ++stored === 2 && stop.abort(new Error('stopped on purpose')),
      },
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
    const { parts, contentHash: resumedHash } = await client.sendParts(state, data, {
      stateFile,
      onPartStored: (n) => resumedParts.push(n),
    });
    expect(resumedParts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6].filter((n) => !sent.includes(n)));
    const after = await storedParts(state.file_uuid);
    expect([...after.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const n of sent) expect(after.get(n)).toBe(before.get(n));
    // The hash covers the whole source, the parts sent before the stop read again for it (docs/extensions.md § Content hash).
    expect(resumedHash).toBe(await contentHash(data));
    const file = await client.complete(state, parts, resumedHash);
    expect(file).toMatchObject({
      upload_status: 'completed',
      file_size_bytes: size,
      content_hash: resumedHash,
    });
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
      client.upload(
        { name: 'again.bin', contentType: 'text/plain', size, source: data },
        { stateFile, signal: stop.signal, onPartStored: () => stop.abort(new Error('halt')) },
      ),
    ).rejects.toThrow('halt');
    expect(Object.keys((await readState(stateFile)).parts)).toEqual(['1']);
    const progress: number[] = [];
    const file = await client.resume(stateFile, data, { onProgress: (p) => progress.push(p.bytesDone) });
    expect(progress[0]).toBe(CHUNK); // Counted from the part already stored.
    expect(file).toMatchObject({ name: 'again.bin', upload_status: 'completed' });
    await expect(stat(stateFile)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await client.download(file.uuid)).equals(data)).toBe(true);
  });

  it(
    'resumes in a new process an upload whose process was SIGKILLed half-way, without sending the stored parts again',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      // An API whose uploads last an hour: under the suite's 8 s expiry, a busy machine starting `folio drive put` from
      // source could let the upload expire between the kill and the resume, which is not what this test is about.
      const api = await startExtraApi('api-long-uploads', { FOLIO_UPLOAD_EXPIRY: '1h' });
      onTestFinished(() => api.stop());
      const user = await makeUser();
      const client = folioClient({ token: user.token, baseUrl: api.url });
      const size = 4 * CHUNK - 1000;
      const data = randomBytes(size);
      const path = join(scratch, 'killed.bin');
      await writeFile(path, data);
      const stateFile = `${path}.folio-upload.json`; // Where `folio drive put` looks for it.

      // The child uploads two parts at a time and holds at the middle (it reads nothing past part 2): once it has
      // printed `stored` for parts 1 and 2 it has no request in flight, and it is killed there.
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'test/support/upload-child.ts',
          api.url,
          user.token,
          path,
          stateFile,
          String(2 * CHUNK),
          '2',
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
        child.once('exit', (code, signal) => resolve(signal ?? code)),
      );
      let stderr = '';
      child.stderr.on('data', (piece) => (stderr += piece));
      const stored: number[] = [];
      for await (const line of createInterface({ input: child.stdout })) {
        stored.push(Number(/^stored (\d+)$/.exec(line)?.[1]));
        if (stored.length === 2) break;
      }
      expect(
        stored.sort((a, b) => a - b),
        `the child printed ${JSON.stringify(stored)}; stderr: ${stderr}`,
      ).toEqual([1, 2]);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      // What the killed process left: the state file with parts 1 and 2, and exactly those parts in storage.
      const state = await readState(stateFile);
      expect(Object.keys(state.parts).sort()).toEqual(['1', '2']);
      const status = await client.uploadStatus(state.file_uuid);
      expect(status).toMatchObject({
        object: 'drive_upload',
        file_uuid: state.file_uuid,
        upload_status: 'uploading',
        chunk_count: 4,
      });
      expect(status.parts.map(({ part_number, etag }) => [part_number, etag])).toEqual(
        [1, 2].map((n) => [n, state.parts[String(n)]!.replace(/"/g, '')]),
      );

      // A new process, `folio drive put` run again, finds the state file and completes the same upload from part 3.
      const resumed = await runFolio(
        'drive',
        'put',
        path,
        '--url',
        api.url,
        '--token',
        user.token,
        '--json',
        '--progress', // Plain progress lines although stderr is a pipe here.
      );
      expect(JSON.parse(resumed.stdout)).toMatchObject({
        object: 'drive_file',
        uuid: state.file_uuid,
        name: 'killed.bin',
        file_size_bytes: size,
        upload_status: 'completed',
      });
      // Its first progress line counts from the parts already stored.
      expect(/^killed\.bin (\d+)% /m.exec(resumed.stderr)?.[1]).toBe(
        String(Math.round((100 * 2 * CHUNK) / size)),
      );
      await expect(stat(stateFile)).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(client.uploadStatus(state.file_uuid)).rejects.toMatchObject({
        status: 422,
        code: 'invalid_upload_status',
      });
      expect((await client.download(state.file_uuid)).equals(data)).toBe(true);

      // Parts 1 and 2 were not sent again: each chunk is sealed under a fresh random nonce, so a second PUT of a part
      // would have left other bytes; the object holds, at each of their places, the bytes whose MD5 the killed process
      // recorded.
      const version = await db()('drive_file_versions').where({ uuid: state.file_uuid }).first();
      for (const n of [1, 2]) {
        const stream = await storage().getPartialObject(
          bucket(),
          version.storage_key,
          (n - 1) * (CHUNK + 28),
          CHUNK + 28,
        );
        const chunks: Buffer[] = [];
        for await (const piece of stream) chunks.push(piece as Buffer);
        expect(md5(Buffer.concat(chunks))).toBe(state.parts[String(n)]!.replace(/"/g, ''));
      }
    },
  );

  it('retries a 503 and a dropped connection with backoff; an initiate is never retried', async () => {
    const user = await makeUser();
    const failed = new Set<string>();
    const once = (key: string, outcome: 503 | 'drop') =>
      failed.has(key) ? 'pass' : (failed.add(key), outcome);
    const proxy = await faultyProxy((incoming) => {
      if (incoming.url!.endsWith('/part_urls')) return once('part_urls', 'drop');
      if (incoming.url!.endsWith('/complete')) return once('complete', 503);
      if (incoming.url!.endsWith('/download_init')) return once('download_init', 503);
      return 'pass';
    });
    try {
      const responses: number[] = [];
      const client = new FolioClient({
        baseUrl: proxy.url,
        token: user.token,
        retry: { baseDelayMs: 10 },
        onResponse: (r) => void responses.push(r.status),
      });
      const data = randomBytes(CHUNK + 7);
      const file = await client.upload({
        name: 'retried.bin',
        contentType: 'application/octet-stream',
        size: data.length,
        source: data,
      });
      expect((await client.download(file.uuid)).equals(data)).toBe(true);
      const count = (suffix: string) => proxy.seen.filter((line) => line.endsWith(suffix)).length;
      expect(count('/part_urls')).toBe(2);
      expect(count('/complete')).toBe(2);
      expect(count('/download_init')).toBe(2);
      expect(responses.filter((status) => status === 503)).toHaveLength(2);

      const refusing = await faultyProxy(() => 503);
      try {
        const doomed = new FolioClient({
          baseUrl: refusing.url,
          token: user.token,
          retry: { baseDelayMs: 1, retries: 3 },
        });
        await expect(
          doomed.initiateUpload({ name: 'x', contentType: 'text/plain', size: 1 }),
        ).rejects.toMatchObject({ status: 503 });
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

describe('@folio/client changes feed', () => {
  /**
   * A client whose fetch records, in order, each changes request it sends (`ask <since>`, `first` without one) and each
   * answer's body once read (`read <since>`); `relink` may rewrite an answer's Link header.
   */
  function recordingClient(user: TestUser, relink?: (link: string | null) => string | null) {
    rememberBearerToken(user.token);
    const events: string[] = [];
    const inits: RequestInit[] = [];
    const client = new FolioClient({
      baseUrl: process.env.FOLIO_API_URL!,
      token: user.token,
      onResponse: checkApiResponse,
      fetch: async (input, init) => {
        const since = new URL(String(input)).searchParams.get('since') ?? 'first';
        events.push(`ask ${since}`);
        inits.push(init!);
        let response = await fetch(input, init);
        if (relink) {
          const headers = new Headers(response.headers);
          const link = relink(headers.get('link'));
          if (link === null) headers.delete('link');
          else headers.set('link', link);
          response = new Response(response.body, { status: response.status, headers });
        }
        const text = response.text.bind(response);
        Object.defineProperty(response, 'text', {
          value: async () => {
            const body = await text();
            events.push(`read ${since}`);
            return body;
          },
        });
        return response;
      },
    });
    return { client, events, inits };
  }

  /** Five folders: three pages of two (the last with has_more false). */
  async function userWithFiveFolders(): Promise<TestUser> {
    const user = await makeUser();
    for (const name of ['a', 'b', 'c', 'd', 'e']) await makeFolder(user, name);
    return user;
  }

  /** The feed read one page at a time, each asked for once the page before is read: what changePages must equal. */
  async function pageByPage(user: TestUser, limit: number) {
    const client = folioClient({ token: user.token });
    const pages = [await client.changes(undefined, limit)];
    while (pages.at(-1)!.has_more) pages.push(await client.changes(pages.at(-1)!.sync_token, limit));
    return pages;
  }

  const feedOf = (pages: { changes: unknown[]; sync_token: string; has_more: boolean }[]) =>
    pages.map(({ changes, sync_token, has_more }) => ({ changes, sync_token, has_more }));

  it("asks for each next page as soon as the answer before names it, before that answer is read; the pages are the feed's", async () => {
    const user = await userWithFiveFolders();
    const { client, events } = recordingClient(user);
    const pages: ChangesPage[] = [];
    for await (const page of client.changePages(undefined, 2)) pages.push(page);
    expect(pages).toHaveLength(3);
    expect(feedOf(pages)).toEqual(feedOf(await pageByPage(user, 2)));
    const [first, second] = pages.map((page) => page.sync_token);
    expect(events).toEqual([
      'ask first',
      `ask ${first}`,
      'read first',
      `ask ${second}`,
      `read ${first}`,
      `read ${second}`,
    ]);
  });

  it('drops a page asked for ahead that does not start where the page read ends, and asks for the right one', async () => {
    const user = await userWithFiveFolders();
    const { client, events } = recordingClient(user, (link) =>
      link && events.length === 1 ? link.replace(/since=[^&]+/, 'since=elsewhere') : link,
    );
    const pages: ChangesPage[] = [];
    for await (const page of client.changePages(undefined, 2)) pages.push(page);
    expect(feedOf(pages)).toEqual(feedOf(await pageByPage(user, 2)));
    expect(events).toContain('ask elsewhere');
    expect(events.filter((event) => event === `ask ${pages[0]!.sync_token}`)).toHaveLength(1);
  });

  it('cancels the page asked for ahead when the loop ends early', async () => {
    const user = await userWithFiveFolders();
    const { client, events, inits } = recordingClient(user);
    for await (const page of client.changePages(undefined, 2)) {
      expect(page.has_more).toBe(true);
      break;
    }
    expect(events.slice(0, 2)).toEqual(['ask first', expect.stringMatching(/^ask [A-Za-z0-9_-]+$/)]);
    await vi.waitFor(() => expect(inits[1]!.signal!.aborted).toBe(true));
    expect(inits[0]!.signal!.aborted).toBe(true);
  });
});

describe('folio drive and folio docs', () => {
  it(
    'puts, lists and gets a file; no progress when stderr is not a terminal',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const path = join(scratch, 'put.bin');
      const data = randomBytes(CHUNK + 3);
      await writeFile(path, data);
      const folder = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Inbox' } });
      const { stdout, stderr } = await runFolio(
        'drive',
        'put',
        path,
        '--folder',
        folder.body.uuid,
        '--url',
        process.env.FOLIO_API_URL!,
        '--token',
        user.token,
        '--json',
      );
      const put = JSON.parse(stdout);
      expect(put).toMatchObject({
        object: 'drive_file',
        name: 'put.bin',
        folder_uuid: folder.body.uuid,
        file_size_bytes: data.length,
        upload_status: 'completed',
      });
      expect(stderr).toBe(''); // Progress is for a terminal only (cli/progress.ts).
      await expect(stat(`${path}.folio-upload.json`)).rejects.toMatchObject({ code: 'ENOENT' });

      const list = await folioAs(user, 'drive', 'ls', folder.body.uuid);
      expect(list).toMatchObject({
        object: 'list',
        folder_uuid: folder.body.uuid,
        folders: [],
        files: [{ uuid: put.uuid, name: 'put.bin' }],
      });
      const root = await folioAs(user, 'drive', 'ls');
      expect(root.folders.map((entry: any) => entry.name)).toEqual(['Inbox']);

      const target = join(scratch, 'got.bin');
      expect(await folioAs(user, 'drive', 'get', put.uuid, '-o', target)).toEqual({
        uuid: put.uuid,
        path: target,
        bytes: data.length,
      });
      expect((await readFile(target)).equals(data)).toBe(true);
    },
  );

  it('refuses without an address or token, with a clear message', { timeout: CLI_TIMEOUT_MS }, async () => {
    const { FOLIO_URL: _url, FOLIO_TOKEN: _token, ...env } = process.env;
    await expect(
      run('npx', ['--no-install', 'folio', 'drive', 'ls', '--json'], {
        env: { ...env, FOLIO_CLI_FROM_SOURCE: '1' },
      }),
    ).rejects.toMatchObject({
      code: 2, // A usage error (docs/cli.md § Exit codes), answered as one JSON object under --json.
      stdout: expect.stringContaining('"code":"no_url"'),
      stderr: expect.stringContaining('No API address: pass --url or set FOLIO_URL.'),
    });
  });

  it(
    'mirrors a folder one way, follows renames, moves and deletes, and reseeds after a 410',
    { timeout: 4 * CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const client = folioClient({ token: user.token });
      const folder = (path: string, parent: string | null) =>
        client.createFolder({ name: path, parent_uuid: parent });
      const put = (name: string, text: string, folderUuid: string | null) =>
        client.upload({
          name,
          contentType: 'text/plain',
          size: Buffer.byteLength(text),
          source: Buffer.from(text),
          folderUuid,
        });
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

      const seeded = await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid, '--download-only');
      expect(seeded).toEqual({
        object: 'drive_sync',
        dir,
        folder_uuid: mirrored.uuid,
        reseeded: false,
        downloaded: 2,
        unchanged: 0,
        moved: 0,
        removed: 0,
        files: 2,
      });
      expect(await tree()).toEqual({ 'a.txt': 'alpha', [join('Sub', 'b.txt')]: 'bravo' });

      // Renamed, moved, replaced, deleted, added: the mirror follows without downloading what did not change.
      await call('POST', `/v1/drive/files/${a.uuid}`, {
        token: user.token,
        json: { name: 'a-renamed.txt', folder_uuid: sub.uuid },
      });
      await client.replace(b.uuid, { size: 7, source: Buffer.from('bravo 2') });
      const c = await put('c.txt', 'charlie', mirrored.uuid);
      const caught = await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid, '--download-only');
      expect(caught).toMatchObject({ reseeded: false, downloaded: 2, moved: 1, removed: 0, files: 3 });
      expect(await tree()).toEqual({
        'c.txt': 'charlie',
        [join('Sub', 'a-renamed.txt')]: 'alpha',
        [join('Sub', 'b.txt')]: 'bravo 2',
      });

      // The stored token falls behind the change log: the next sync gets 410, reseeds, and still ends right.
      await call('DELETE', `/v1/drive/files/${c.uuid}`, { token: user.token });
      await call('POST', `/v1/drive/folders/${sub.uuid}`, {
        token: user.token,
        json: { name: 'Renamed sub' },
      });
      const d = await put('d.txt', 'delta', mirrored.uuid);
      const head = await db()('drive_changes')
        .where({ workspace_uuid: user.workspaceUuid })
        .max('seq as seq')
        .first();
      await pruneChangeLog(db(), user.workspaceUuid, String(head!.seq));
      const stored = JSON.parse(await readFile(join(dir, '.folio-sync.json'), 'utf8'));
      expect(
        (
          await call('GET', `/v1/drive/changes?since=${encodeURIComponent(stored.sync_token)}`, {
            token: user.token,
          })
        ).status,
      ).toBe(410);
      const reseeded = await folioAs(
        user,
        'drive',
        'sync',
        dir,
        '--folder',
        mirrored.uuid,
        '--download-only',
      );
      expect(reseeded).toMatchObject({ reseeded: true, downloaded: 1, moved: 2, removed: 1, files: 3 });
      expect(await tree()).toEqual({
        'd.txt': 'delta',
        [join('Renamed sub', 'a-renamed.txt')]: 'alpha',
        [join('Renamed sub', 'b.txt')]: 'bravo 2',
      });
      expect(await readdir(dir)).not.toContain('Sub');
      expect(d.uuid).toBeDefined();

      // Trashing the folder's content empties the mirror; the feed resumes from the new token (no 410).
      await call('POST', `/v1/drive/folders/${sub.uuid}/trash`, { token: user.token });
      expect(
        await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid, '--download-only'),
      ).toMatchObject({
        reseeded: false,
        removed: 2,
        files: 1,
      });
      expect(await tree()).toEqual({ 'd.txt': 'delta' });
    },
  );

  it(
    'does not download a file whose place on disk already holds its contents (content_hash)',
    { timeout: 3 * CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const client = folioClient({ token: user.token });
      const mirrored = await client.createFolder({ name: 'Hashed', parent_uuid: null });
      const text = 'the same bytes';
      const file = await client.upload({
        name: 'same.txt',
        contentType: 'text/plain',
        size: text.length,
        source: Buffer.from(text),
        folderUuid: mirrored.uuid,
      });
      const dir = join(scratch, 'mirror-hash');
      // A copy already there (not written by the mirror) is kept as it is: same inode, same mtime.
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'same.txt'), text);
      const copied = await stat(join(dir, 'same.txt'));
      expect(
        await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid, '--download-only'),
      ).toMatchObject({
        downloaded: 0,
        unchanged: 1,
        files: 1,
      });
      expect(await stat(join(dir, 'same.txt'))).toMatchObject({ ino: copied.ino, mtimeMs: copied.mtimeMs });

      // Replaced with the same bytes: ctag moves on, the file on disk does not change.
      expect(await client.replace(file.uuid, { size: text.length, source: Buffer.from(text) })).toMatchObject(
        { ctag: 1, content_hash: file.content_hash },
      );
      expect(
        await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid, '--download-only'),
      ).toMatchObject({
        downloaded: 0,
        unchanged: 1,
      });
      expect(await stat(join(dir, 'same.txt'))).toMatchObject({ ino: copied.ino, mtimeMs: copied.mtimeMs });

      // Replaced with other bytes: downloaded.
      await client.replace(file.uuid, { size: 5, source: Buffer.from('other') });
      expect(
        await folioAs(user, 'drive', 'sync', dir, '--folder', mirrored.uuid, '--download-only'),
      ).toMatchObject({
        downloaded: 1,
        unchanged: 0,
      });
      expect(await readFile(join(dir, 'same.txt'), 'utf8')).toBe('other');
    },
  );

  it(
    'reads a document as markdown and edits it by find and replace',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const document = await makeDocument(user, { markdown: 'Hello world\n\nSecond world' });
      const { stdout } = await runFolio(
        'docs',
        'get',
        document.uuid,
        '--url',
        process.env.FOLIO_API_URL!,
        '--token',
        user.token,
      );
      expect(stdout).toBe('Hello world\n\nSecond world\n');
      const edited = await folioAs(
        user,
        'docs',
        'edit',
        document.uuid,
        '--find',
        'world',
        '--replace',
        '**Folio**',
        '--occurrence',
        'last',
      );
      expect(edited).toMatchObject({
        object: 'document_content',
        uuid: document.uuid,
        markdown: 'Hello world\n\nSecond **Folio**',
      });
      const ambiguous = await runFolio(
        'docs',
        'edit',
        document.uuid,
        '--find',
        'o',
        '--replace',
        '0',
        '--url',
        process.env.FOLIO_API_URL!,
        '--token',
        user.token,
        '--json',
      ).then(
        () => undefined,
        (error: { stdout: string; stderr: string }) => error,
      );
      // With --json the failure is one JSON object on stdout too (docs/cli.md § Errors); its message is the API's
      // error_description, as on stderr, not the whole error body.
      const refused = await call('POST', `/v1/documents/${document.uuid}/content`, {
        token: user.token,
        json: { operations: [{ type: 'replace', find: 'o', with: '0' }] },
      });
      expect(refused).toMatchObject({ status: 422, body: { error: 'target_ambiguous' } });
      const description = refused.body.error_description as string;
      expect(JSON.parse(ambiguous!.stdout)).toEqual({
        error: { code: 'target_ambiguous', message: description, status: 422 },
      });
      expect(ambiguous!.stderr).toBe(`folio: ${description}\n`);
      expect(
        (await call('GET', `/v1/documents/${document.uuid}/content`, { token: user.token })).body.revision,
      ).toBe(edited.revision);
    },
  );

  it(
    'shows a moving progress bar for folio drive put on a terminal',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const path = join(scratch, 'tty.bin');
      await writeFile(path, randomBytes(6 * CHUNK));
      const command = [
        'node',
        'bin/folio.js',
        'drive',
        'put',
        path,
        '--window',
        '1',
        '--url',
        process.env.FOLIO_API_URL!,
        '--token',
        user.token,
      ].join(' ');
      // script(1) runs the command on a pseudo-terminal and copies what it draws to our stdout.
      const { stdout } = await run('script', ['-qfec', command, '/dev/null'], {
        env: { ...process.env, FOLIO_CLI_FROM_SOURCE: '1', TERM: 'xterm' },
        maxBuffer: 16 * 1024 * 1024,
      });
      const percentages = new Set(
        [...stdout.matchAll(/(\d+)% \| [\d.]+ MB\/50\.3 MB \| [\d.]+ MB\/s \| ETA /g)].map((match) =>
          Number(match[1]),
        ),
      );
      expect(percentages.size).toBeGreaterThanOrEqual(3);
      expect(percentages.has(100)).toBe(true);
      expect(stdout.includes('\r') || stdout.includes('\u001b[')).toBe(true); // Redrawn in place, not line after line.
      expect(stdout).toContain('uuid: ');
    },
  );
});
