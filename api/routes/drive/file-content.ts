// A file's bytes: simple upload and download (the server encrypts and decrypts), chunked download init, and
// content replacement (spec/drive.md § Files, § Chunked download, § Replace contents; docs/drive-encryption.md).
// Replace initiate takes If-Match, and answers that return the file carry its ETag (an extension: docs/extensions.md
// § Conditional writes).
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { answerItem, ifMatchGuard, ifMatchHeader } from '../../middleware/conditional.js';
import { readBoundedBody } from '../../input/bounded-body.js';
import { CompleteBody, PartUrlsBody, PlaintextSize, sizedInput } from '../../input/drive.js';
import { jsonBody, parseJsonBody } from '../../middleware/json-body.js';
import { isLarge, type UploadSlots } from '../../middleware/upload-slots.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { contentTag, presentFile } from '../../presenters/drive.js';
import {
  presentDownload,
  presentDownloadInit,
  presentPartUrls,
  presentStagedContent,
} from '../../presenters/drive-content.js';
import {
  SIMPLE_UPLOAD_MAX_BYTES,
  abortReplace,
  beginReplace,
  completeReplace,
  openChunkedDownload,
  openDownload,
  presignReplacementParts,
  simpleUploadTooLarge,
  uploadWholeFile,
} from '../../../domain/drive/content.js';
import { base64Length } from '../../../domain/drive/crypto.js';
import { invalidBody } from '../../../domain/errors.js';
import type { ApiServices } from '../../services.js';

/**
 * Largest simple upload body read: the base64 of the 100 MiB cap, 5% for line breaks or escaped slashes in
 * the data string, and 64 KiB for the other fields. Anything longer is refused before it is buffered.
 */
const SIMPLE_UPLOAD_BODY_LIMIT = Math.ceil(base64Length(SIMPLE_UPLOAD_MAX_BYTES) * 1.05) + 64 * 1024;

/**
 * The JSON body of a simple upload, read within SIMPLE_UPLOAD_BODY_LIMIT: a larger Content-Length is refused
 * without reading; a chunked body is read until it passes the limit, and the rest is drained unread. A large body
 * (api/middleware/upload-slots.ts) holds one of the process's large-upload slots until the request is done with
 * it, or is refused with 503 when none is free.
 */
function simpleUploadBody(slots: UploadSlots): Middleware {
  return async (ctx, next) => {
    const declared = ctx.get('Content-Length') ? Number(ctx.get('Content-Length')) : undefined;
    if (declared !== undefined && declared > SIMPLE_UPLOAD_BODY_LIMIT) throw simpleUploadTooLarge();
    if (declared === 0 || (declared === undefined && !ctx.get('Transfer-Encoding'))) return next();
    if (!ctx.is('json')) throw invalidBody('The body must be JSON (Content-Type: application/json).');
    const release = isLarge(declared) ? slots.reserve() : undefined;
    try {
      slots.sendContinue(ctx.req, ctx.res);
      const text = await readBoundedBody(ctx, {
        length: declared,
        limit: SIMPLE_UPLOAD_BODY_LIMIT,
        tooLarge: simpleUploadTooLarge,
        encoding: 'utf8',
      });
      // The same reading as every JSON body's: nesting past MAX_JSON_DEPTH is refused before anything walks it.
      const body = parseJsonBody(text);
      if (typeof body !== 'object' || body === null) throw invalidBody('The body must be a JSON object.');
      ctx.request.body = body;
      await next();
    } finally {
      release?.();
    }
  };
}

/**
 * The bytes of `text` when it is standard base64, padded or not. Node's decoder skips characters outside the
 * alphabet, stops at a misplaced "=" and accepts the URL-safe "-" and "_", so a length check plus a search
 * for those two validates in one pass: every skipped character shortens the output.
 */
function decodeStandardBase64(text: string): Buffer | undefined {
  const unpadded = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  if (unpadded.length % 4 === 1 || (unpadded.length !== text.length && text.length % 4 !== 0))
    return undefined;
  if (unpadded.includes('-') || unpadded.includes('_')) return undefined;
  const decoded = Buffer.from(unpadded, 'base64');
  return decoded.length === Math.floor((unpadded.length * 3) / 4) ? decoded : undefined;
}

/** Standard base64 (RFC 4648 §4), padded or not; ASCII whitespace such as 76-column line breaks is ignored. */
const Base64Data = z.string().transform((text, ctx) => {
  const decoded =
    decodeStandardBase64(text) ??
    (/[\t\n\r ]/.test(text) ? decodeStandardBase64(text.replace(/[\t\n\r ]+/g, '')) : undefined);
  if (decoded) return decoded;
  ctx.addIssue({ code: 'custom', message: 'data is not valid standard base64.' });
  return z.NEVER;
});

