// Chunked upload of a new file: initiate, part URLs, complete, abort, and the expiry of abandoned uploads.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { uploadWorkflowId } from '../../../workflows/ids.js';
import { call, makeUser, tokenFor, type TestUser } from '../../support/api.js';
import { killWorker, startWorkerAgain } from '../../support/worker.js';
import {
  contentHash,
  downloadChunked,
  encryptChunk,
  initiateUpload,
  sendChunks,
  uploadChunked,
  type ClientOptions,
} from '../../support/folio-client.js';
import { expectedDriveFile } from '../../support/drive-files.js';

afterAll(closeTemporalClient);

const MiB = 1024 * 1024;

const initiate = (user: TestUser, body: Record<string, unknown>) =>
  call('POST', '/v1/drive/uploads', {
    token: user.token,
    json: { name: 'file.bin', content_type: 'application/octet-stream', ...body },
  });

const usedBytes = async (user: TestUser) =>
  Number((await db()('workspaces').where({ uuid: user.workspaceUuid }).first()).storage_used_bytes);

async function lifecycleOutcome(fileUuid: string) {
  return (await temporalClient()).workflow.getHandle(uploadWorkflowId(fileUuid)).result();
}

/** Initiates a chunked upload of `data` and stores every part, leaving it to be completed (or not). */
async function sendParts(client: ClientOptions, name: string, data: Buffer) {
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

async function openUploads(key: string): Promise<number> {
  let count = 0;
  for await (const upload of storage().listIncompleteUploads(bucket(), key, true))
    if ((upload as { key: string }).key === key) count++;
  return count;
}

describe('Chunked upload', () => {
  it('initiates with the per-file key and layout, reserving the name as an uploading file', async () => {
    const user = await makeUser();
    const response = await initiate(user, { name: 'big.iso', plaintext_size_bytes: 20 * MiB });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      file_uuid: expect.any(String),
      data_key: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
      chunk_size_bytes: 8 * MiB,
      chunk_count: 3,
      storage_upload_id: expect.any(String),
    });
    const file = await call('GET', `/v1/drive/files/${response.body.file_uuid}`, { token: user.token });
    expect(file.body).toMatchObject({
      name: 'big.iso',
      upload_status: 'uploading',
      file_size_bytes: 20 * MiB,
      ctag: 0,
      version: 1,
    });
    expect((await call('GET', '/v1/drive/files', { token: user.token })).body.files).toEqual([]);
    expect(await db()('drive_changes').where({ item_uuid: response.body.file_uuid })).toEqual([]);
    const sameName = await call('POST', '/v1/drive/files', {
      token: user.token,
      json: { name: 'big.iso', content_type: 'text/plain', data: '' },
    });
    expect(sameName.status).toBe(422);
    expect(sameName.body).toEqual({ error: 'name_taken' });
  });

  it('answers part_urls as a list of presigned PUT URLs with their expiry', async () => {
    const user = await makeUser();
    const { body } = await initiate(user, { plaintext_size_bytes: 17 * MiB });
    const response = await call('POST', `/v1/drive/uploads/${body.file_uuid}/part_urls`, {
      token: user.token,
      json: { part_numbers: [3, 1, 3] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'list',
      part_urls: [
        { part_number: 1, url: expect.stringContaining('partNumber=1'), expires_at: expect.any(String) },
        { part_number: 3, url: expect.stringContaining('partNumber=3'), expires_at: expect.any(String) },
      ],
    });
    expect(response.body.part_urls[0].url).toContain(
      `uploadId=${encodeURIComponent(body.storage_upload_id)}`,
    );
    expect(Date.parse(response.body.part_urls[0].expires_at)).toBeGreaterThan(Date.now());
  });

  it('refuses part numbers outside 1..chunk_count with 422 invalid_parts, and a bad body with 422 or 400', async () => {
    const user = await makeUser();
    const { body } = await initiate(user, { plaintext_size_bytes: 10 });
    const path = `/v1/drive/uploads/${body.file_uuid}/part_urls`;
    const outside = await call('POST', path, { token: user.token, json: { part_numbers: [0, 1, 2] } });
    expect(outside.status).toBe(422);
    expect(outside.body).toEqual({ error: 'invalid_parts', part_numbers: [0, 2] });
    const missing = await call('POST', path, { token: user.token, json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ error: 'missing_required_fields', fields: ['part_numbers'] });
    const wrongType = await call('POST', path, { token: user.token, json: { part_numbers: ['1'] } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({ error: 'invalid_body' });
    const tooMany = await call('POST', path, {
      token: user.token,
      json: { part_numbers: Array.from({ length: 1001 }, (_, i) => i + 1) },
    });
    expect(tooMany.status).toBe(400);
  });

  it('completes once every part is stored: 200 drive_file, completed, downloadable, with one create change', async () => {
    const user = await makeUser();
    const data = randomBytes(9 * MiB);
    const file = await uploadChunked(
      { token: user.token },
      { name: 'done.bin', contentType: 'application/x-test', size: data.length, source: data },
    );
    expect(file).toEqual(
      expectedDriveFile({
        name: 'done.bin',
        content_type: 'application/x-test',
        file_size_bytes: data.length,
        owner: expect.objectContaining({ self: true }),
        content_hash: await contentHash(data),
      }),
    );
    expect((await downloadChunked({ token: user.token }, file.uuid))!.equals(data)).toBe(true);
    const changes = await db()('drive_changes').where({ item_uuid: file.uuid });
    expect(changes.map((c) => c.change_type)).toEqual(['create']);
    const listed = await call('GET', '/v1/drive/files', { token: user.token });
    expect(listed.body.files.map((f: { uuid: string }) => f.uuid)).toEqual([file.uuid]);
    expect(await lifecycleOutcome(file.uuid)).toEqual({ outcome: 'completed' });
  });

  it('answers a repeated complete with the same file (a retry after a lost response)', async () => {
    const user = await makeUser();
    const data = randomBytes(1000);
    const { transfer, parts } = await sendParts({ token: user.token }, 'twice.bin', data);
    const first = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: { parts },
    });
    const second = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: { parts },
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await db()('drive_changes').where({ item_uuid: transfer.fileUuid })).toHaveLength(1);
  });

  it('refuses to complete with a missing part, a wrong etag or a wrong-sized part (422 invalid_parts), leaving it open', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const size = 8 * MiB + 100;
    const data = randomBytes(size);
    const { transfer, parts } = await sendParts(client, 'partial.bin', data);
    const complete = (parts: unknown) =>
      call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, { token: user.token, json: { parts } });

    const missing = await complete([parts[0]]);
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ error: 'invalid_parts', part_numbers: [2] });
    const wrongEtag = await complete([parts[0], { part_number: 2, etag: '"0000"' }]);
    expect(wrongEtag.body).toEqual({ error: 'invalid_parts', part_numbers: [2] });

    // Overwrite part 2 with a chunk one byte short: stored, but not the size the layout promises.
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
    const short = await encryptChunk(key, transfer.versionUuid, 1, 2, data.subarray(8 * MiB, size - 1));
    const put = await fetch(urls.body.part_urls[0].url, { method: 'PUT', body: short });
    const shortParts = [parts[0], { part_number: 2, etag: put.headers.get('etag') }];
    const wrongSize = await complete(shortParts);
    expect(wrongSize.status).toBe(422);
    expect(wrongSize.body).toEqual({ error: 'invalid_parts', part_numbers: [2] });

    const noParts = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: {},
    });
    expect(noParts.status).toBe(422);
    expect(noParts.body).toEqual({ error: 'missing_required_fields', fields: ['parts'] });
    const file = await call('GET', `/v1/drive/files/${transfer.fileUuid}`, { token: user.token });
    expect(file.body.upload_status).toBe('uploading');
  });

  it('aborts: 204, staged parts discarded, name and storage freed; a second abort is 404', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const before = await usedBytes(user);
    const data = randomBytes(4096);
    const { transfer } = await sendParts(client, 'abandon.bin', data);
    expect(await usedBytes(user)).toBe(before + 4096);
    const key = `drive/${user.workspaceUuid}/${transfer.fileUuid}/${transfer.fileUuid}`;
    expect(await openUploads(key)).toBe(1);

    const abort = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/abort`, { token: user.token });
    expect(abort.status).toBe(204);
    expect(abort.body).toBe('');
    expect(await openUploads(key)).toBe(0);
    expect(await usedBytes(user)).toBe(before);
    expect((await call('GET', `/v1/drive/files/${transfer.fileUuid}`, { token: user.token })).status).toBe(
      404,
    );
    const again = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/abort`, { token: user.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'not_found' });
    expect((await initiate(user, { name: 'abandon.bin', plaintext_size_bytes: 1 })).status).toBe(201);
    expect(await lifecycleOutcome(transfer.fileUuid)).toEqual({ outcome: 'aborted' });
  });

  it('refuses abort and part_urls of a completed upload with 422 invalid_upload_status', async () => {
    const user = await makeUser();
    const file = await uploadChunked(
      { token: user.token },
      { name: 'kept.bin', contentType: 'text/plain', size: 3, source: Buffer.from('abc') },
    );
    const abort = await call('POST', `/v1/drive/uploads/${file.uuid}/abort`, { token: user.token });
    expect(abort.status).toBe(422);
    expect(abort.body).toEqual({ error: 'invalid_upload_status' });
    const urls = await call('POST', `/v1/drive/uploads/${file.uuid}/part_urls`, {
      token: user.token,
      json: { part_numbers: [1] },
    });
    expect(urls.status).toBe(422);
    expect(urls.body).toEqual({ error: 'invalid_upload_status' });
  });

  it("answers 404 not_found for an unknown upload and for someone else's", async () => {
    const user = await makeUser();
    const other = await makeUser({ workspace: { uuid: user.workspaceUuid } });
    const { body } = await initiate(user, { plaintext_size_bytes: 10 });
    for (const [who, uuid] of [
      [other, body.file_uuid],
      [user, '00000000-0000-4000-8000-000000000000'],
      [user, 'junk'],
    ] as const) {
      for (const [action, json] of [
        ['part_urls', { part_numbers: [1] }],
        ['complete', { parts: [] }],
        ['abort', undefined],
      ] as const) {
        const response = await call('POST', `/v1/drive/uploads/${uuid}/${action}`, {
          token: who.token,
          json,
        });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'not_found' });
      }
    }
  });

  it('refuses an invalid plaintext_size_bytes with 422 invalid_file_size, and missing fields with 422', async () => {
    const user = await makeUser();
    for (const size of [-1, 1.5, '10', true, 2 ** 40 + 1, 1e300]) {
      const response = await initiate(user, { plaintext_size_bytes: size });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_file_size' });
    }
    const largest = await initiate(user, { name: 'one-tebibyte', plaintext_size_bytes: 2 ** 40 });
    expect(largest.body).toEqual({ error: 'storage_limit_exceeded', pool_bytes: 10 * 1024 ** 3 }); // the pool refuses, not the size check
    const missing = await call('POST', '/v1/drive/uploads', { token: user.token, json: { name: 'x' } });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      error: 'missing_required_fields',
      fields: ['content_type', 'plaintext_size_bytes'],
    });
  });

  it('lays out a 1 TiB upload in 105 MiB chunks, at most 10,000', async () => {
    const user = await makeUser();
    await db()('workspaces')
      .where({ uuid: user.workspaceUuid })
      .update({ storage_limit_bytes: 2 ** 41 });
    const response = await initiate(user, { name: 'huge', plaintext_size_bytes: 2 ** 40 });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ chunk_size_bytes: 105 * MiB, chunk_count: 9987 });
    expect(
      (await call('POST', `/v1/drive/uploads/${response.body.file_uuid}/abort`, { token: user.token }))
        .status,
    ).toBe(204);
  });

  it('needs the drive.create scope', async () => {
    const user = await makeUser();
    const token = await tokenFor(user, ['drive.read', 'drive.update']);
    const response = await call('POST', '/v1/drive/uploads', {
      token,
      json: { name: 'x', content_type: 'text/plain', plaintext_size_bytes: 1 },
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: 'insufficient_scope' });
  });

  it('expires an abandoned upload: parts discarded, name and storage freed, and complete then answers 404', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const before = await usedBytes(user);
    const data = randomBytes(2000);
    const { transfer, parts } = await sendParts(client, 'forgotten.bin', data);
    expect(await usedBytes(user)).toBe(before + 2000);

    expect(await lifecycleOutcome(transfer.fileUuid)).toEqual({ outcome: 'expired' });

    const complete = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: { parts },
    });
    expect(complete.status).toBe(404);
    expect(complete.body).toEqual({ error: 'not_found' });
    expect((await call('GET', `/v1/drive/files/${transfer.fileUuid}`, { token: user.token })).status).toBe(
      404,
    );
    expect(await usedBytes(user)).toBe(before);
    expect(await openUploads(`drive/${user.workspaceUuid}/${transfer.fileUuid}/${transfer.fileUuid}`)).toBe(
      0,
    );
    expect((await initiate(user, { name: 'forgotten.bin', plaintext_size_bytes: 1 })).status).toBe(201);
  });

  it('finishes a complete that crashed after storage assembled the object but before the commit', async () => {
    const user = await makeUser();
    const client = { token: user.token };
    const data = randomBytes(3000);
    const { transfer, parts } = await sendParts(client, 'half-done.bin', data);
    const key = `drive/${user.workspaceUuid}/${transfer.fileUuid}/${transfer.fileUuid}`;
    await storage().completeMultipartUpload(
      bucket(),
      key,
      transfer.storageUploadId,
      parts.map((p) => ({ part: p.part_number, etag: p.etag.replace(/"/g, '') })),
    );

    const complete = await call('POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, {
      token: user.token,
      json: { parts },
    });
    expect(complete.status).toBe(200);
    expect(complete.body).toMatchObject({ upload_status: 'completed', file_size_bytes: 3000 });
    expect((await downloadChunked(client, transfer.fileUuid))!.equals(data)).toBe(true);
  });

  it('expires an upload started while no worker runs, once a worker is back', async () => {
    const user = await makeUser();
    const before = await usedBytes(user);
    killWorker();
    try {
      const response = await initiate(user, { name: 'orphan.bin', plaintext_size_bytes: 500 });
      expect(response.status).toBe(201);
      expect(await usedBytes(user)).toBe(before + 500);
      startWorkerAgain();
      expect(await lifecycleOutcome(response.body.file_uuid)).toEqual({ outcome: 'expired' });
      expect(await usedBytes(user)).toBe(before);
      expect(
        (await call('GET', `/v1/drive/files/${response.body.file_uuid}`, { token: user.token })).status,
      ).toBe(404);
    } catch (error) {
      startWorkerAgain();
      throw error;
    }
  });
});
