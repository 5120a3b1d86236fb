// A file's bytes: simple upload and download (the server encrypts and decrypts), chunked download init, and
// content replacement (spec/drive.md § Files, § Chunked download, § Replace contents; docs/drive-encryption.md).
// Replace initiate takes If-Match, and answers that return the file carry its ETag (an extension: docs/extensions.md
// § Conditional writes).
import Router from '@koa/router';
import type { IncomingMessage } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { answerItem, ifMatchGuard, ifMatchHeader } from '../../middleware/conditional.js';
import { readBoundedBody } from '../../input/bounded-body.js';
import { JsonBodyError, StreamedJsonObject } from '../../input/streamed-json-object.js';
import { CompleteBody, PartUrlsBody, PlaintextSize, sizedInput } from '../../input/drive.js';
import { jsonBody, parseJsonBody } from '../../middleware/json-body.js';
import { isLarge } from '../../middleware/upload-slots.js';
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
  StreamedWholeFile,
  uploadWholeFile,
} from '../../../domain/drive/content.js';
import {
  Base64StreamDecoder,
  RawControlCharacter,
  decodeStandardBase64,
} from '../../../domain/drive/base64-stream.js';
import { base64Length } from '../../../domain/drive/crypto.js';
import { invalidBody } from '../../../domain/errors.js';
import type { ApiServices } from '../../services.js';

/**
 * Largest simple upload body read: the base64 of the 100 MiB cap, 5% for line breaks or escaped slashes in
 * the data string, and 64 KiB for the other fields. Anything longer is refused before it is buffered.
 */
const SIMPLE_UPLOAD_BODY_LIMIT = Math.ceil(base64Length(SIMPLE_UPLOAD_MAX_BYTES) * 1.05) + 64 * 1024;

/**
 * The JSON body of a simple upload, read within SIMPLE_UPLOAD_BODY_LIMIT: a larger Content-Length is refused without
 * reading; a chunked body is read until it passes the limit, and the rest is drained unread. A large body
 * (api/middleware/upload-slots.ts) holds one of the process's large-upload slots until the request is done with it, or
 * is refused with 503 when none is free. A large body of declared length is streamed (readStreamedUpload); the others
 * are read whole.
 */
