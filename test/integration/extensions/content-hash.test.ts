// Content hash, an extension (docs/extensions.md § Content hash; Dropbox's content_hash): every drive_file shows its
// live version's hash, computed by the server for a simple upload and, for a chunked upload or replacement, sent by
// the client with complete and checked against the plaintext storage holds (a mismatch is refused, nothing changes).
// Expected hashes come from @folio/client's contentHash, pinned with the server's to outside vectors in
// test/unit/drive/content-hash.test.ts.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { call, makeUser, type TestUser } from '../../support/api.js';
import { simpleDownload, simpleUpload } from '../../support/drive-files.js';
import { changesSince, lastSeq, usedBytes } from '../../support/drive-rows.js';
import {
  contentHash,
  downloadChunked,
  encryptChunk,
  initiateReplace,
  initiateUpload,
  replaceChunked,
  sendChunks,
  uploadChunked,
  type ClientOptions,
} from '../../support/folio-client.js';

const MiB = 1024 * 1024;
const HEX64 = /^[0-9a-f]{64}$/;

const version = (uuid: string) => db()('drive_file_versions').where({ uuid }).first();
const getFile = async (user: TestUser, uuid: string) =>
  (await call('GET', `/v1/drive/files/${uuid}`, { token: user.token })).body;

/** A chunked upload of `data` with every part stored, not completed. */
async function stagedUpload(client: ClientOptions, name: string, data: Buffer) {
  const transfer = await initiateUpload(client, {
    name,
    contentType: 'application/octet-stream',
    size: data.length,
  });
  const parts = await sendChunks(
    client,
    `/v1/drive/uploads/${transfer.fileUuid}/part_urls`,
    transfer,
    data.length,
    data,
  );
  return { transfer, parts };
}

