// Chunked upload of a new file (spec/drive.md § Chunked upload): initiate, part URLs, complete, abort.
// The client encrypts each chunk itself (docs/drive-encryption.md) and PUTs it to a presigned storage URL.
import Router from '@koa/router';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { answerItem } from '../../middleware/conditional.js';
import { CompleteBody, PartUrlsBody, PlaintextSize, sizedInput } from '../../input/drive.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentFile } from '../../presenters/drive.js';
import {
  presentPartUrls,
  presentStagedContent,
  presentUploadStatus,
} from '../../presenters/drive-content.js';
import {
  abortUpload,
  beginUpload,
  completeUpload,
  presignUploadParts,
} from '../../../domain/drive/content.js';
import { readUploadStatus } from '../../../domain/drive/upload-status.js';
import type { ApiServices } from '../../services.js';

const UploadsCreateSchema = z.object({
  body: z.object({
    name: z.string(),
    content_type: z.string(),
    plaintext_size_bytes: PlaintextSize,
    folder_uuid: z.string().nullable().optional(),
  }),
});

const UploadsPartUrlsSchema = z.object({ params: z.object({ uuid: uuidParam }), body: PartUrlsBody });

const UploadsCompleteSchema = z.object({ params: z.object({ uuid: uuidParam }), body: CompleteBody });

const UploadsAbortSchema = z.object({ params: z.object({ uuid: uuidParam }) });

const UploadsStatusSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export function uploadsRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/drive/uploads', sensitive: true });

  router.post(
    '/',
    requireScope('drive.create'),
    jsonBody(),
    validate(UploadsCreateSchema, sizedInput),
    async (ctx) => {
      const { body } = input(ctx.state, UploadsCreateSchema);
      const staged = await beginUpload(services.content, callerOf(ctx.state), {
        name: body.name,
        contentType: body.content_type,
        sizeBytes: body.plaintext_size_bytes,
        folderUuid: body.folder_uuid ?? null,
      });
      ctx.status = 201;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = presentStagedContent(staged, 'file_uuid');
    },
  );

  router.post(
    '/:uuid/part_urls',
    requireScope('drive.create'),
    jsonBody(),
    validate(UploadsPartUrlsSchema, driveInput),
    async (ctx) => {
      const { params, body } = input(ctx.state, UploadsPartUrlsSchema);
      const urls = await presignUploadParts(
        services.content,
        callerOf(ctx.state),
        params.uuid,
        body.part_numbers,
      );
      ctx.set('Cache-Control', 'no-store');
      ctx.body = presentPartUrls(urls);
    },
  );

  router.post(
    '/:uuid/complete',
    requireScope('drive.create'),
    jsonBody('4mb'),
    validate(UploadsCompleteSchema, driveInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, UploadsCompleteSchema);
      const me = callerOf(ctx.state);
      answerItem(
        ctx,
        presentFile(
          await completeUpload(services.content, unitOf(ctx.state), me, params.uuid, {
            parts: body.parts,
            contentHash: body.content_hash,
          }),
          me.userUuid,
        ),
      );
    },
  );

  router.post(
    '/:uuid/abort',
    requireScope('drive.create'),
    validate(UploadsAbortSchema, driveInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, UploadsAbortSchema);
      await abortUpload(services.content, unitOf(ctx.state), callerOf(ctx.state), params.uuid);
      ctx.status = 204;
    },
  );

  // An extension (docs/extensions.md § Upload session status): the parts storage holds, so a client resumes.
  router.get(
    '/:uuid',
    requireScope('drive.create'),
    validate(UploadsStatusSchema, driveInput),
    async (ctx) => {
      const { params } = input(ctx.state, UploadsStatusSchema);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = presentUploadStatus(
        await readUploadStatus(
          services.content,
          callerOf(ctx.state),
          params.uuid,
          services.settings.uploadExpiryMs,
        ),
      );
    },
  );
  return router;
}
