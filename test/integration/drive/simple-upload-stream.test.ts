// The streamed simple upload (docs/drive-encryption.md § 5): a body above the large-upload threshold with a
// Content-Length is stored chunk by chunk while it arrives. Round trips, the chunk count resealed when the body held
// fewer chunks than its length allowed, and refusals that leave nothing: no file, no staged row, no object or
// multipart upload, the pool as it was.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { contentHash } from '../../../domain/drive/content-hash.js';
import { call, firstApiUrl, makeUser, type TestUser } from '../../support/api.js';
import { waitUntil } from '../../support/cascades.js';
import { simpleDownload, simpleUpload } from '../../support/drive-files.js';
import { storedUnder } from '../../support/storage.js';
import { usedBytes } from '../../support/drive-rows.js';

const MiB = 1024 * 1024;

const stagedRows = (user: TestUser) =>
  db()('drive_staged_uploads').where({ workspace_uuid: user.workspaceUuid });

/** What a refused upload must leave: nothing stored, no staged row, no file of that name, the pool unchanged. */
async function expectNothingLeft(user: TestUser, name: string, poolBefore: number) {
  await waitUntil(async () => (await stagedRows(user)).length === 0);
  expect(await storedUnder(user.workspaceUuid)).toEqual({ objects: [], uploads: [] });
  expect(await db()('drive_items').where({ workspace_uuid: user.workspaceUuid, name })).toEqual([]);
  expect(await usedBytes(user)).toBe(poolBefore);
}

/** POST /v1/drive/files with `body` as given (its members in the order written). */
const post = (user: TestUser, body: string | Buffer) =>
  call('POST', '/v1/drive/files', {
    token: user.token,
    body,
    headers: { 'content-type': 'application/json' },
  });

const bodyOf = (name: string, data: string, tail = '') =>
  `{"name":${JSON.stringify(name)},"content_type":"application/octet-stream","data":${JSON.stringify(data)}}${tail}`;