describe('content_hash', () => {
  it('is computed for a simple upload and shown wherever the drive_file is: the file, lists, the feed, the trash', async () => {
    const user = await makeUser();
    const data = randomBytes(9 * MiB + 3); // three 4 MiB blocks, the last of 1 MiB + 3 bytes
    const expected = await contentHash(data);
    const before = await lastSeq();
    const file = await simpleUpload(user, 'simple.bin', data);
    expect(file.content_hash).toBe(expected);
    expect((await version(file.uuid)).content_hash).toBe(expected);
    expect((await getFile(user, file.uuid)).content_hash).toBe(expected);

    const listed = await call('GET', '/v1/drive/files', { token: user.token });
    expect(listed.body.files).toEqual([expect.objectContaining({ uuid: file.uuid, content_hash: expected })]);
    const feed = await call('GET', '/v1/drive/changes', { token: user.token });
    expect(feed.body.changes).toEqual([
      expect.objectContaining({
        type: 'create',
        uuid: file.uuid,
        resource: expect.objectContaining({ content_hash: expected }),
      }),
    ]);
    expect(await changesSince(before, [file.uuid])).toEqual([
      { item_uuid: file.uuid, change_type: 'create', item_version: 1 },
    ]);

    const trashed = await call('POST', `/v1/drive/files/${file.uuid}/trash`, { token: user.token });
    expect(trashed.body.content_hash).toBe(expected);
    const trash = await call('GET', '/v1/drive/trash', { token: user.token });
    expect(trash.body.files).toEqual([expect.objectContaining({ uuid: file.uuid, content_hash: expected })]);
  });

  it('is the SHA-256 of nothing for an empty file', async () => {
    const user = await makeUser();
    const simple = await simpleUpload(user, 'empty-simple.bin', Buffer.alloc(0));
    const chunked = await uploadChunked(
      { token: user.token },
      {
        name: 'empty-chunked.bin',
        contentType: 'application/octet-stream',
        size: 0,
        source: Buffer.alloc(0),
      },
    );
    expect(simple.content_hash).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(chunked.content_hash).toBe(simple.content_hash);
  });

  it('is sent by the chunked client with complete, checked and recorded; null while the file uploads', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const data = randomBytes(17 * MiB + 1); // three chunks of 8 MiB, five blocks of 4 MiB
    const { transfer, parts } = await stagedUpload(client, 'chunked.bin', data);
    expect((await getFile(user, transfer.fileUuid)).content_hash).toBeNull();

    const complete = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: { parts, content_hash: await contentHash(data) },
    });
    expect(complete.status).toBe(200);
    expect(complete.body).toMatchObject({
      upload_status: 'completed',
      content_hash: await contentHash(data),
    });
    expect((await version(transfer.fileUuid)).content_hash).toBe(await contentHash(data));
    // The whole client does the same on its own.
    const whole = await uploadChunked(client, {
      name: 'whole.bin',
      contentType: 'application/octet-stream',
      size: data.length,
      source: data,
    });
    expect(whole.content_hash).toBe(await contentHash(data));
    // Upper-case hex is accepted and kept lower-case; a retry naming the recorded hash answers the file again.
    const again = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: { parts, content_hash: (await contentHash(data)).toUpperCase() },
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(complete.body);
  });

  it('is sent by the client only up to contentHashMaxBytes; a larger upload completes without one', async () => {
    const user = await makeUser();
    const client = { token: user.token, contentHashMaxBytes: 1000 };
    const upload = (name: string, data: Buffer) =>
      uploadChunked(client, {
        name,
        contentType: 'application/octet-stream',
        size: data.length,
        source: data,
      });
    const small = randomBytes(1000);
    expect((await upload('at-limit.bin', small)).content_hash).toBe(await contentHash(small));
    expect((await upload('over-limit.bin', randomBytes(1001))).content_hash).toBeNull();
  });

  it("refuses a complete whose hash is not the stored plaintext's with 422 content_hash_mismatch, changing nothing; it can be completed again", async () => {
    const user = await makeUser();
    const data = randomBytes(9 * MiB);
    const { transfer, parts } = await stagedUpload({ token: user.token }, 'mismatch.bin', data);
    const used = await usedBytes(user);
    const before = await lastSeq();
    const complete = (hash: unknown) =>
      call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
        token: user.token,
        json: { parts, content_hash: hash },
      });

    const refused = await complete(await contentHash(randomBytes(9 * MiB)));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: 'content_hash_mismatch' });
    expect(await getFile(user, transfer.fileUuid)).toMatchObject({
      upload_status: 'uploading',
      content_hash: null,
    });
    expect((await call('GET', '/v1/drive/files', { token: user.token })).body.files).toEqual([]);
    expect(await changesSince(before, [transfer.fileUuid])).toEqual([]);
    expect(await usedBytes(user)).toBe(used);
    expect(await version(transfer.fileUuid)).toMatchObject({ status: 'staged', content_hash: null });
    // The parts are assembled now: none is left to list or send, and the status says so.
    const status = await call('GET', `/v1/drive/uploads/${transfer.fileUuid}`, { token: user.token });
    expect(status.status).toBe(422);
    expect(status.body).toEqual({ error: 'invalid_upload_status' });

    const completed = await complete(await contentHash(data));
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      upload_status: 'completed',
      content_hash: await contentHash(data),
    });
    expect((await downloadChunked({ token: user.token }, transfer.fileUuid))!.equals(data)).toBe(true);
    expect(await changesSince(before, [transfer.fileUuid])).toEqual([
      { item_uuid: transfer.fileUuid, change_type: 'create', item_version: 1 },
    ]);
    // A retry naming another hash than the one recorded is refused too.
    expect((await complete(await contentHash(randomBytes(1)))).body).toEqual({
      error: 'content_hash_mismatch',
    });
  });

  it('refuses a complete when a stored part does not decrypt, naming it; abort then frees everything', async () => {
    const user = await makeUser();
    const data = randomBytes(8 * MiB + 100);
    const used = await usedBytes(user);
    const { transfer, parts } = await stagedUpload({ token: user.token }, 'forged.bin', data);
    // Part 2 again, the right size but sealed for another version: its tag cannot verify under this AAD.
    const urls = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/part_urls`, {
      token: user.token,
      json: { part_numbers: [2] },
    });
    const key = await crypto.subtle.importKey(
      'raw',
      Buffer.from(transfer.dataKey, 'base64'),
      'AES-GCM',
      false,
      ['encrypt'],
    );
    const forged = await encryptChunk(
      key,
      '00000000-0000-4000-8000-000000000000',
      1,
      2,
      data.subarray(8 * MiB),
    );
    const put = await fetch(urls.body.part_urls[0].url, { method: 'PUT', body: forged });
    expect(put.status).toBe(200);

    const refused = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: {
        parts: [parts[0], { part_number: 2, etag: put.headers.get('etag') }],
        content_hash: await contentHash(data),
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: 'content_hash_mismatch', part_numbers: [2] });
    expect(await getFile(user, transfer.fileUuid)).toMatchObject({ upload_status: 'uploading' });

    expect(
      (await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/abort`, { token: user.token })).status,
    ).toBe(204);
    expect(await usedBytes(user)).toBe(used);
  });

  it('is null for a chunked complete that sends none (a client following only the spec)', async () => {
    const user = await makeUser();
    const data = randomBytes(1000);
    const { transfer, parts } = await stagedUpload({ token: user.token }, 'spec-only.bin', data);
    const complete = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: { parts },
    });
    expect(complete.status).toBe(200);
    expect(complete.body).toMatchObject({ upload_status: 'completed', content_hash: null });
  });

  it('refuses a malformed content_hash: 422 invalid naming the field, 400 invalid_body for a non-string', async () => {
    const user = await makeUser();
    const { transfer, parts } = await stagedUpload({ token: user.token }, 'malformed.bin', randomBytes(10));
    const complete = (hash: unknown) =>
      call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
        token: user.token,
        json: { parts, content_hash: hash },
      });
    for (const hash of ['abc', 'g'.repeat(64), `${'0'.repeat(64)}0`, '']) {
      const refused = await complete(hash);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ error: 'invalid', field: 'content_hash' });
    }
    const typed = await complete(42);
    expect(typed.status).toBe(400);
    expect(typed.body).toEqual({ error: 'invalid_body', fields: ['content_hash'] });
    expect(await getFile(user, transfer.fileUuid)).toMatchObject({ upload_status: 'uploading' });
  });
});

