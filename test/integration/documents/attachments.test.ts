// Attachments: upload (type from the bytes, images inline with their size), dedupe, limits, storage, download, errors.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import {
  apiUrl,
  call,
  fetchApi,
  makeDocument,
  makeUser,
  makeWorkspace,
  type TestUser,
} from '../../support/api.js';
import { documentWithColleagues } from '../../support/documents.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const MAX_BYTES = 100 * 1024 * 1024;

const upload = (
  user: TestUser,
  uuid: string,
  filename: string | undefined,
  bytes: Buffer,
  headers: Record<string, string> = {},
) =>
  call(
    'POST',
    `/v1/documents/${uuid}/attachments${filename === undefined ? '' : `?filename=${encodeURIComponent(filename)}`}`,
    {
      token: user.token,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', ...headers },
    },
  );

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp', width = 3, height = 2) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 10, b: 10 } } })
    .toFormat(format)
    .toBuffer();

async function usedBytes(workspaceUuid: string): Promise<number> {
  return Number(
    (await db()('workspaces').where({ uuid: workspaceUuid }).first('storage_used_bytes')).storage_used_bytes,
  );
}

describe('uploading attachments', () => {
  it('stores a PNG as an inline image with its size, answering 201 and the exact document_attachment', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Body.' });
    const bytes = await image('png', 3, 2);
    const before = await usedBytes(user.workspaceUuid);
    // The declared type is ignored: the bytes say PNG.
    const response = await upload(user, document.uuid, 'chart.png', bytes, { 'content-type': 'text/plain' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      object: 'document_attachment',
      uuid: expect.any(String),
      document_uuid: document.uuid,
      filename: 'chart.png',
      content_type: 'image/png',
      byte_size: bytes.length,
      upload_status: 'completed',
      width: 3,
      height: 2,
      inline: true,
      markdown: `![chart.png](attachment:${response.body.uuid})`,
      created_at: expect.any(String),
    });
    expect(await usedBytes(user.workspaceUuid)).toBe(before + bytes.length);
  });

  it('shows JPEG, GIF and WebP inline too, and anything else as a file to download', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    for (const [format, type] of [
      ['jpeg', 'image/jpeg'],
      ['gif', 'image/gif'],
      ['webp', 'image/webp'],
    ] as const) {
      const response = await upload(user, document.uuid, `pic.${format}`, await image(format, 5, 4));
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ content_type: type, inline: true, width: 5, height: 4 });
    }
    const pdfLike = Buffer.from('%PDF-1.7\n% not really a pdf but close enough\n');
    const file = await upload(user, document.uuid, 'Report [final].pdf', pdfLike, {
      'content-type': 'image/png',
    });
    expect(file.status).toBe(201);
    expect(file.body).toMatchObject({
      content_type: 'application/octet-stream',
      inline: false,
      width: null,
      height: null,
    });
    expect(file.body.markdown).toBe(`[Report \\[final\\].pdf](attachment:${file.body.uuid})`);
    const svg = await upload(
      user,
      document.uuid,
      'logo.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    expect(svg.body).toMatchObject({ content_type: 'application/octet-stream', inline: false });
  });

  it('answers 200 with the same attachment for the same bytes again, without counting them twice', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const bytes = await image('png');
    const first = await upload(user, document.uuid, 'a.png', bytes);
    const used = await usedBytes(user.workspaceUuid);
    const again = await upload(user, document.uuid, 'renamed.png', bytes);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await usedBytes(user.workspaceUuid)).toBe(used);
    // Another document gets its own attachment.
    const other = await makeDocument(user);
    const elsewhere = await upload(user, other.uuid, 'a.png', bytes);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.uuid).not.toBe(first.body.uuid);
  });

  it('finishes an upload that died between its row and its object when the same bytes are sent again', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const bytes = Buffer.from('report body '.repeat(100));
    const first = await upload(user, document.uuid, 'report.txt', bytes);
    expect(first.status).toBe(201);
    const used = await usedBytes(user.workspaceUuid);
    // What an API killed after writing the row, before putting the object, leaves behind.
    const row = await db()('document_attachments').where({ uuid: first.body.uuid }).first();
    await db()('document_attachments').where({ uuid: row.uuid }).update({ upload_status: 'awaiting_upload' });
    await storage().removeObject(bucket(), row.storage_key);
    const stuck = await call('GET', `/v1/documents/${document.uuid}/attachments/${row.uuid}/download`, {
      token: user.token,
    });
    expect(stuck.status).toBe(409);
    expect(stuck.body.error).toBe('not_uploaded');

    const retry = await upload(user, document.uuid, 'report.txt', bytes);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ uuid: row.uuid, upload_status: 'completed', byte_size: bytes.length });
    expect(await usedBytes(user.workspaceUuid)).toBe(used);
    const download = await call('GET', `/v1/documents/${document.uuid}/attachments/${row.uuid}/download`, {
      token: user.token,
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(download.body as string)).toEqual(bytes);
  });

  it('keeps only the last path segment of the filename, and refuses a missing or unusable one with 422 invalid_filename', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const stripped = await upload(user, document.uuid, '../../etc/notes.txt', Buffer.from('hello'));
    expect(stripped.body.filename).toBe('notes.txt');
    for (const filename of [undefined, '', '   ', 'dir/', '..', 'a\u0001b', 'x'.repeat(256)]) {
      const response = await upload(user, document.uuid, filename, Buffer.from('hello'));
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ error: 'invalid_filename', error_description: expect.any(String) });
    }
  });

  it('refuses an upload without bytes with 422 empty_file', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const response = await upload(user, document.uuid, 'empty.txt', Buffer.alloc(0));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'empty_file', error_description: expect.any(String) });
  });

  it('refuses more than 100 MB with 413 file_too_large and max_bytes, from the declared length', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const url = new URL(`${apiUrl()}/v1/documents/${document.uuid}/attachments?filename=big.bin`);
    const response = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-length': String(MAX_BYTES + 1) },
        },
        (res) => {
          let text = '';
          res.on('data', (piece) => (text += piece));
          res.on('end', () => {
            resolve({ status: res.statusCode!, body: JSON.parse(text) });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      error: 'file_too_large',
      error_description: expect.any(String),
      max_bytes: MAX_BYTES,
    });
  });

  it('refuses more than 100 MB with 413 file_too_large while streaming a body of unknown length, storing nothing', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const piece = new Uint8Array(1024 * 1024).fill(7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BYTES) return controller.close();
        sent += piece.length;
        controller.enqueue(piece);
      },
    });
    const response = await fetchApi(`/v1/documents/${document.uuid}/attachments?filename=big.bin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'file_too_large',
      error_description: expect.any(String),
      max_bytes: MAX_BYTES,
    });
    expect(
      await db()('document_attachments').where({ document_uuid: document.uuid }).first(),
    ).toBeUndefined();
  });

  it('refuses an upload past the workspace storage with 422 storage_limit_exceeded', async () => {
    const workspace = await makeWorkspace({ storageLimitBytes: 100 });
    const user = await makeUser({ workspace });
    const document = await makeDocument(user);
    expect((await upload(user, document.uuid, 'fits.txt', Buffer.alloc(60, 1))).status).toBe(201);
    const response = await upload(user, document.uuid, 'over.txt', Buffer.alloc(60, 2));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'storage_limit_exceeded', error_description: expect.any(String) });
    expect(await usedBytes(workspace.uuid)).toBe(60);
  });

  it('needs editor to upload (403 forbidden), refuses a trashed document (409 document_trashed) and an unseen one (404)', async () => {
    const owner = await makeUser();
    const { document, viewer, stranger } = await documentWithColleagues(owner, {
      viewer: 'viewer',
      stranger: null,
    });
    const refused = await upload(viewer, document.uuid, 'a.txt', Buffer.from('a'));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'forbidden',
      error_description: expect.stringContaining('editor'),
    });
    expect((await upload(stranger, document.uuid, 'a.txt', Buffer.from('a'))).status).toBe(404);
    await call('POST', `/v1/documents/${document.uuid}/trash`, { token: owner.token });
    const trashed = await upload(owner, document.uuid, 'a.txt', Buffer.from('a'));
    expect(trashed.status).toBe(409);
    expect(trashed.body).toEqual({ error: 'document_trashed', error_description: expect.any(String) });
  });
});

describe('reading and downloading attachments', () => {
  it("reads an attachment for any role, and answers 404 for another document's attachment", async () => {
    const owner = await makeUser();
    const { document, viewer } = await documentWithColleagues(owner, { viewer: 'viewer' });
    const other = await makeDocument(owner);
    const made = await upload(owner, document.uuid, 'doc.txt', Buffer.from('content'));
    const got = await call('GET', `/v1/documents/${document.uuid}/attachments/${made.body.uuid}`, {
      token: viewer.token,
    });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(made.body);
    for (const path of [
      `/v1/documents/${other.uuid}/attachments/${made.body.uuid}`,
      `/v1/documents/${document.uuid}/attachments/${MISSING}`,
    ]) {
      const response = await call('GET', path, { token: owner.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found', error_description: expect.any(String) });
    }
    const malformed = await call('GET', `/v1/documents/${document.uuid}/attachments/not-a-uuid/download`, {
      token: owner.token,
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error).toBe('invalid_uuid');
  });

  it('downloads the exact bytes with the attachment type and a safe Content-Disposition', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const bytes = Buffer.from('Grüße, "quoted"; and more\n'.repeat(1000));
    const made = await upload(user, document.uuid, 'Prüfbericht "2026".txt', bytes);
    const response = await fetchApi(`/v1/documents/${document.uuid}/attachments/${made.body.uuid}/download`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Pr_fbericht _2026_.txt"; filename*=UTF-8''Pr%C3%BCfbericht%20%222026%22.txt`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    const png = await image('png');
    const picture = await upload(user, document.uuid, 'p.png', png);
    const inline = await fetchApi(
      `/v1/documents/${document.uuid}/attachments/${picture.body.uuid}/download`,
      {
        headers: { authorization: `Bearer ${user.token}` },
      },
    );
    expect(inline.headers.get('content-type')).toBe('image/png');
    expect(inline.headers.get('content-disposition')).toBe(
      `inline; filename="p.png"; filename*=UTF-8''p.png`,
    );
    expect(Buffer.from(await inline.arrayBuffer()).equals(png)).toBe(true);
  });

  it('keeps the bytes encrypted at rest: the stored object is not the plaintext', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const bytes = Buffer.from('TOP SECRET PLAINTEXT '.repeat(100));
    const made = await upload(user, document.uuid, 'secret.txt', bytes);
    const row = await db()('document_attachments').where({ uuid: made.body.uuid }).first('storage_key');
    const stored: Buffer[] = [];
    for await (const piece of await storage().getObject(bucket(), row.storage_key))
      stored.push(piece as Buffer);
    const object = Buffer.concat(stored);
    expect(object.length).toBe(bytes.length + 28);
    expect(object.includes(Buffer.from('TOP SECRET'))).toBe(false);
  });

  // The spec: "An attachment whose upload_status is not `completed` gives 409 not_uploaded" — the attachment, so its
  // metadata GET as well as its download (this test used to expect the metadata GET to answer 200).
  it('answers 409 not_uploaded on the metadata GET and the download of an attachment whose upload has not completed', async () => {
    const user = await makeUser();
    const document = await makeDocument(user);
    const made = await upload(user, document.uuid, 'late.txt', Buffer.from('late'));
    for (const status of ['awaiting_upload', 'failed']) {
      await db()('document_attachments').where({ uuid: made.body.uuid }).update({ upload_status: status });
      for (const path of ['', '/download']) {
        const response = await call(
          'GET',
          `/v1/documents/${document.uuid}/attachments/${made.body.uuid}${path}`,
          { token: user.token },
        );
        expect(response.status).toBe(409);
        expect(response.body).toEqual({ error: 'not_uploaded', error_description: expect.any(String) });
      }
    }
    // Another document's attachment stays 404 whatever its status.
    const other = await makeDocument(user);
    const elsewhere = await call('GET', `/v1/documents/${other.uuid}/attachments/${made.body.uuid}`, {
      token: user.token,
    });
    expect(elsewhere.status).toBe(404);
  });

  it('places an attachment with its markdown line in an edit and reads it back the same way', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Intro.' });
    const picture = await upload(user, document.uuid, 'diagram.png', await image('png'));
    const file = await upload(user, document.uuid, 'spec_v2.pdf', Buffer.from('%PDF-1.4 fake'));
    const edited = await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: user.token,
      json: {
        operations: [
          { type: 'insert', after: 'end', markdown: picture.body.markdown },
          { type: 'insert', after: 'end', markdown: file.body.markdown },
        ],
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.markdown).toBe(`Intro.\n\n${picture.body.markdown}\n\n${file.body.markdown}`);
  });
});
