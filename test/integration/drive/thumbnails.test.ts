// Drive thumbnails through the API (spec/drive.md § Thumbnails; docs/drive-thumbnails.md): the render workflow started
// by simple and chunked uploads and by replacements, has_preview with its version and change, every status of
// GET …/thumbnail and of the batch, each format, hostile images, and thumbnails following their file.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import type { ThumbnailResult } from '../../../workflows/thumbnail.js';
import { replaceWorkflowId, thumbnailWorkflowId } from '../../../workflows/ids.js';
import {
  call,
  fetchApi,
  grant,
  makeColleague,
  makeFolder,
  makeUser,
  revokeGrantFor,
  tokenFor,
  type TestUser,
} from '../../support/api.js';
import { settle } from '../../support/cascades.js';
import { replaceChunked, uploadChunked } from '../../support/folio-client.js';
import { simpleUpload } from '../../support/drive-files.js';
import { changesSince, lastSeq, row } from '../../support/drive-rows.js';
import { objectExists } from '../../support/storage.js';

afterAll(closeTemporalClient);

const IMAGES = fileURLToPath(new URL('../../fixtures/images/', import.meta.url));
const image = (name: string) => readFileSync(IMAGES + name);

/** The render workflow's result for a file version (the first version's uuid is the file's). */
async function rendered(fileUuid: string, versionUuid = fileUuid): Promise<ThumbnailResult> {
  return (await temporalClient()).workflow.getHandle(thumbnailWorkflowId(fileUuid, versionUuid)).result();
}

/** A simple upload of a fixture (or of `data`), under a unique name that keeps the fixture's extension. */
async function upload(user: TestUser, name: string, contentType: string, data = image(name)) {
  return simpleUpload(user, `${randomUUID().slice(0, 8)}-${name}`, data, { content_type: contentType });
}

/** An uploaded image whose thumbnail is stored. */
async function withThumbnail(user: TestUser, name = 'photo-exif-rotated.jpg', contentType = 'image/jpeg') {
  const file = await upload(user, name, contentType);
  expect(await rendered(file.uuid)).toEqual({ outcome: 'ready' });
  return file;
}

const thumbnail = (user: TestUser, uuid: string, query = '', headers: Record<string, string> = {}) =>
  call('GET', `/v1/drive/files/${uuid}/thumbnail${query}`, { token: user.token, headers });