describe('content_hash of a replacement', () => {
  it('changes with the new version, in the response and the feed; the retired version keeps its own', async () => {
    const user = await makeUser();
    const original = randomBytes(5000);
    const file = await simpleUpload(user, 'replaced.bin', original);
    const head = (await call('GET', '/v1/drive/changes', { token: user.token })).body.sync_token;
    const replacement = randomBytes(4 * MiB + 1);
    const updated = await replaceChunked({ token: user.token }, file.uuid, {
      size: replacement.length,
      source: replacement,
    });
    expect(updated).toMatchObject({ version: 2, ctag: 1, content_hash: await contentHash(replacement) });
    expect(updated.content_hash).not.toBe(file.content_hash);
    const page = await call('GET', `/v1/drive/changes?since=${encodeURIComponent(head)}`, {
      token: user.token,
    });
    expect(page.body.changes).toEqual([
      expect.objectContaining({
        type: 'update',
        uuid: file.uuid,
        resource: expect.objectContaining({ version: 2, content_hash: await contentHash(replacement) }),
      }),
    ]);
    const versions = await db()('drive_file_versions').where({ file_uuid: file.uuid }).orderBy('created_at');
    expect(versions.map((row) => [row.status, row.content_hash])).toEqual([
      ['retired', await contentHash(original)],
      ['live', await contentHash(replacement)],
    ]);
  });

  it('refuses a replacement whose hash does not match: the file keeps its content, version, ctag and hash', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const original = randomBytes(3000);
    const file = await simpleUpload(user, 'kept.bin', original);
    const before = await lastSeq();
    const replacement = randomBytes(2 * MiB);
    const transfer = await initiateReplace(client, file.uuid, { size: replacement.length });
    const parts = await sendChunks(
      client,
      `/v1/drive/files/${file.uuid}/replace/part_urls`,
      transfer,
      replacement.length,
      replacement,
    );
    const complete = (hash: string) =>
      call('POST', `/v1/drive/files/${file.uuid}/replace/complete`, {
        token: user.token,
        json: { parts, content_hash: hash },
      });

    const refused = await complete(await contentHash(original));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: 'content_hash_mismatch' });
    expect(await getFile(user, file.uuid)).toEqual(file);
    expect((await simpleDownload(user, file.uuid)).equals(original)).toBe(true);
    expect(await changesSince(before, [file.uuid])).toEqual([]);
    expect(await version(transfer.versionUuid)).toMatchObject({ status: 'staged', content_hash: null });

    const completed = await complete(await contentHash(replacement));
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      version: 2,
      ctag: 1,
      content_hash: await contentHash(replacement),
    });
  });

  it("is null after a replacement completed without one: the old version's hash is not carried over", async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const file = await simpleUpload(user, 'unhashed.bin', randomBytes(100));
    expect(file.content_hash).toMatch(HEX64);
    const replacement = randomBytes(200);
    const transfer = await initiateReplace(client, file.uuid, { size: replacement.length });
    const parts = await sendChunks(
      client,
      `/v1/drive/files/${file.uuid}/replace/part_urls`,
      transfer,
      replacement.length,
      replacement,
    );
    const completed = await call('POST', `/v1/drive/files/${file.uuid}/replace/complete`, {
      token: user.token,
      json: { parts },
    });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ version: 2, ctag: 1, content_hash: null });
  });
});
