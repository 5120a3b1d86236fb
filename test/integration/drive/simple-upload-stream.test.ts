// The simple upload stores its chunks while the body still arrives (docs/drive-encryption.md § Simple upload): a client
// that goes away half-way, or a body found invalid at its end, leaves no file, no staged row and no stored object or
// multipart upload. Each test waits until the server has stored a part (its state, read from the database and object
// storage), then breaks or ends the body.
import { randomBytes } from 'node:crypto';
import { request, type ClientRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { apiUrl, call, makeUser, type TestUser } from '../../support/api.js';
import { waitUntil } from '../../support/cascades.js';
import { simpleDownload } from '../../support/drive-files.js';

const MiB = 1024 * 1024;

const usedBytes = async (user: TestUser) => Number((await db()('workspaces').where({ uuid: user.workspaceUuid }).first()).storage_used_bytes);
const stagedRowsOf = (user: TestUser) => db()('drive_staged_uploads').where({ workspace_uuid: user.workspaceUuid });

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** The workspace's Drive objects, and whether a multipart upload is in progress at `key` (MinIO lists uploads by exact key only). */
async function storedFor(user: TestUser, key: string): Promise<{ objects: string[]; upload: boolean }> {
  const objects = await collect<{ name?: string }>(storage().listObjectsV2(bucket(), `drive/${user.workspaceUuid}/`, true));
  return { objects: objects.map((object) => object.name ?? ''), upload: Boolean(await storage().findUploadId(bucket(), key)) };
}

/** A simple upload whose body the test writes piece by piece; `answer` is its response (or the error of a broken one). */
function openUpload(user: TestUser, declaredLength: number) {
  const req: ClientRequest = request(new URL('/v1/drive/files', apiUrl()), {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'content-length': String(declaredLength) },
  });
  const answer = new Promise<{ status: number; body: unknown } | Error>((resolve) => {
    req.on('error', resolve);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (piece) => (text += piece));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
  });
  return { req, answer };
}

/** Waits until the server holds a staged row for the user and has stored at least one part of its multipart upload. */
async function untilPartStored(user: TestUser): Promise<string> {
  let key = '';
  await waitUntil(async () => {
    const [row] = await stagedRowsOf(user);
    key = row?.storage_key ?? '';
    return Boolean(key) && (await storedFor(user, key)).upload;
  });
  return key;
}

async function expectNothingLeft(user: TestUser, key: string, before: number): Promise<void> {
  await waitUntil(async () => (await stagedRowsOf(user)).length === 0);
  expect(await storedFor(user, key)).toEqual({ objects: [], upload: false });
  expect(await db()('drive_items').where({ workspace_uuid: user.workspaceUuid })).toEqual([]);
  expect(await usedBytes(user)).toBe(before);
}

describe('Simple upload, streamed', () => {
  it('stores parts while the body arrives, and leaves nothing when the client goes away half-way', { timeout: 120_000 }, async () => {
    const user = await makeUser();
    const before = await usedBytes(user);
    const data = randomBytes(20 * MiB).toString('base64');
    const head = '{"name":"gone.bin","content_type":"application/octet-stream","data":"';
    const upload = openUpload(user, Buffer.byteLength(head) + data.length + 2);
    upload.req.write(head);
    upload.req.write(data.slice(0, 12 * MiB)); // 9 MiB of plaintext: the first 8 MiB chunk is sealed and sent.
    const key = await untilPartStored(user);
    upload.req.destroy();
    expect(await upload.answer).toBeInstanceOf(Error);
    await expectNothingLeft(user, key, before);
    expect((await call('GET', '/v1/drive/files', { token: user.token })).body.files).toEqual([]);
  });

  it('refuses a body whose fields after the data are wrong, or whose JSON breaks at its end, and keeps nothing it stored', { timeout: 120_000 }, async () => {
    const user = await makeUser();
    const before = await usedBytes(user);
    const data = randomBytes(10 * MiB).toString('base64');
    for (const [tail, status, answer] of [
      ['","name":5,"content_type":"application/octet-stream"}', 400, { error: 'invalid_body', fields: ['name'] }],
      ['","content_type":"application/octet-stream"}', 422, { error: 'missing_required_fields', fields: ['name'] }],
      ['","name":"late.bin","content_type":"not a type"}', 422, { error: 'invalid', field: 'content_type' }],
      ['","name":"late.bin","content_type":"application/octet-stream",}', 400, { error: 'invalid_body' }],
    ] as const) {
      const upload = openUpload(user, 9 + data.length + tail.length);
      upload.req.write('{"data":"');
      upload.req.write(data);
      const key = await untilPartStored(user);
      upload.req.end(tail);
      expect(await upload.answer).toEqual({ status, body: answer });
      await expectNothingLeft(user, key, before);
    }
  });

  // 16 MiB is 2 chunks; the members after the data let the declared length promise a third, so the 2 chunks the server
  // sealed and sent early name a count of 3 and are sealed again.
  it('takes the fields after the data, reseals what it sent under a count the body did not keep, and serves the same bytes back', { timeout: 120_000 }, async () => {
    const user = await makeUser();
    const bytes = randomBytes(16 * MiB);
    const body = `{"data":"${bytes.toString('base64').replace(/\//g, '\\/')}","content_type":"application/octet-stream","name":"after.bin"}`;
    const upload = openUpload(user, Buffer.byteLength(body));
    upload.req.end(body);
    const answer = (await upload.answer) as { status: number; body: { uuid: string; name: string; file_size_bytes: number } };
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ name: 'after.bin', file_size_bytes: bytes.length });
    expect((await simpleDownload(user, answer.body.uuid)).equals(bytes)).toBe(true);
    expect(await stagedRowsOf(user)).toEqual([]);
    const [version] = await db()('drive_file_versions').where({ file_uuid: answer.body.uuid });
    expect(await storedFor(user, version.storage_key)).toEqual({ objects: [version.storage_key], upload: false });
  });
});