function simpleUploadBody(services: ApiServices): Middleware {
  const slots = services.uploadSlots;
  return async (ctx, next) => {
    const declared = ctx.get('Content-Length') ? Number(ctx.get('Content-Length')) : undefined;
    if (declared !== undefined && declared > SIMPLE_UPLOAD_BODY_LIMIT) throw simpleUploadTooLarge();
    if (declared === 0 || (declared === undefined && !ctx.get('Transfer-Encoding'))) return next();
    if (!ctx.is('json')) throw invalidBody('The body must be JSON (Content-Type: application/json).');
    const release = isLarge(declared) ? slots.reserve() : undefined;
    try {
      slots.sendContinue(ctx.req, ctx.res);
      if (declared !== undefined && isLarge(declared))
        return await readStreamedUpload(ctx, services, declared, next);
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

/** A streamed upload's stored bytes, for the route's handler once validate() has passed its fields. */
interface StreamedBody {
  writer: StreamedWholeFile;
  rest: Buffer;
  plaintextBytes: number;
}
const streamedBodies = new WeakMap<Context, StreamedBody>();

/** A placeholder of `data` that fails Base64Data as the real string failed it. */
const NOT_BASE64 = '-';

/**
 * The streamed path (docs/drive-encryption.md § 5): the body is read as it arrives, `data` decoded as its bytes come
 * and stored chunk by chunk (StreamedWholeFile), the other members kept. Then validate() sees the fields with a
 * placeholder for `data` (empty when it decoded, or one that fails as it failed), so every refusal comes in the
 * buffered path's order, and the handler finishes the upload. Whatever was stored and not committed is dropped.
 */
async function readStreamedUpload(
  ctx: Context,
  services: ApiServices,
  declared: number,
  next: Next,
): Promise<void> {
  const me = callerOf(ctx.state);
  const fields: Record<string, unknown> = {};
  const writers: StreamedWholeFile[] = [];
  let streamed: { writer: StreamedWholeFile; decoder: Base64StreamDecoder; rest?: Buffer } | undefined;
  let checking: Promise<void> | undefined;
  let bodyRead = 0;
  const reader = new StreamedJsonObject('data', {
    member(name, value) {
      // As JSON.parse does, the last of two members of one name wins.
      Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
      if (name === 'data') streamed = undefined;
    },
    stringStart(offset) {
      // The plaintext expected when the first chunk is sealed: the base64 characters read so far, plus the rest of
      // the declared length at the density of base64 characters met so far (1 for unwrapped base64, so an upper
      // bound; less for wrapped text, whose escaped line breaks add 3–5%).
      const expected = () => {
        const characters = decoder.alphabetCharacters;
        const density = characters / Math.max(1, bodyRead - offset);
        return ((characters + Math.max(0, declared - bodyRead) * Math.min(1, density)) * 3) / 4;
      };
      const writer = new StreamedWholeFile(services.content, me, expected);
      writers.push(writer);
      const decoder = new Base64StreamDecoder(StreamedWholeFile.chunkBytes, (plaintext) =>
        writer.take(plaintext),
      );
      streamed = { writer, decoder };
      delete fields.data;
      const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
      const folder = fields.folder_uuid;
      checking = writer.checkEarly(
        {
          name: text('name'),
          contentType: text('content_type'),
          folderUuid: typeof folder === 'string' ? folder : null,
        },
        'folder_uuid' in fields && (folder === null || typeof folder === 'string'),
      );
    },
    stringPiece(bytes) {
      streamed!.decoder.write(bytes);
    },
    stringEnd() {
      streamed!.rest = streamed!.decoder.end();
    },
  });
  try {
    try {
      await eachPiece(ctx.req, (piece) => {
        // The reader hands `data` on at the end of each piece, so the decoder has then read up to here.
        bodyRead += piece.length;
        reader.write(piece);
        // The next piece, about as long as this one, decodes to fewer bytes than it has characters.
        const chunkNear = streamed !== undefined && streamed.decoder.room <= piece.length;
        const drained = streamed?.writer.busy(chunkNear) ? streamed.writer.drained(chunkNear) : undefined;
        const waits = [checking, drained].filter((wait) => wait !== undefined);
        checking = undefined;
        return waits.length ? Promise.all(waits).then(() => undefined) : undefined;
      });
      reader.end();
    } catch (error) {
      if (error instanceof JsonBodyError) throw invalidBody(error.message);
      if (error instanceof RawControlCharacter) throw invalidBody('The request body is not valid JSON.');
      throw error;
    }
    const body: Record<string, unknown> = { ...fields };
    if (streamed) {
      body.data = streamed.rest ? '' : NOT_BASE64;
      if (streamed.rest)
        streamedBodies.set(ctx, {
          writer: streamed.writer,
          rest: streamed.rest,
          plaintextBytes: streamed.decoder.bytes,
        });
    }
    ctx.request.body = body;
    await next();
  } finally {
    await Promise.all(writers.map((writer) => writer.abandon()));
  }
}

/**
 * Hands each piece of the request body to `take`, pausing the body while the promise `take` answers is pending. On a
 * refusal the rest of the body is read and dropped, so the client reads the answer instead of a reset.
 */
function eachPiece(req: IncomingMessage, take: (piece: Buffer) => Promise<void> | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const fail = (error: unknown) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.resume();
      reject(error);
    };
    const onData = (piece: Buffer) => {
      let wait: Promise<void> | undefined;
      try {
        wait = take(piece);
      } catch (error) {
        fail(error);
        return;
      }
      if (!wait) return;
      req.pause();
      wait.then(() => {
        if (!done) req.resume();
      }, fail);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (done) return;
      done = true;
      resolve();
    });
    req.once('error', fail);
    req.once('close', () => fail(new Error('the client went away before the body ended')));
  });
}

/** Standard base64 (RFC 4648 §4), padded or not; ASCII whitespace such as 76-column line breaks is ignored. */
const Base64Data = z.string().transform((text, ctx) => {
  const decoded = decodeStandardBase64(text);
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
    simpleUploadBody(services),
    validate(FilesUploadSchema, driveInput),
    async (ctx) => {
      const { body } = input(ctx.state, FilesUploadSchema);
      const me = callerOf(ctx.state);
      const fields = {
        name: body.name,
        contentType: body.content_type,
        folderUuid: body.folder_uuid ?? null,
      };
      const streamed = streamedBodies.get(ctx);
      const file = streamed
        ? await streamed.writer.finish(fields, streamed.rest, streamed.plaintextBytes)
        : await uploadWholeFile(services.content, me, { ...fields, data: body.data! });
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
