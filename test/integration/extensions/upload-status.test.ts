// Upload session status, an extension (docs/extensions.md § Upload session status): the parts the store received for
// a chunked upload in flight (ListParts on MinIO), with sizes and ETags, and when the upload expires.
import { describe, expect, it } from 'vitest';
import { config } from '../../../platform/config.js';
import { call, makeColleague, makeUser } from '../../support/api.js';
import { api, initiateUpload } from '../../support/folio-client.js';
import { simpleUpload } from '../../support/drive-files.js';

const status = (token: string, uuid: string) => call('GET', `/v1/drive/uploads/${uuid}`, { token });

describe('GET /v1/drive/uploads/{file_uuid}', () => {
  it('lists the parts storage holds with their size and ETag, and expires_at', async () => {
    const user = await makeUser();
    const probe = await initiateUpload(
      { token: user.token },
      { name: 'probe.bin', contentType: 'application/octet-stream', size: 1 },
    );
    const begun = Date.now();
    const transfer = await initiateUpload(
      { token: user.token },
      { name: 'three.bin', contentType: 'application/octet-stream', size: 2 * probe.chunkSizeBytes + 10 },
    );
    expect(transfer.chunkCount).toBe(3);
    const started = Date.now();

    const empty = await status(user.token, transfer.fileUuid);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('cache-control')).toBe('no-store');
    expect(empty.body).toEqual({
      object: 'drive_upload',
      file_uuid: transfer.fileUuid,
      upload_status: 'uploading',
      chunk_size_bytes: transfer.chunkSizeBytes,
      chunk_count: 3,
      storage_upload_id: transfer.storageUploadId,
      parts: [],
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // FOLIO_UPLOAD_EXPIRY (8s in the suite) after the upload began, which was during the initiate request.
    const begunAt = Date.parse(empty.body.expires_at) - config().uploadExpiryMs;
    expect(begunAt).toBeGreaterThanOrEqual(begun);
    expect(begunAt).toBeLessThanOrEqual(started);

    // Parts 3 and 1 arrive (any bytes: storage only lists them); part 2 does not.
    const urls = await api(
      { token: user.token },
      'POST',
      `/v1/drive/uploads/${transfer.fileUuid}/part_urls`,
      { part_numbers: [1, 3] },
    );
    const sent = new Map<number, { size: number; etag: string }>();
    for (const [number, size] of [
      [3, 300],
      [1, 1000],
    ] as const) {
      const url = urls.part_urls.find((part: any) => part.part_number === number).url;
      const response = await fetch(url, { method: 'PUT', body: Buffer.alloc(size, number) });
      expect(response.status).toBe(200);
      sent.set(number, { size, etag: response.headers.get('etag')!.replaceAll('"', '') });
    }
    const listed = await status(user.token, transfer.fileUuid);
    expect(listed.body.parts).toEqual([
      { part_number: 1, size_bytes: 1000, etag: sent.get(1)!.etag },
      { part_number: 3, size_bytes: 300, etag: sent.get(3)!.etag },
    ]);
  });

  it("is the uploader's alone: 404 for anyone else, an unknown or malformed id; 422 once completed", async () => {
    const user = await makeUser();
    const colleague = await makeColleague(user);
    const transfer = await initiateUpload(
      { token: user.token },
      { name: 'mine.bin', contentType: 'application/octet-stream', size: 5 },
    );
    expect((await status(colleague.token, transfer.fileUuid)).status).toBe(404);
    expect((await status(user.token, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await status(user.token, 'not-a-uuid')).status).toBe(404);

    const completed = await simpleUpload(user, 'done.txt', Buffer.from('done'));
    const done = await status(user.token, completed.uuid);
    expect(done.status).toBe(422);
    expect(done.body.error).toBe('invalid_upload_status');
  });
});
