// Drive files in tests: simple upload and download over the API, and the full drive_file and drive_folder objects
// the API answers, for exact comparisons.
import { expect } from 'vitest';
import { call, type TestUser } from './api.js';

/** Uploads through POST /v1/drive/files (application/octet-stream unless `extra` says otherwise); the drive_file. */
export async function simpleUpload(
  user: TestUser,
  name: string,
  data: Buffer,
  extra: Record<string, unknown> = {},
) {
  const response = await call('POST', '/v1/drive/files', {
    token: user.token,
    json: { name, content_type: 'application/octet-stream', data: data.toString('base64'), ...extra },
  });
  expect(response.status).toBe(201);
  return response.body;
}

/** The bytes GET /v1/drive/files/{uuid}/download answers. */
export async function simpleDownload(user: TestUser, uuid: string): Promise<Buffer> {
  const response = await call('GET', `/v1/drive/files/${uuid}/download`, { token: user.token });
  expect(response.status).toBe(200);
  return Buffer.from(response.body.data, 'base64');
}

type Fields = Record<string, unknown>;

/**
 * The whole drive_file of a completed, untrashed, unshared file at the caller's root, version 1, as its owner sees it;
 * `fields` names what differs (always name, content_type, file_size_bytes and owner). content_hash is null unless
 * `fields` names it (rows written by the tests' factories have none).
 */
export function expectedDriveFile(
  fields: { name: string; content_type: string; file_size_bytes: number; owner: unknown } & Fields,
) {
  return {
    object: 'drive_file',
    uuid: expect.any(String),
    folder_uuid: null,
    upload_status: 'completed',
    trashed: false,
    has_preview: false,
    version: 1,
    ctag: 0,
    created_at: expect.any(String),
    updated_at: expect.any(String),
    my_role: 'owner',
    shared: false,
    content_hash: null,
    ...fields,
  };
}

/** The whole drive_folder of an untrashed, unshared folder at the caller's root, version 1, as its owner sees it. */
export function expectedDriveFolder(fields: { name: string; color: string | null; owner: unknown } & Fields) {
  return {
    object: 'drive_folder',
    uuid: expect.any(String),
    parent_uuid: null,
    trashed: false,
    version: 1,
    created_at: expect.any(String),
    updated_at: expect.any(String),
    my_role: 'owner',
    shared: false,
    ...fields,
  };
}