const FilesUploadSchema = z.object({
  body: z
    .object({
      name: z.string(),
      content_type: z.string(),
      // Not a required field in the spec's sense: without it the answer is 400 invalid_body, not 422.
      data: Base64Data.optional(),
      folder_uuid: z.string().nullable().optional(),
    })
    .refine((body) => body.data !== undefined, {
      path: ['data'],
      message: 'data is required: the file contents as standard base64.',
    }),
});

const FilesDownloadSchema = z.object({ params: z.object({ uuid: uuidParam }) });

const FilesReplaceSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: z.object({
    plaintext_size_bytes: PlaintextSize,
    content_type: z.string().optional(),
  }),
});

const FilesReplacePartUrlsSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: PartUrlsBody,
});

const FilesReplaceCompleteSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: CompleteBody,
});

const FilesReplaceAbortSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export function fileContentRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/drive/files', sensitive: true });

  router.post(
    '/',
    services.uploadSlots.readsBodyAfterChecks,
    requireScope('drive.create'),
    simpleUploadBody(services.uploadSlots),
    validate(FilesUploadSchema, driveInput),
    async (ctx) => {
      const { body } = input(ctx.state, FilesUploadSchema);
      const me = callerOf(ctx.state);
      const file = await uploadWholeFile(services.content, me, {
        name: body.name,
        contentType: body.content_type,
        folderUuid: body.folder_uuid ?? null,
        data: body.data!,
      });
      answerItem(ctx, presentFile(file, me.userUuid), 201);
    },
  );

  router.get(
    '/:uuid/download',
    requireScope('drive.read'),
    validate(FilesDownloadSchema, driveInput),
    async (ctx) => {
      const { params } = input(ctx.state, FilesDownloadSchema);
      const download = await openDownload(services.content, callerOf(ctx.state), params.uuid);
      const log = ctx.state.log;
      const { body, length } = presentDownload(download, (error) =>
        log.error(
          { err: error, file_uuid: download.item.uuid },
          'download stopped: stored content failed to decrypt',
        ),
      );
      ctx.type = 'application/json; charset=utf-8';
      ctx.set('Cache-Control', 'private, no-store');
      ctx.length = length;
      ctx.body = body;
    },
  );

  router.get(
    '/:uuid/download_init',
    requireScope('drive.read'),
    validate(FilesDownloadSchema, driveInput),
    async (ctx) => {
      const { params } = input(ctx.state, FilesDownloadSchema);
      const download = await openChunkedDownload(services.content, callerOf(ctx.state), params.uuid);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = presentDownloadInit(download);
    },
  );

  /** If-Match: the file's ETag (nothing about it changed) or its content tag `"ctag-<ctag>"` (its bytes did not change). */
  router.post(
    '/:uuid/replace',
    requireScope('drive.update'),
    jsonBody(),
    validate(FilesReplaceSchema, sizedInput),
    ifMatchHeader(),
    async (ctx) => {
      const { params, body } = input(ctx.state, FilesReplaceSchema);
      const me = callerOf(ctx.state);
      const guard = ifMatchGuard(
        ctx.state,
        (item) => presentFile(item, me.userUuid),
        (item) => [contentTag(item.ctag)],
      );
      const staged = await beginReplace(services.content, me, params.uuid, {
        sizeBytes: body.plaintext_size_bytes,
        contentType: body.content_type,
        guard,
      });
      ctx.status = 201;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = presentStagedContent(staged, 'version_uuid');
    },
  );

  router.post(
    '/:uuid/replace/part_urls',
    requireScope('drive.update'),
    jsonBody(),
    validate(FilesReplacePartUrlsSchema, driveInput),
    async (ctx) => {
      const { params, body } = input(ctx.state, FilesReplacePartUrlsSchema);
      const urls = await presignReplacementParts(
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
    '/:uuid/replace/complete',
    requireScope('drive.update'),
    jsonBody('4mb'),
    validate(FilesReplaceCompleteSchema, driveInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, FilesReplaceCompleteSchema);
      const me = callerOf(ctx.state);
      answerItem(
        ctx,
        presentFile(
          await completeReplace(services.content, unitOf(ctx.state), me, params.uuid, {
            parts: body.parts,
            contentHash: body.content_hash,
          }),
          me.userUuid,
        ),
      );
    },
  );

  router.post(
    '/:uuid/replace/abort',
    requireScope('drive.update'),
    validate(FilesReplaceAbortSchema, driveInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, FilesReplaceAbortSchema);
      const me = callerOf(ctx.state);
      answerItem(
        ctx,
        presentFile(await abortReplace(services.content, unitOf(ctx.state), me, params.uuid), me.userUuid),
      );
    },
  );
  return router;
}
