// A file's bytes: simple upload and download (the server encrypts and decrypts), chunked download init, and
// content replacement (spec/drive.md § Files, § Chunked download, § Replace contents; docs/drive-encryption.md).
// Replace initiate takes If-Match, and answers that return the file carry its ETag (an extension: docs/extensions.md
// § Conditional writes).
import type { IncomingMessage } from 'node:http';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { answerItem, ifMatchGuard, ifMatchHeader } from '../../middleware/conditional.js';
import { contentDeps } from '../../middleware/content-deps.js';
import { CompleteBody, PartUrlsBody, PlaintextSize, sizedInput } from '../../middleware/drive-input.js';
import { jsonBody } from '../../middleware/json-body.js';
import { JsonSyntaxError, StreamedJsonObject } from '../../middleware/streamed-json-object.js';
import { isLarge, reserveLargeUpload, sendContinue } from '../../middleware/upload-slots.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { contentTag, presentFile } from '../../presenters/drive.js';
import { presentDownload, presentDownloadInit, presentPartUrls, presentStagedContent } from '../../presenters/drive-content.js';
import {
  SIMPLE_UPLOAD_MAX_BYTES,
  abortReplace,
  beginReplace,
  completeReplace,
  openChunkedDownload,
  openDownload,
  presignReplacementParts,
  simpleUploadTooLarge,
  StreamedUpload,
  type ContentDeps,
  type SimpleUploadFields,
} from '../../../domain/drive/content.js';
import type { Caller } from '../../../domain/caller.js';
import { Base64Decoder } from '../../../domain/drive/base64-decoder.js';
import { base64Length } from '../../../domain/drive/crypto.js';
import type { VisibleItem } from '../../../domain/drive/rows.js';
import { AppError, invalidBody } from '../../../domain/errors.js';
import { config } from '../../../platform/config.js';

/**
 * Largest simple upload body read: the base64 of the 100 MiB cap, 5% for line breaks or escaped slashes in
 * the data string, and 64 KiB for the other fields. Anything longer is refused before it is buffered.
 */
export const SIMPLE_UPLOAD_BODY_LIMIT = Math.ceil(base64Length(SIMPLE_UPLOAD_MAX_BYTES) * 1.05) + 64 * 1024;

/**
 * The simple upload, read as it arrives within SIMPLE_UPLOAD_BODY_LIMIT (docs/drive-encryption.md § Simple upload): a
 * larger Content-Length is refused without reading; a body of unknown length is read until it passes the limit, and
 * the rest is drained unread. The `data` string is decoded and handed to a StreamedUpload while the body arrives; the
 * other members, wherever they sit, are checked with the route's schema once the body has ended, before the file
 * exists, so every refusal is the one a whole body got: bad JSON first, then the fields, then the domain's checks. A
 * large body (api/middleware/upload-slots.ts) holds one of the process's large-upload slots until the request is done.
 */
function simpleUpload(): Middleware {
  const check = validate(FilesUploadSchema, driveInput);
  return async (ctx) => {
    const declared = ctx.get('Content-Length') ? Number(ctx.get('Content-Length')) : undefined;
    if (declared !== undefined && declared > SIMPLE_UPLOAD_BODY_LIMIT) throw simpleUploadTooLarge();
    if (declared === 0 || (declared === undefined && !ctx.get('Transfer-Encoding'))) {
      await check(ctx, async () => undefined); // An absent body: the schema's refusal.
      throw invalidBody('The body must be a JSON object.');
    }
    if (!ctx.is('json')) throw invalidBody('The body must be JSON (Content-Type: application/json).');
    const release = isLarge(declared) ? reserveLargeUpload(config().http.maxConcurrentLargeUploads) : undefined;
    const me = callerOf(ctx.state);
    const body = new UploadBody(contentDeps(), me, declared);
    try {
      sendContinue(ctx.req, ctx.res);
      await body.read(ctx.req);
      ctx.request.body = body.members();
      await check(ctx, async () => undefined);
      const fields = input(ctx.state, FilesUploadSchema).body;
      const file = await body.finish({ name: fields.name, contentType: fields.content_type, folderUuid: fields.folder_uuid ?? null });
      answerItem(ctx, presentFile(file, me.userUuid), 201);
    } catch (error) {
      await body.abandon();
      throw error;
    } finally {
      release?.();
    }
  };
}

type DataMember = { kind: 'absent' } | { kind: 'value'; value: unknown } | { kind: 'streamed'; decoder: Base64Decoder; nul: boolean };

