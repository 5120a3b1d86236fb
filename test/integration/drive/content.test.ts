// Simple upload and download, chunked download, and how the bytes sit encrypted in storage.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTemporalClient } from '../../../platform/temporal.js';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { apiUrl, call, fetchApi, makeUser, tokenFor, type TestUser } from '../../support/api.js';
import { downloadChunked, uploadChunked } from '../../support/folio-client.js';
import { expectedDriveFile, simpleDownload, simpleUpload } from '../../support/drive-files.js';
import { storedUnder } from '../../support/storage.js';

afterAll(closeTemporalClient);

const MiB = 1024 * 1024;
const CAP = 100_000_000; // the spec's 100 MB

async function readObject(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage().getObject(bucket(), key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('Simple upload and download', () => {
  it('stores a file and answers 201 with the exact drive_file, completed at once', async () => {
    const user = await makeUser({ firstName: 'Grace', lastName: 'Hopper' });
    const data = Buffer.from('hello, drive');
    const response = await call('POST', '/v1/drive/files', {
      token: user.token,
      json: { name: 'hello.txt', content_type: 'text/plain', data: data.toString('base64') },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(
      expectedDriveFile({
        name: 'hello.txt',
        content_type: 'text/plain',
        file_size_bytes: 12,
        owner: { self: true, first_name: 'Grace', last_name: 'Hopper', display_name: 'Grace Hopper' },
        // SHA-256 of the SHA-256 of its one block (computed with openssl; docs/extensions.md § Content hash).
        content_hash: '9f7e92f5c4c1a5f7db69caae04515011b7df8ddf6d2c79b359a0164d7d6b94ea',
      }),
    );
    const download = await call('GET', `/v1/drive/files/${response.body.uuid}/download`, {
      token: user.token,
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(download.body).toEqual({
      uuid: response.body.uuid,
      name: 'hello.txt',
      content_type: 'text/plain',
      size: 12,
      data: data.toString('base64'),
    });
    const listed = await call('GET', '/v1/drive/files', { token: user.token });
    expect(listed.body.files.map((f: { uuid: string }) => f.uuid)).toEqual([response.body.uuid]);
  });

  it('emits one create change for the new file, in the same transaction', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'feed.bin', randomBytes(10));
    const changes = await db()('drive_changes').where({ item_uuid: file.uuid });
    expect(changes.map((c) => [c.change_type, c.item_version])).toEqual([['create', 1]]);
  });

  it('uploads into a folder the caller can edit', async () => {
    const user = await makeUser();
    const folder = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Docs' } });
    const file = await simpleUpload(user, 'in-folder.bin', randomBytes(5), { folder_uuid: folder.body.uuid });
    expect(file.folder_uuid).toBe(folder.body.uuid);
    const listed = await call('GET', `/v1/drive/files?folder_uuid=${folder.body.uuid}`, {
      token: user.token,
    });
    expect(listed.body.files.map((f: { name: string }) => f.name)).toEqual(['in-folder.bin']);
  });

  it('stores and serves an empty file', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'empty', Buffer.alloc(0));
    expect(file.file_size_bytes).toBe(0);
    expect(await simpleDownload(user, file.uuid)).toEqual(Buffer.alloc(0));
    expect(await downloadChunked({ token: user.token }, file.uuid)).toEqual(Buffer.alloc(0));
    const init = await call('GET', `/v1/drive/files/${file.uuid}/download_init`, { token: user.token });
    expect(init.body).toMatchObject({ chunk_count: 1, ciphertext_size_bytes: 28 });
  });

  it('accepts unpadded base64 and base64 wrapped in lines', async () => {
    const user = await makeUser();
    const data = randomBytes(100);
    const wrapped = data.toString('base64').replace(/(.{76})/g, '$1\r\n');
    const a = await simpleUpload(user, 'wrapped', data, { data: wrapped });
    expect(await simpleDownload(user, a.uuid)).toEqual(data);
    const odd = randomBytes(7);
    const b = await simpleUpload(user, 'unpadded', odd, { data: odd.toString('base64').replace(/=+$/, '') });
    expect(await simpleDownload(user, b.uuid)).toEqual(odd);
  });

  it('refuses missing name or content_type with 422 missing_required_fields', async () => {
    const user = await makeUser();
    const data = Buffer.from('x').toString('base64');
    const noName = await call('POST', '/v1/drive/files', {
      token: user.token,
      json: { content_type: 'text/plain', data },
    });
    expect(noName.status).toBe(422);
    expect(noName.body).toEqual({ error: 'missing_required_fields', fields: ['name'] });
    const neither = await call('POST', '/v1/drive/files', { token: user.token, json: { data } });
    expect(neither.status).toBe(422);
    expect(neither.body).toEqual({ error: 'missing_required_fields', fields: ['name', 'content_type'] });
    const empty = await call('POST', '/v1/drive/files', { token: user.token });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ error: 'missing_required_fields', fields: ['name', 'content_type'] });
  });

  it('refuses missing or invalid base64 data with 400 invalid_body, storing nothing', async () => {
    const user = await makeUser();
    const before = await db()('workspaces').where({ uuid: user.workspaceUuid }).first();
    for (const data of [undefined, null, 42, 'not base64!', 'QUJD-_', 'QQ=', 'Q', 'QUJD====']) {
      const response = await call('POST', '/v1/drive/files', {
        token: user.token,
        json: { name: 'bad', content_type: 'text/plain', data },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_body', fields: ['data'] });
    }
    const notJson = await call('POST', '/v1/drive/files', {
      token: user.token,
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ error: 'invalid_body' });
    expect((await call('GET', '/v1/drive/files', { token: user.token })).body.files).toEqual([]);
    const after = await db()('workspaces').where({ uuid: user.workspaceUuid }).first();
    expect(after.storage_used_bytes).toBe(before.storage_used_bytes);
  });

  it('refuses a content_type that is not a MIME type with 422 invalid, and a taken name with 422 name_taken', async () => {
    const user = await makeUser();
    const bad = await call('POST', '/v1/drive/files', {
      token: user.token,
      json: { name: 'x', content_type: 'not a type', data: '' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ error: 'invalid', field: 'content_type' });
    const first = await simpleUpload(user, 'Taken.txt', Buffer.from('1'));
    const stored = await storedUnder(user.workspaceUuid);
    const pool = await db()('workspaces').where({ uuid: user.workspaceUuid }).first();
    const changes = await db()('drive_changes').where({ workspace_uuid: user.workspaceUuid });

    const taken = await call('POST', '/v1/drive/files', {
      token: user.token,
      json: { name: 'taken.TXT', content_type: 'text/plain', data: 'MQ==' },
    });

    expect(taken.status).toBe(422);
    expect(taken.body).toEqual({ error: 'name_taken' });
    // Refused by the unique index at the insert (domain/drive/content.ts checkNewFileDestination): the bytes stored
    // before it are dropped with the staged row, and nothing else changed.
    expect(await storedUnder(user.workspaceUuid)).toEqual(stored);
    expect(await db()('drive_staged_uploads').where({ workspace_uuid: user.workspaceUuid })).toEqual([]);
    expect(await db()('workspaces').where({ uuid: user.workspaceUuid }).first()).toEqual(pool);
    expect(await db()('drive_changes').where({ workspace_uuid: user.workspaceUuid })).toEqual(changes);
    expect(await db()('drive_items').where({ workspace_uuid: user.workspaceUuid }).pluck('uuid')).toEqual([
      first.uuid,
    ]);
  });

  it('refuses an upload into a folder the caller cannot see (404) and needs the drive.create scope (403)', async () => {
    const owner = await makeUser();
    const stranger = await makeUser({ workspace: { uuid: owner.workspaceUuid } });
    const folder = await call('POST', '/v1/drive/folders', { token: owner.token, json: { name: 'Private' } });
    const response = await call('POST', '/v1/drive/files', {
      token: stranger.token,
      json: { name: 'intruder', content_type: 'text/plain', data: 'eA==', folder_uuid: folder.body.uuid },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found' });
    const readOnly = await tokenFor(owner, ['drive.read']);
    const scoped = await call('POST', '/v1/drive/files', {
      token: readOnly,
      json: { name: 'x', content_type: 'text/plain', data: 'eA==' },
    });
    expect(scoped.status).toBe(403);
  });

  it('refuses a body whose declared length passes the cap with 413 file_too_large, before reading it', async () => {
    const user = await makeUser();
    const url = new URL('/v1/drive/files', apiUrl());
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.token}`,
          'content-type': 'application/json',
          'content-length': String(200 * 1000 * 1000),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (piece) => (body += piece));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('{"name":"big","content_type":"application/octet-stream","data":"AAAA'); // and nothing more
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'file_too_large', max_bytes: CAP });
  });

  it('refuses a chunked-encoded body once it passes the cap with 413 file_too_large', async () => {
    const user = await makeUser();
    const url = new URL('/v1/drive/files', apiUrl());
    const piece = Buffer.alloc(4 * MiB, 'A');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let answered = false;
      const req = request(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8').on('data', (part) => (body += part));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        });
      });
      req.on('error', (error) => (answered ? undefined : reject(error)));
      req.write('{"name":"big","content_type":"application/octet-stream","data":"');
      const pump = () => {
        while (!answered && req.write(piece));
        if (!answered) req.once('drain', pump);
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'file_too_large', max_bytes: CAP });
  });

  // Moves about 400 MB through the API and the test process: give a busy machine room.
  it(
    "takes exactly 100,000,000 bytes (the spec's 100 MB) and refuses one byte more with 413 file_too_large",
    { timeout: 180_000 },
    async () => {
      const user = await makeUser();
      const data = randomBytes(CAP + 1);
      const over = await call('POST', '/v1/drive/files', {
        token: user.token,
        json: { name: 'over', content_type: 'application/octet-stream', data: data.toString('base64') },
      });
      expect(over.status).toBe(413);
      expect(over.body).toEqual({ error: 'file_too_large', max_bytes: CAP });
      const exact = await simpleUpload(user, 'exact', data.subarray(0, CAP));
      expect(exact.file_size_bytes).toBe(CAP);
      const back = await simpleDownload(user, exact.uuid);
      expect(back.equals(data.subarray(0, CAP))).toBe(true);
    },
  );
});

describe('Downloads', () => {
  it('answers download_init with the key, the layout and a presigned URL for ranged GETs', async () => {
    const user = await makeUser();
    const data = randomBytes(9 * MiB);
    const file = await simpleUpload(user, 'nine-mib.bin', data);
    const init = await call('GET', `/v1/drive/files/${file.uuid}/download_init`, { token: user.token });
    expect(init.status).toBe(200);
    expect(init.headers.get('cache-control')).toBe('private, no-store');
    expect(init.body).toEqual({
      data_key: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
      chunk_size_bytes: 8 * MiB,
      chunk_count: 2,
      ciphertext_size_bytes: 9 * MiB + 56,
      download_url: expect.stringMatching(/^http/),
      version_uuid: file.uuid,
    });
    const secondChunk = await fetch(init.body.download_url, { headers: { range: `bytes=${8 * MiB + 28}-` } });
    expect(secondChunk.status).toBe(206);
    expect((await secondChunk.arrayBuffer()).byteLength).toBe(MiB + 28);
  });

  it('moves the same bytes through all four combinations of simple and chunked upload and download', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const data = randomBytes(17 * MiB + 123); // three chunks, the last one partial
    const simple = await simpleUpload(user, 'simple.bin', data);
    const chunked = await uploadChunked(client, {
      name: 'chunked.bin',
      contentType: 'application/octet-stream',
      size: data.length,
      source: data,
    });
    expect(chunked).toMatchObject({
      object: 'drive_file',
      upload_status: 'completed',
      file_size_bytes: data.length,
    });
    for (const uuid of [simple.uuid, chunked.uuid]) {
      expect((await simpleDownload(user, uuid)).equals(data)).toBe(true);
      expect((await downloadChunked(client, uuid))!.equals(data)).toBe(true);
    }
  });

  it('keeps only ciphertext at rest, one object per version under drive/<workspace>/<file>/<version>', async () => {
    const user = await makeUser();
    const data = Buffer.alloc(1000, 'plaintext!');
    const file = await simpleUpload(user, 'secret.txt', data);
    const version = await db()('drive_file_versions').where({ file_uuid: file.uuid }).first();
    expect(version).toMatchObject({
      uuid: file.uuid,
      status: 'live',
      storage_key: `drive/${user.workspaceUuid}/${file.uuid}/${file.uuid}`,
    });
    const stored = await readObject(version.storage_key);
    expect(stored.length).toBe(1000 + 28);
    expect(stored.includes(Buffer.from('plaintext!'))).toBe(false);
    const init = await call('GET', `/v1/drive/files/${file.uuid}/download_init`, { token: user.token });
    const key = Buffer.from(init.body.data_key, 'base64');
    expect(version.wrapped_key.includes(key)).toBe(false);
    // The documented layout opens it: nonce || ciphertext || tag, AAD folio-drive-chunk-v1:<version>:0:1.
    const subtleKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: stored.subarray(0, 12),
        additionalData: Buffer.from(`folio-drive-chunk-v1:${file.uuid}:0:1`),
      },
      subtleKey,
      stored.subarray(12),
    );
    expect(Buffer.from(plain).equals(data)).toBe(true);
  });

  it('never completes a download whose stored bytes were tampered with', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'tampered.bin', randomBytes(3000));
    const key = `drive/${user.workspaceUuid}/${file.uuid}/${file.uuid}`;
    const stored = await readObject(key);
    stored[100]! ^= 0xff;
    await storage().putObject(bucket(), key, stored);
    const response = await fetchApi(`/v1/drive/files/${file.uuid}/download`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const outcome = await response.text().then(
      (text) => ({ complete: true, text }),
      () => ({ complete: false, text: '' }),
    );
    if (outcome.complete) expect(() => JSON.parse(outcome.text)).toThrow();
    await expect(downloadChunked({ token: user.token }, file.uuid)).rejects.toThrow();
  });

  it('answers 404 not_found to downloads of unknown, invisible or still-uploading files', async () => {
    const user = await makeUser();
    const stranger = await makeUser({ workspace: { uuid: user.workspaceUuid } });
    const file = await simpleUpload(user, 'mine.bin', randomBytes(10));
    const uploading = await call('POST', '/v1/drive/uploads', {
      token: user.token,
      json: { name: 'pending.bin', content_type: 'application/octet-stream', plaintext_size_bytes: 10 },
    });
    const cases: [TestUser, string][] = [
      [stranger, file.uuid],
      [user, '00000000-0000-4000-8000-000000000000'],
      [user, 'nope'],
      [user, uploading.body.file_uuid],
    ];
    for (const [who, uuid] of cases) {
      for (const path of ['download', 'download_init']) {
        const response = await call('GET', `/v1/drive/files/${uuid}/${path}`, { token: who.token });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'not_found' });
      }
    }
  });
});