/** The raw bytes of a thumbnail response (call() reads bodies as text). */
async function thumbnailBytes(
  user: TestUser,
  uuid: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetchApi(`/v1/drive/files/${uuid}/thumbnail`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const batch = (user: TestUser, json: unknown) =>
  call('POST', '/v1/drive/thumbnails/batch', { token: user.token, json });

const thumbnailRows = (fileUuid: string) =>
  db()('drive_thumbnails').where({ file_uuid: fileUuid }).orderBy('created_at');

/** Forgets a stored thumbnail, as if no render had run: what a request then finds is "none". */
async function forgetThumbnail(fileUuid: string) {
  await db()('drive_thumbnails').where({ file_uuid: fileUuid }).delete();
  await db()('drive_items').where({ uuid: fileUuid }).update({ has_preview: false });
}

describe('The thumbnail render', () => {
  it('starts when a simple upload completes; has_preview turns true with a version bump and one update change', async () => {
    const user = await makeUser();
    const before = await lastSeq();
    const file = await upload(user, 'photo-exif-rotated.jpg', 'image/jpeg');
    expect(file).toMatchObject({ has_preview: false, version: 1 });
    expect(await rendered(file.uuid)).toEqual({ outcome: 'ready' });
    const shown = await call('GET', `/v1/drive/files/${file.uuid}`, { token: user.token });
    expect(shown.body).toMatchObject({ has_preview: true, version: 2, ctag: 0 });
    expect(await changesSince(before, [file.uuid])).toEqual([
      { item_uuid: file.uuid, change_type: 'create', item_version: 1 },
      { item_uuid: file.uuid, change_type: 'update', item_version: 2 },
    ]);
    const feed = await call('GET', '/v1/drive/changes', { token: user.token });
    expect(
      feed.body.changes.find((change: any) => change.resource?.uuid === file.uuid)?.resource,
    ).toMatchObject({ has_preview: true, version: 2 });
  });

  it('starts when a chunked upload completes', async () => {
    const user = await makeUser();
    const data = image('alpha.png');
    const file = await uploadChunked(
      { token: user.token },
      { name: 'alpha.png', contentType: 'image/png', size: data.length, source: data },
    );
    expect(await rendered(file.uuid)).toEqual({ outcome: 'ready' });
    expect((await row(file.uuid)).has_preview).toBe(true);
  });

  it('stores the thumbnail encrypted: the object is not an image and differs from the plaintext served', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    const [stored] = await thumbnailRows(file.uuid);
    expect(stored).toMatchObject({
      status: 'ready',
      variant: '1024_fit',
      content_type: 'image/jpeg',
      width: 768,
      height: 1024,
    });
    expect(stored.storage_key).toBe(`thumbnails/${user.workspaceUuid}/${file.uuid}/${file.uuid}/1024_fit`);
    const { storage, bucket } = await import('../../../platform/storage.js');
    const pieces: Buffer[] = [];
    for await (const piece of await storage().getObject(bucket(), stored.storage_key))
      pieces.push(piece as Buffer);
    const object = Buffer.concat(pieces);
    const served = (await thumbnailBytes(user, file.uuid)).bytes;
    expect(object.length).toBe(served.length + 28);
    expect(object.includes(served.subarray(0, 64))).toBe(false);
    await expect(sharp(object).metadata()).rejects.toThrow();
  });

  it.each([
    ['photo-exif-rotated.jpg', 'image/jpeg', 'image/jpeg', 768, 1024],
    ['alpha.png', 'image/png', 'image/png', 300, 200],
    ['animated.gif', 'image/gif', 'image/png', 400, 300],
    ['wide.webp', 'image/webp', 'image/jpeg', 1024, 341],
    ['scan.tiff', 'image/tiff', 'image/jpeg', 768, 1024],
    ['photo.avif', 'image/avif', 'image/jpeg', 1024, 768],
    ['photo.heic', 'image/heic', 'image/jpeg', 1024, 768],
    // From an iPhone XS: a grid of HEVC tiles, 4032×3024 stored with EXIF orientation 6, camera and GPS tags.
    ['iphone-xs.heic', 'image/heic', 'image/jpeg', 768, 1024],
  ])(
    'renders %s (%s) to %s, %i×%i, with no metadata',
    async (name, contentType, servedType, width, height) => {
      const user = await makeUser();
      const file = await withThumbnail(user, name, contentType);
      const { status, headers, bytes } = await thumbnailBytes(user, file.uuid);
      expect(status).toBe(200);
      expect(headers.get('content-type')).toBe(servedType);
      const metadata = await sharp(bytes).metadata();
      expect(metadata).toMatchObject({ width, height, format: servedType === 'image/png' ? 'png' : 'jpeg' });
      expect(metadata.exif).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
    },
  );

  it('renders an untyped file named like an image, and a PNG whose name and type say JPEG, by what the bytes are', async () => {
    const user = await makeUser();
    const untyped = await upload(user, 'IMG_0001.heic', 'application/octet-stream', image('photo.heic'));
    expect(await rendered(untyped.uuid)).toEqual({ outcome: 'ready' });
    const disguised = await upload(user, 'png-named.jpg', 'image/jpeg');
    expect(await rendered(disguised.uuid)).toEqual({ outcome: 'ready' });
    expect((await thumbnailBytes(user, disguised.uuid)).status).toBe(200);
  });

  it.each([
    ['a decompression bomb (400 megapixels in 389 KB)', 'bomb.png', 'image/png'],
    ['a truncated JPEG', 'truncated.jpg', 'image/jpeg'],
    ['a text file whose extension says JPEG', 'not-an-image.jpg', 'application/octet-stream'],
    ['a text file whose type says JPEG', 'not-an-image.jpg', 'image/jpeg'],
  ])(
    'ends %s as no preview: 204, has_preview false, version unchanged, the worker still renders',
    async (_, name, contentType) => {
      const user = await makeUser();
      const file = await upload(user, name, contentType);
      expect(await rendered(file.uuid)).toEqual({ outcome: 'failed' });
      expect(await thumbnailRows(file.uuid)).toMatchObject([{ status: 'failed', storage_key: null }]);
      const response = await thumbnail(user, file.uuid);
      expect(response.status).toBe(204);
      expect(response.body).toBe('');
      expect(await row(file.uuid)).toMatchObject({ has_preview: false, version: 1 });
      // Asking again does not render again: the answer is final for this version.
      expect((await thumbnail(user, file.uuid)).status).toBe(204);
      expect(await thumbnailRows(file.uuid)).toHaveLength(1);
      // The same worker goes on rendering healthy images.
      await withThumbnail(user, 'alpha.png', 'image/png');
    },
  );

  it('renders again on demand when a request finds none: 202 with Retry-After 1, then 200', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    await forgetThumbnail(file.uuid);
    const pending = await thumbnail(user, file.uuid);
    expect(pending.status).toBe(202);
    expect(pending.headers.get('retry-after')).toBe('1');
    expect(pending.headers.get('cache-control')).toBe('no-store');
    expect(await rendered(file.uuid)).toEqual({ outcome: 'ready' });
    expect((await thumbnail(user, file.uuid)).status).toBe(200);
    expect((await row(file.uuid)).has_preview).toBe(true);
  });
});