/** A simple upload's body as it is read: its members kept, its `data` string decoded into a StreamedUpload. */
class UploadBody {
  private upload: StreamedUpload | undefined;
  private readonly fields: Record<string, unknown> = {};
  /** `data` as the schema is to see it: absent, a value of another type, or streamed (the string itself is never kept). */
  private data: DataMember = { kind: 'absent' };
  private duplicate = false;
  private decoded: Buffer[] = [];

  constructor(
    private readonly deps: ContentDeps,
    private readonly caller: Caller,
    private readonly declared: number | undefined,
  ) {}

  /** Reads the request to its end; a body past the limit is 413 (the rest drained), one that is not JSON 400. */
  async read(req: IncomingMessage): Promise<void> {
    const reader = new StreamedJsonObject('data', {
      member: (name, value) => {
        if (name === 'data') this.data = { kind: 'value', value };
        else Object.defineProperty(this.fields, name, { value, enumerable: true, writable: true, configurable: true });
      },
      stringStart: (offset) => {
        // A second data string: JSON.parse would keep the last, but the first one is already streamed.
        if (this.data.kind === 'streamed') this.duplicate = true;
        this.data = { kind: 'streamed', decoder: new Base64Decoder(), nul: false };
        // The declared length bounds the data string, so the plaintext: StreamedUpload speculates on the chunk count from it.
        const maxBytes = this.declared === undefined ? undefined : Math.floor(((this.declared - offset) * 3) / 4);
        this.upload ??= new StreamedUpload(this.deps, this.caller, maxBytes);
      },
      stringPiece: (text) => {
        if (this.data.kind !== 'streamed' || this.duplicate) return;
        const { decoder } = this.data;
        if (!decoder.invalid) this.decoded.push(decoder.write(text));
        if (decoder.invalid && !this.data.nul) this.data.nul = text.includes('\u0000');
      },
      stringEnd: () => {
        if (this.data.kind !== 'streamed' || this.duplicate) return;
        const last = this.data.decoder.end();
        if (last) this.decoded.push(last);
      },
    });
    let received = 0;
    let syntax = false;
    try {
      // Not destroyed when the loop stops early: the rest of a refused body is drained, so that its answer arrives.
      for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > SIMPLE_UPLOAD_BODY_LIMIT) throw simpleUploadTooLarge();
        if (syntax) continue; // Read to the end (or the limit) all the same: a 413 comes before a 400.
        try {
          reader.write(chunk);
        } catch (error) {
          if (!(error instanceof JsonSyntaxError)) throw error;
          syntax = true;
          await this.abandon();
        }
        await this.flush();
      }
    } catch (error) {
      req.resume(); // The rest is read and dropped, never buffered.
      if (error instanceof AppError) throw error;
      if (req.readableAborted || req.destroyed) throw invalidBody('The request was aborted before its body ended.');
      throw error;
    }
    if (this.declared !== undefined && received !== this.declared) throw invalidBody('The body is shorter than its Content-Length.');
    if (!syntax) {
      try {
        reader.end();
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        syntax = true;
      }
    }
    if (syntax) throw invalidBody('The request body is not valid JSON.');
    await this.flush();
  }

  /** The body's members as JSON.parse made them, with a stand-in for a streamed `data` of the same validity. */
  members(): Record<string, unknown> {
    const members = { ...this.fields };
    if (this.data.kind === 'value') members.data = this.data.value;
    if (this.data.kind === 'streamed') {
      const valid = !this.duplicate && !this.data.decoder.invalid;
      // '' is valid base64, '-' is not; a U+0000 is refused before the schema runs, as it was in the whole string.
      members.data = valid ? '' : this.data.nul ? '\u0000' : '-';
    }
    return members;
  }

  /** The file, once the schema has passed the members: the streamed data (a valid string, as the schema saw). */
  finish(fields: SimpleUploadFields): Promise<VisibleItem> {
    if (this.data.kind !== 'streamed' || !this.upload) throw new Error('a simple upload finished without its streamed data');
    return this.upload.finish(fields);
  }

  async abandon(): Promise<void> {
    const upload = this.upload;
    this.upload = undefined;
    this.data = { kind: 'absent' };
    await upload?.abandon();
  }

  private async flush(): Promise<void> {
    const decoded = this.decoded;
    this.decoded = [];
    if (this.data.kind !== 'streamed' || this.duplicate || !this.upload) return;
    for (const bytes of decoded) await this.upload.write(bytes);
  }
}

