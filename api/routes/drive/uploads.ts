// Chunked upload of a new file (spec/drive.md § Chunked upload): initiate, part URLs, complete, abort.
// The client encrypts each chunk itself (docs/drive-encryption.md) and PUTs it to a presigned storage URL.
import Router from '@koa/router';
import { z } from 'zod';
import { requireScope } from '../../middleware/auth.js';
import { readDriveBody } from '../../middleware/drive-body.js';
import { jsonBody } from '../../middleware/json-body.js';
import { presentFile } from '../../presenters/drive.js';
import { presignPartUrls } from '../../../domain/drive/content-objects.js';
import {
  abortUpload,
  beginUpload,
  checkContentType,
  checkFileSize,
  completeUpload,
  contentDeps,
  findOwnUpload,
  layoutOfVersion,
  type StagedContent,
  type VersionRow,
} from '../../../domain/drive/content.js';
import { encodeDataKey } from '../../../domain/drive/crypto.js';
import { invalidParts } from '../../../domain/drive/errors.js';
import { findVisibleItem } from '../../../domain/drive/items.js';
import { db } from '../../../platform/database.js';
import { driveCaller } from './folders.js';

/** Part URLs are presigned in batches; a 1 TiB file has 10,000 parts. */
export const MAX_PART_URLS_PER_REQUEST = 1000;

export const UploadsCreateSchema = z.object({
  name: z.string(),
  content_type: z.string(),
  plaintext_size_bytes: z.unknown(),
  folder_uuid: z.string().nullable().optional(),
});

export const UploadsPartUrlsSchema = z.object({
  part_numbers: z.array(z.number().int()).max(MAX_PART_URLS_PER_REQUEST),
});

export const UploadsCompleteSchema = z.object({
  parts: z.array(z.object({ part_number: z.number().int(), etag: z.string() })).max(10_000),
});

/** The upload initiate fields; the replace initiate answers the same with version_uuid for file_uuid. */
export function presentStagedContent(staged: StagedContent, idField: 'file_uuid' | 'version_uuid') {
  return {
    [idField]: idField === 'file_uuid' ? staged.fileUuid : staged.versionUuid,
    data_key: encodeDataKey(staged.dataKey),
    chunk_size_bytes: staged.layout.chunkSizeBytes,
    chunk_count: staged.layout.chunkCount,
    storage_upload_id: staged.uploadId,
  };
}

/** Presigned PUT URLs for the requested parts; a part number outside 1..chunk_count is 422 invalid_parts. */
export async function presentPartUrls(version: VersionRow, partNumbers: number[]) {
  const { chunkCount } = layoutOfVersion(version);
  const wanted = [...new Set(partNumbers)].sort((a, b) => a - b);
  const outside = wanted.filter((number) => number < 1 || number > chunkCount);
  if (outside.length) throw invalidParts(outside);
  const urls = await presignPartUrls(contentDeps(), version.storage_key, version.storage_upload_id!, wanted);
  return { object: 'list', part_urls: urls };
}

export const uploadsRouter = new Router({ prefix: '/v1/drive/uploads' });

uploadsRouter.post('/', requireScope('drive.create'), jsonBody(), async (ctx) => {
  const input = readDriveBody(ctx.request.body, UploadsCreateSchema, ['name', 'content_type', 'plaintext_size_bytes']);
  const sizeBytes = checkFileSize(input.plaintext_size_bytes);
  const contentType = checkContentType(input.content_type);
  const me = driveCaller(ctx.state);
  const staged = await beginUpload(contentDeps(), me, {
    name: input.name,
    contentType,
    sizeBytes,
    folderUuid: input.folder_uuid ?? null,
    multipart: true,
  });
  ctx.status = 201;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = presentStagedContent(staged, 'file_uuid');
});

uploadsRouter.post('/:uuid/part_urls', requireScope('drive.create'), jsonBody(), async (ctx) => {
  const input = readDriveBody(ctx.request.body, UploadsPartUrlsSchema, ['part_numbers']);
  const version = await findOwnUpload(contentDeps(), driveCaller(ctx.state), ctx.params.uuid!);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = await presentPartUrls(version, input.part_numbers);
});

uploadsRouter.post('/:uuid/complete', requireScope('drive.create'), jsonBody('4mb'), async (ctx) => {
  const input = readDriveBody(ctx.request.body, UploadsCompleteSchema, ['parts']);
  const me = driveCaller(ctx.state);
  await completeUpload(contentDeps(), me, ctx.params.uuid!, input.parts);
  ctx.body = presentFile(await findVisibleItem(db(), me, ctx.params.uuid!, { kind: 'file' }), me.userUuid);
});

uploadsRouter.post('/:uuid/abort', requireScope('drive.create'), async (ctx) => {
  await abortUpload(contentDeps(), driveCaller(ctx.state), ctx.params.uuid!);
  ctx.status = 204;
});
