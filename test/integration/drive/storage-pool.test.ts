// The workspace storage pool: plaintext bytes reserved atomically at upload and replace, released when
// uploads are aborted or expire and when retired versions are purged.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import { call, makeUser, makeWorkspace, type TestUser } from '../../support/api.js';
import { initiateReplace, uploadChunked } from '../../support/folio-client.js';
import { usedBytes } from '../../support/drive-rows.js';

afterAll(closeTemporalClient);

async function userWithPool(limit: number): Promise<TestUser> {
  return makeUser({ workspace: await makeWorkspace({ storageLimitBytes: limit }) });
}

const simple = (user: TestUser, name: string, size: number) =>
  call('POST', '/v1/drive/files', {
    token: user.token,
    json: { name, content_type: 'application/octet-stream', data: randomBytes(size).toString('base64') },
  });

const initiate = (user: TestUser, name: string, size: number) =>
  call('POST', '/v1/drive/uploads', {
    token: user.token,
    json: { name, content_type: 'application/octet-stream', plaintext_size_bytes: size },
  });

describe('Workspace storage pool', () => {
  it('counts plaintext bytes of completed files and of uploads in flight', async () => {
    const user = await userWithPool(10_000);
    expect((await simple(user, 'a', 1234)).status).toBe(201);
    expect(await usedBytes(user)).toBe(1234);
    expect((await initiate(user, 'b', 4000)).status).toBe(201);
    expect(await usedBytes(user)).toBe(5234);
  });

  it('refuses a simple upload, a chunked initiate and a replacement past the pool with 422 storage_limit_exceeded', async () => {
    const user = await userWithPool(1000);
    const file = await simple(user, 'fits', 600);
    expect(file.status).toBe(201);
    for (const response of [
      await simple(user, 'too-big', 401),
      await initiate(user, 'too-big', 401),
      await call('POST', `/v1/drive/files/${file.body.uuid}/replace`, {
        token: user.token,
        json: { plaintext_size_bytes: 401 },
      }),
    ]) {
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'storage_limit_exceeded', pool_bytes: 1000 });
    }
    expect(await usedBytes(user)).toBe(600);
    const list = await call('GET', '/v1/drive/files', { token: user.token });
    expect(list.body.files.map((f: { name: string }) => f.name)).toEqual(['fits']);
    expect((await simple(user, 'exactly-the-rest', 400)).status).toBe(201);
    expect((await simple(user, 'empty-still-fits', 0)).status).toBe(201);
  });

  it('lets exactly one of two concurrent simple uploads through when together they pass the pool', async () => {
    const user = await userWithPool(1500);
    const results = await Promise.all([simple(user, 'one', 1000), simple(user, 'two', 1000)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.status === 422)!.body).toEqual({
      error: 'storage_limit_exceeded',
      pool_bytes: 1500,
    });
    expect(await usedBytes(user)).toBe(1000);
  });

  it('lets exactly one of two concurrent chunked uploads through when together they pass the pool', async () => {
    const user = await userWithPool(1500);
    const results = await Promise.allSettled([
      uploadChunked(
        { token: user.token },
        { name: 'one', contentType: 'application/octet-stream', size: 1000, source: randomBytes(1000) },
      ),
      uploadChunked(
        { token: user.token },
        { name: 'two', contentType: 'application/octet-stream', size: 1000, source: randomBytes(1000) },
      ),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason;
    expect([refusal.status, refusal.body]).toEqual([
      422,
      { error: 'storage_limit_exceeded', pool_bytes: 1500 },
    ]);
    expect(await usedBytes(user)).toBe(1000);
  });

  it('gives the bytes back when an upload or a replacement is aborted', async () => {
    const user = await userWithPool(1000);
    const upload = await initiate(user, 'pending', 700);
    expect(await usedBytes(user)).toBe(700);
    expect(
      (await call('POST', `/v1/drive/uploads/${upload.body.file_uuid}/abort`, { token: user.token })).status,
    ).toBe(204);
    expect(await usedBytes(user)).toBe(0);

    const file = await simple(user, 'versioned', 400);
    const transfer = await initiateReplace({ token: user.token }, file.body.uuid, { size: 500 });
    expect(await usedBytes(user)).toBe(900);
    expect(
      (await call('POST', `/v1/drive/files/${file.body.uuid}/replace/abort`, { token: user.token })).status,
    ).toBe(200);
    expect(await usedBytes(user)).toBe(400);
    expect(await db()('drive_file_versions').where({ uuid: transfer.versionUuid }).first()).toMatchObject({
      status: 'aborted',
    });
  });
});