describe('Streamed simple upload (a body over 10 MB)', () => {
  it('stores 20 MB as it arrives: the download equals the upload, content_hash is the plaintext’s, no staged row is left', async () => {
    const user = await makeUser();
    const data = randomBytes(20_000_000);
    const response = await post(user, bodyOf('big.bin', data.toString('base64')));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'big.bin',
      file_size_bytes: 20_000_000,
      upload_status: 'completed',
      content_hash: contentHash(data),
    });
    expect((await simpleDownload(user, response.body.uuid)).equals(data)).toBe(true);
    const init = await call('GET', `/v1/drive/files/${response.body.uuid}/download_init`, {
      token: user.token,
    });
    expect(init.body).toMatchObject({ chunk_count: 3, ciphertext_size_bytes: 20_000_000 + 3 * 28 });
    expect(await stagedRows(user)).toEqual([]);
    expect((await storedUnder(user.workspaceUuid)).uploads).toEqual([]);
    expect(await usedBytes(user)).toBe(20_000_000);
  });

  it('takes base64 wrapped at 76 columns with CRLF (escaped in the JSON) and escaped slashes', async () => {
    const user = await makeUser();
    const data = randomBytes(12_000_000);
    const wrapped = data
      .toString('base64')
      .match(/.{1,76}/g)!
      .join('\r\n');
    const body = bodyOf('wrapped.bin', wrapped).replace(/\//g, '\\/');
    expect(body.length).toBeGreaterThan(10_000_000);
    const response = await post(user, body);
    expect(response.status).toBe(201);
    expect(response.body.content_hash).toBe(contentHash(data));
    expect((await simpleDownload(user, response.body.uuid)).equals(data)).toBe(true);
  });

  it('reseals what it sent when the body holds fewer chunks than its Content-Length lets it expect (whitespace after the object)', async () => {
    const user = await makeUser();
    // Two chunks of plaintext; the length, with 8,000 spaces after the object, allows three.
    const data = randomBytes(2 * 8 * MiB - 1000);
    const body = bodyOf('resealed.bin', data.toString('base64'), ' '.repeat(8000));
    expect(Math.ceil(Math.floor((body.length * 3) / 4) / (8 * MiB))).toBe(3);
    const response = await post(user, body);
    expect(response.status).toBe(201);
    expect(response.body.content_hash).toBe(contentHash(data));
    const init = await call('GET', `/v1/drive/files/${response.body.uuid}/download_init`, {
      token: user.token,
    });
    expect(init.body.chunk_count).toBe(2);
    // Every chunk opens under the count 2 (the download authenticates each chunk with its AAD).
    expect((await simpleDownload(user, response.body.uuid)).equals(data)).toBe(true);
    expect((await storedUnder(user.workspaceUuid)).uploads).toEqual([]);
  });

  it('reseals when the body holds more chunks than expected (dense line breaks early, none later)', async () => {
    const user = await makeUser();
    const data = randomBytes(30_000_000);
    const text = data.toString('base64');
    // A line break every 4 characters in the first 12,000,000: the first chunk is sealed at that density, which
    // makes the rest of the declared length look like 3 chunks in all where the body holds 4.
    const wrapped = `${text.slice(0, 12_000_000).match(/.{4}/g)!.join('\n')}\n${text.slice(12_000_000)}`;
    const response = await post(user, bodyOf('denser.bin', wrapped));
    expect(response.status).toBe(201);
    expect(response.body.content_hash).toBe(contentHash(data));
    const init = await call('GET', `/v1/drive/files/${response.body.uuid}/download_init`, {
      token: user.token,
    });
    expect(init.body.chunk_count).toBe(4);
    expect((await simpleDownload(user, response.body.uuid)).equals(data)).toBe(true);
  });

  it('refuses invalid base64 in the middle of the data with 400 invalid_body and leaves nothing', async () => {
    const user = await makeUser();
    const poolBefore = await usedBytes(user);
    const text = randomBytes(20_000_000).toString('base64');
    const middle = 16_000_000; // past the first two chunks, which were already sent
    const response = await post(
      user,
      bodyOf('broken.bin', `${text.slice(0, middle)}!${text.slice(middle + 1)}`),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_body', fields: ['data'] });
    await expectNothingLeft(user, 'broken.bin', poolBefore);
  });

  it('refuses URL-safe base64 ("-") with 400 invalid_body', async () => {
    const user = await makeUser();
    const text = randomBytes(9_000_000).toString('base64');
    const response = await post(
      user,
      bodyOf('urlsafe.bin', `${text.slice(0, 5_000_000)}-${text.slice(5_000_001)}`),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_body', fields: ['data'] });
  });

  it('refuses a taken name sent after data with 422 name_taken, the bytes stored meanwhile discarded', async () => {
    const user = await makeUser();
    await simpleUpload(user, 'taken.bin', Buffer.from('first'));
    const poolBefore = await usedBytes(user);
    const data = randomBytes(20_000_000).toString('base64');
    const response = await post(
      user,
      `{"data":${JSON.stringify(data)},"name":"taken.bin","content_type":"application/octet-stream"}`,
    );
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('name_taken');
    await waitUntil(async () => (await stagedRows(user)).length === 0);
    const { objects, uploads } = await storedUnder(user.workspaceUuid);
    expect(uploads).toEqual([]);
    expect(objects).toHaveLength(1); // the first file's
    expect(await db()('drive_items').where({ workspace_uuid: user.workspaceUuid })).toHaveLength(1);
    expect(await usedBytes(user)).toBe(poolBefore);
  });

  it('refuses a taken name sent before data (folder_uuid too) with 422 name_taken without storing a byte', async () => {
    const user = await makeUser();
    await simpleUpload(user, 'taken-first.bin', Buffer.from('first'));
    const data = randomBytes(12_000_000).toString('base64');
    const response = await post(
      user,
      `{"name":"taken-first.bin","folder_uuid":null,"content_type":"application/octet-stream","data":${JSON.stringify(data)}}`,
    );
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('name_taken');
    expect((await storedUnder(user.workspaceUuid)).uploads).toEqual([]);
    expect(await stagedRows(user)).toEqual([]);
  });

  it('answers in the buffered order: missing name (422) before invalid data (400); malformed JSON and deep nesting 400', async () => {
    const user = await makeUser();
    const text = randomBytes(9_000_000).toString('base64');
    const missing = await post(user, `{"content_type":"application/octet-stream","data":"${text}!"}`);
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ error: 'missing_required_fields', fields: ['name'] });
    const malformed = await post(user, `${bodyOf('m.bin', text).slice(0, -1)},}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_body');
    const deep = await post(user, `{"x":${'['.repeat(100)}${']'.repeat(100)},"data":"${text}"}`);
    expect(deep.status).toBe(400);
    expect(deep.body.error).toBe('invalid_body');
    const noData = await post(user, `{"name":"n.bin","content_type":"a/b","pad":"${text}"}`);
    expect(noData.status).toBe(400);
    expect(noData.body).toMatchObject({ error: 'invalid_body', fields: ['data'] });
    expect(await storedUnder(user.workspaceUuid)).toEqual({ objects: [], uploads: [] });
    expect(await stagedRows(user)).toEqual([]);
  });

  it('leaves nothing when the client goes away mid-body, after parts were stored', async () => {
    const user = await makeUser();
    const poolBefore = await usedBytes(user);
    const body = Buffer.from(bodyOf('cut.bin', randomBytes(30_000_000).toString('base64')));
    const req = request(new URL('/v1/drive/files', firstApiUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/json',
        'content-length': String(body.length),
      },
    });
    req.on('error', () => undefined);
    // Past two chunks of data: the staged row is recorded and parts are stored before the cut.
    req.write(body.subarray(0, 24_000_000));
    await waitUntil(async () => (await stagedRows(user)).length === 1);
    req.destroy();
    await expectNothingLeft(user, 'cut.bin', poolBefore);
  });
});