describe('GET /v1/drive/files/{uuid}/thumbnail', () => {
  it('answers 200 with the image, a strong ETag and Cache-Control private, max-age=31536000, immutable', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    const response = await thumbnailBytes(user, file.uuid);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(Number(response.headers.get('content-length'))).toBe(response.bytes.length);
    expect((await sharp(response.bytes).metadata()).format).toBe('jpeg');
    // The same bytes on every request, and the same with the variant named.
    const again = await thumbnailBytes(user, file.uuid);
    expect(again.bytes.equals(response.bytes)).toBe(true);
    expect(again.headers.get('etag')).toBe(response.headers.get('etag'));
    const named = await thumbnail(user, file.uuid, '?variant=1024_fit');
    expect(named.status).toBe(200);
    expect(named.headers.get('etag')).toBe(response.headers.get('etag'));
  });

  it('answers 304 when If-None-Match holds the ETag (alone, in a list, weak-prefixed or *), else 200', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    const etag = (await thumbnail(user, file.uuid)).headers.get('etag')!;
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const response = await thumbnail(user, file.uuid, '', { 'if-none-match': header });
      expect(response.status).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    }
    expect((await thumbnail(user, file.uuid, '', { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('answers 204 for a file that is not an image, and for an image over the size cap, without rendering', async () => {
    const user = await makeUser();
    const text = await upload(user, 'notes.txt', 'text/plain', Buffer.from('hello'));
    const big = await upload(
      user,
      'huge.png',
      'image/png',
      Buffer.concat([image('alpha.png'), randomBytes(2_000_001)]),
    );
    for (const file of [text, big]) {
      const response = await thumbnail(user, file.uuid);
      expect(response.status).toBe(204);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    await expect(
      (await temporalClient()).workflow.getHandle(thumbnailWorkflowId(text.uuid, text.uuid)).describe(),
    ).rejects.toThrow();
    // The upload still asked (the cap is the worker's to apply), and the worker refused without decoding.
    expect(await rendered(big.uuid)).toEqual({ outcome: 'failed' });
    expect((await thumbnailRows(big.uuid))[0].failure).toMatch(/cap/);
  });

  it('refuses an unknown variant with 400 invalid_variant', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    for (const query of [
      '?variant=256_fit',
      '?variant=',
      '?variant=1024_fit&variant=1024_fit',
      '?variant=1024_FIT',
    ]) {
      const response = await thumbnail(user, file.uuid, query);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_variant' });
    }
  });

  it('answers 404 for an unknown, malformed or invisible uuid, a folder, a file still uploading, and a deleted file', async () => {
    const user = await makeUser();
    const stranger = await makeColleague(user);
    const file = await withThumbnail(user);
    const folder = await makeFolder(user, 'Pictures');
    const uploading = await call('POST', '/v1/drive/uploads', {
      token: user.token,
      json: { name: 'later.png', content_type: 'image/png', plaintext_size_bytes: 10 },
    });
    for (const [who, uuid] of [
      [user, randomUUID()],
      [user, 'not-a-uuid'],
      [stranger, file.uuid],
      [user, folder],
      [user, uploading.body.file_uuid],
    ] as const) {
      const response = await thumbnail(who, uuid);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
    expect((await call('DELETE', `/v1/drive/files/${file.uuid}`, { token: user.token })).status).toBe(204);
    expect((await thumbnail(user, file.uuid)).status).toBe(404);
  });

  it('needs the drive.read scope', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    const response = await call('GET', `/v1/drive/files/${file.uuid}/thumbnail`, {
      token: await tokenFor(user, ['drive.create']),
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: 'insufficient_scope' });
  });

  it('serves a viewer of a shared file until the share is revoked, then 404 (and 404 on revalidation too)', async () => {
    const owner = await makeUser();
    const viewer = await makeColleague(owner);
    const file = await withThumbnail(owner);
    const grantUuid = await grant({ file: file.uuid }, { user: viewer }, 'viewer');
    const shown = await thumbnail(viewer, file.uuid);
    expect(shown.status).toBe(200);
    await revokeGrantFor(grantUuid);
    expect((await thumbnail(viewer, file.uuid)).status).toBe(404);
    expect(
      (await thumbnail(viewer, file.uuid, '', { 'if-none-match': shown.headers.get('etag')! })).status,
    ).toBe(404);
  });
});

describe('Thumbnails follow their file', () => {
  it('a trashed file still serves its thumbnail, alone and in a batch', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    expect((await call('POST', `/v1/drive/files/${file.uuid}/trash`, { token: user.token })).status).toBe(
      200,
    );
    expect((await thumbnail(user, file.uuid)).status).toBe(200);
    const listed = await batch(user, { uuids: [file.uuid] });
    expect(listed.body.thumbnails[0]).toMatchObject({ status: 'ready' });
  });

  it('a replacement gets its own thumbnail and ETag; has_preview is false until it is stored; the purge removes the old one', async () => {
    const user = await makeUser();
    const file = await withThumbnail(user);
    const oldEtag = (await thumbnail(user, file.uuid)).headers.get('etag');
    const [oldThumbnail] = await thumbnailRows(file.uuid);
    const data = image('alpha.png');
    const before = await lastSeq();
    const replaced = await replaceChunked({ token: user.token }, file.uuid, {
      size: data.length,
      source: data,
      contentType: 'image/png',
    });
    expect(replaced).toMatchObject({ has_preview: false, ctag: 1, version: 3 });
    const versionUuid = (await row(file.uuid)).live_version_uuid;
    expect(await rendered(file.uuid, versionUuid)).toEqual({ outcome: 'ready' });
    expect(await changesSince(before, [file.uuid])).toEqual([
      { item_uuid: file.uuid, change_type: 'update', item_version: 3 },
      { item_uuid: file.uuid, change_type: 'update', item_version: 4 },
    ]);
    const fresh = await thumbnailBytes(user, file.uuid);
    expect(fresh.headers.get('content-type')).toBe('image/png');
    expect(fresh.headers.get('etag')).not.toBe(oldEtag);
    expect((await thumbnail(user, file.uuid, '', { 'if-none-match': oldEtag! })).status).toBe(200);
    expect(await row(file.uuid)).toMatchObject({ has_preview: true, version: 4 });
    // The retired version keeps its thumbnail for its retention, then both go together.
    expect(await objectExists(oldThumbnail.storage_key)).toBe(true);
    await (await temporalClient()).workflow.getHandle(replaceWorkflowId(versionUuid)).result();
    expect(await objectExists(oldThumbnail.storage_key)).toBe(false);
    expect(await db()('drive_thumbnails').where({ version_uuid: oldThumbnail.version_uuid })).toEqual([]);
    expect((await thumbnail(user, file.uuid)).status).toBe(200);
  });

  it('a permanent delete removes the thumbnail object and row, alone or with its folder', async () => {
    const user = await makeUser();
    const alone = await withThumbnail(user);
    const folder = await makeFolder(user, 'Album');
    const inside = await simpleUpload(user, 'alpha.png', image('alpha.png'), {
      content_type: 'image/png',
      folder_uuid: folder,
    });
    expect(await rendered(inside.uuid)).toEqual({ outcome: 'ready' });
    const keys = [...(await thumbnailRows(alone.uuid)), ...(await thumbnailRows(inside.uuid))].map(
      (thumb) => thumb.storage_key,
    );
    expect(keys).toHaveLength(2);
    expect((await call('DELETE', `/v1/drive/files/${alone.uuid}`, { token: user.token })).status).toBe(204);
    expect((await call('DELETE', `/v1/drive/folders/${folder}`, { token: user.token })).status).toBe(204);
    await settle(alone.uuid);
    await settle(folder);
    for (const key of keys) expect(await objectExists(key)).toBe(false);
    expect(await db()('drive_thumbnails').whereIn('file_uuid', [alone.uuid, inside.uuid])).toEqual([]);
  });
});

describe('POST /v1/drive/thumbnails/batch', () => {
  it('reports each uuid in order: ready with data, content_type and version; generating; no_preview; not_found', async () => {
    const user = await makeUser();
    const stranger = await makeUser();
    const ready = await withThumbnail(user);
    const pending = await withThumbnail(user, 'alpha.png', 'image/png');
    await forgetThumbnail(pending.uuid);
    const text = await upload(user, 'notes.txt', 'text/plain', Buffer.from('hi'));
    const broken = await upload(user, 'truncated.jpg', 'image/jpeg');
    expect(await rendered(broken.uuid)).toEqual({ outcome: 'failed' });
    const theirs = await withThumbnail(stranger);
    const deleted = await withThumbnail(user);
    expect((await call('DELETE', `/v1/drive/files/${deleted.uuid}`, { token: user.token })).status).toBe(204);
    const unknown = randomUUID();

    const response = await batch(user, {
      uuids: [
        ready.uuid,
        pending.uuid,
        text.uuid,
        broken.uuid,
        theirs.uuid,
        deleted.uuid,
        unknown,
        'nonsense',
        ready.uuid,
      ],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const served = await thumbnailBytes(user, ready.uuid);
    const readyItem = {
      uuid: ready.uuid,
      status: 'ready',
      data: served.bytes.toString('base64'),
      content_type: 'image/jpeg',
      version: 2,
    };
    expect(response.body).toEqual({
      object: 'list',
      thumbnails: [
        readyItem,
        { uuid: pending.uuid, status: 'generating' },
        { uuid: text.uuid, status: 'no_preview' },
        { uuid: broken.uuid, status: 'no_preview' },
        // Another person's file reads exactly like one that never existed.
        { uuid: theirs.uuid, status: 'not_found' },
        { uuid: deleted.uuid, status: 'not_found' },
        { uuid: unknown, status: 'not_found' },
        { uuid: 'nonsense', status: 'not_found' },
        readyItem,
      ],
    });
    // The generating one was started by the batch.
    expect(await rendered(pending.uuid)).toEqual({ outcome: 'ready' });
    const later = await batch(user, { uuids: [pending.uuid], variant: '1024_fit' });
    // Version 3: the first render made it 2; forgetting the row did not bump it; storing it again did.
    expect(later.body.thumbnails[0]).toMatchObject({
      status: 'ready',
      content_type: 'image/png',
      version: 3,
    });
  });

  it('takes 25 uuids and an empty list; 26 is 400 too_many_uuids', async () => {
    const user = await makeUser();
    const uuids = Array.from({ length: 25 }, () => randomUUID());
    const full = await batch(user, { uuids });
    expect(full.status).toBe(200);
    expect(full.body.thumbnails).toHaveLength(25);
    expect(await batch(user, { uuids: [] })).toMatchObject({
      status: 200,
      body: { object: 'list', thumbnails: [] },
    });
    const over = await batch(user, { uuids: [...uuids, randomUUID()] });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'too_many_uuids' });
  });

  it('refuses a bad body: 422 without uuids, 400 invalid_body for a wrong type, 400 invalid_variant', async () => {
    const user = await makeUser();
    expect(await batch(user, {})).toMatchObject({
      status: 422,
      body: { error: 'missing_required_fields', fields: ['uuids'] },
    });
    expect(await batch(user, { uuids: 'abc' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_body' },
    });
    expect(await batch(user, { uuids: [1, 2] })).toMatchObject({
      status: 400,
      body: { error: 'invalid_body' },
    });
    expect(await batch(user, { uuids: [randomUUID()], variant: 'small' })).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'invalid_variant' } }),
    );
    const scoped = await call('POST', '/v1/drive/thumbnails/batch', {
      token: await tokenFor(user, ['drive.create']),
      json: { uuids: [] },
    });
    expect(scoped.status).toBe(403);
  });
});