/** Standard base64 (RFC 4648 §4), padded or not; ASCII whitespace such as 76-column line breaks is ignored. */
const Base64Data = z.string().refine(
  (text) => {
    const decoder = new Base64Decoder();
    decoder.write(text);
    return decoder.end() !== undefined;
  },
  { message: 'data is not valid standard base64.' },
);

export const FilesUploadSchema = z.object({
  body: z
    .object({
      name: z.string(),
      content_type: z.string(),
      // Not a required field in the spec's sense: without it the answer is 400 invalid_body, not 422.
      data: Base64Data.optional(),
      folder_uuid: z.string().nullable().optional(),
    })
    .refine((body) => body.data !== undefined, { path: ['data'], message: 'data is required: the file contents as standard base64.' }),
});

export const FilesDownloadSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export const FilesReplaceSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: z.object({
    plaintext_size_bytes: PlaintextSize,
    content_type: z.string().optional(),
  }),
});

export const FilesReplacePartUrlsSchema = z.object({ params: z.object({ uuid: uuidParam }), body: PartUrlsBody });

export const FilesReplaceCompleteSchema = z.object({ params: z.object({ uuid: uuidParam }), body: CompleteBody });

export const FilesReplaceAbortSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export const fileContentRouter = new Router({ prefix: '/v1/drive/files' });

fileContentRouter.post('/', requireScope('drive.create'), simpleUpload());

fileContentRouter.get('/:uuid/download', requireScope('drive.read'), validate(FilesDownloadSchema, driveInput), async (ctx) => {
  const { params } = input(ctx.state, FilesDownloadSchema);
  const download = await openDownload(contentDeps(), callerOf(ctx.state), params.uuid);
  const log = ctx.state.log;
  const { body, length } = presentDownload(download, (error) =>
    log.error({ err: error, file_uuid: download.item.uuid }, 'download stopped: stored content failed to decrypt'),
  );
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', 'private, no-store');
  ctx.length = length;
  ctx.body = body;
});

fileContentRouter.get('/:uuid/download_init', requireScope('drive.read'), validate(FilesDownloadSchema, driveInput), async (ctx) => {
  const { params } = input(ctx.state, FilesDownloadSchema);
  const download = await openChunkedDownload(contentDeps(), callerOf(ctx.state), params.uuid);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = presentDownloadInit(download);
});

/** If-Match: the file's ETag (nothing about it changed) or its content tag `"ctag-<ctag>"` (its bytes did not change). */
fileContentRouter.post('/:uuid/replace', requireScope('drive.update'), jsonBody(), validate(FilesReplaceSchema, sizedInput), ifMatchHeader(), async (ctx) => {
  const { params, body } = input(ctx.state, FilesReplaceSchema);
  const me = callerOf(ctx.state);
  const guard = ifMatchGuard(ctx.state, (item) => presentFile(item, me.userUuid), (item) => [contentTag(item.ctag)]);
  const staged = await beginReplace(contentDeps(), me, params.uuid, { sizeBytes: body.plaintext_size_bytes, contentType: body.content_type, guard });
  ctx.status = 201;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = presentStagedContent(staged, 'version_uuid');
});

fileContentRouter.post('/:uuid/replace/part_urls', requireScope('drive.update'), jsonBody(), validate(FilesReplacePartUrlsSchema, driveInput), async (ctx) => {
  const { params, body } = input(ctx.state, FilesReplacePartUrlsSchema);
  const urls = await presignReplacementParts(contentDeps(), callerOf(ctx.state), params.uuid, body.part_numbers);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = presentPartUrls(urls);
});

fileContentRouter.post(
  '/:uuid/replace/complete',
  requireScope('drive.update'),
  jsonBody('4mb'),
  validate(FilesReplaceCompleteSchema, driveInput),
  transaction(),
  async (ctx) => {
    const { params, body } = input(ctx.state, FilesReplaceCompleteSchema);
    const me = callerOf(ctx.state);
    answerItem(ctx, presentFile(await completeReplace(contentDeps(), unitOf(ctx.state), me, params.uuid, { parts: body.parts, contentHash: body.content_hash }), me.userUuid));
  },
);

fileContentRouter.post('/:uuid/replace/abort', requireScope('drive.update'), validate(FilesReplaceAbortSchema, driveInput), transaction(), async (ctx) => {
  const { params } = input(ctx.state, FilesReplaceAbortSchema);
  const me = callerOf(ctx.state);
  answerItem(ctx, presentFile(await abortReplace(contentDeps(), unitOf(ctx.state), me, params.uuid), me.userUuid));
});
