// A file's bytes: simple upload and download (the server encrypts and decrypts), chunked download init, and
// content replacement (spec/drive.md § Files, § Chunked download, § Replace contents; docs/drive-encryption.md).
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { requireScope } from '../../middleware/auth.js';
import { readDriveBody } from '../../middleware/drive-body.js';
import { jsonBody } from '../../middleware/json-body.js';
import { presentFile } from '../../presenters/drive.js';
import { presignDownloadUrl } from '../../../domain/drive/content-objects.js';
import {
  SIMPLE_UPLOAD_MAX_BYTES,
  abortReplace,
  beginReplace,
  checkContentType,
  checkFileSize,
  completeReplace,
  contentDeps,
  findOwnReplacement,
  openLiveContent,
  readPlaintext,
  uploadWholeFile,
} from '../../../domain/drive/content.js';
import { base64Length, base64Stream, encodeDataKey } from '../../../domain/drive/crypto.js';
import { fileTooLarge } from '../../../domain/errors.js';
import { findVisibleItem } from '../../../domain/drive/items.js';
import { invalidBody } from '../../../domain/errors.js';
import { db } from '../../../platform/database.js';
import { driveCaller } from './folders.js';
import { UploadsCompleteSchema, UploadsPartUrlsSchema, presentPartUrls, presentStagedContent } from './uploads.js';

/**
 * Largest simple upload body read: the base64 of the 100 MiB cap, 5% for line breaks or escaped slashes in
 * the data string, and 64 KiB for the other fields. Anything longer is refused before it is buffered.
 */
export const SIMPLE_UPLOAD_BODY_LIMIT = Math.ceil(base64Length(SIMPLE_UPLOAD_MAX_BYTES) * 1.05) + 64 * 1024;

export const FilesUploadSchema = z.object({
  name: z.string(),
  content_type: z.string(),
  data: z.unknown(),
  folder_uuid: z.string().nullable().optional(),
});

export const FilesReplaceSchema = z.object({
  plaintext_size_bytes: z.unknown(),
  content_type: z.string().optional(),
});

const tooLarge = () => fileTooLarge(SIMPLE_UPLOAD_MAX_BYTES, 'The simple upload cap was exceeded; use the chunked upload.');

/**
 * Reads the JSON body of a simple upload within SIMPLE_UPLOAD_BODY_LIMIT: a larger Content-Length is refused
 * without reading; a chunked body is read until it passes the limit, and the rest is drained unread.
 */
async function readSimpleUploadBody(ctx: Context): Promise<unknown> {
  const declared = ctx.get('Content-Length') ? Number(ctx.get('Content-Length')) : undefined;
  if (declared !== undefined && declared > SIMPLE_UPLOAD_BODY_LIMIT) throw tooLarge();
  if (declared === 0 || (declared === undefined && !ctx.get('Transfer-Encoding'))) return {};
  if (!ctx.is('json')) throw invalidBody('The body must be JSON (Content-Type: application/json).');
  const raw = await readBounded(ctx.req, SIMPLE_UPLOAD_BODY_LIMIT, declared);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidBody('The request body is not valid JSON.');
  }
}

function readBounded(req: IncomingMessage, limit: number, declared: number | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // With a declared length the body is copied into one buffer of that size: no second copy at the end.
    const whole = declared !== undefined ? Buffer.allocUnsafe(declared) : undefined;
    const pieces: Buffer[] = [];
    let received = 0;
    const finish = (outcome: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      outcome();
    };
    const onData = (piece: Buffer) => {
      if (received + piece.length > limit || (whole && received + piece.length > whole.length)) {
        pieces.length = 0;
        // The stream keeps flowing with no listener, so the rest is read and dropped, never buffered.
        finish(() => reject(tooLarge()));
        return;
      }
      if (whole) piece.copy(whole, received);
      else pieces.push(piece);
      received += piece.length;
    };
    const onEnd = () => finish(() => resolve(whole ? whole.subarray(0, received) : Buffer.concat(pieces, received)));
    const onError = (error: Error) => finish(() => reject(error));
    const onClose = () => finish(() => reject(invalidBody('The request body ended early.')));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * The bytes of `text` when it is standard base64, padded or not. Node's decoder skips characters outside the
 * alphabet, stops at a misplaced "=" and accepts the URL-safe "-" and "_", so a length check plus a search
 * for those two validates in one pass: every skipped character shortens the output.
 */
function decodeStandardBase64(text: string): Buffer | undefined {
  const unpadded = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  if (unpadded.length % 4 === 1 || (unpadded.length !== text.length && text.length % 4 !== 0)) return undefined;
  if (unpadded.includes('-') || unpadded.includes('_')) return undefined;
  const decoded = Buffer.from(unpadded, 'base64');
  return decoded.length === Math.floor((unpadded.length * 3) / 4) ? decoded : undefined;
}

/** Standard base64 (RFC 4648 §4), padded or not; ASCII whitespace such as 76-column line breaks is ignored. */
export function decodeUploadData(value: unknown): Buffer {
  if (typeof value !== 'string') throw invalidBody('data is required: the file contents as standard base64.', { fields: ['data'] });
  let decoded = decodeStandardBase64(value);
  if (!decoded && /[\t\n\r ]/.test(value)) decoded = decodeStandardBase64(value.replace(/[\t\n\r ]+/g, ''));
  if (!decoded) throw invalidBody('data is not valid standard base64.', { fields: ['data'] });
  if (decoded.length > SIMPLE_UPLOAD_MAX_BYTES) throw tooLarge();
  return decoded;
}

export const fileContentRouter = new Router({ prefix: '/v1/drive/files' });

fileContentRouter.post('/', requireScope('drive.create'), async (ctx) => {
  const input = readDriveBody(await readSimpleUploadBody(ctx), FilesUploadSchema, ['name', 'content_type']);
  const contentType = checkContentType(input.content_type);
  const data = decodeUploadData(input.data);
  const me = driveCaller(ctx.state);
  const fileUuid = await uploadWholeFile(contentDeps(), me, { name: input.name, contentType, folderUuid: input.folder_uuid ?? null, data });
  ctx.status = 201;
  ctx.body = presentFile(await findVisibleItem(db(), me, fileUuid), me.userUuid);
});

fileContentRouter.get('/:uuid/download', requireScope('drive.read'), async (ctx) => {
  const deps = contentDeps();
  const content = await openLiveContent(deps, driveCaller(ctx.state), ctx.params.uuid!);
  const plaintext = await readPlaintext(deps, content);
  const { item, layout } = content;
  // Streamed: the plaintext is decrypted chunk by chunk and base64-encoded on the way out, so memory stays at
  // one chunk whatever the size. A chunk failing authentication cuts the response short (Content-Length unmet).
  const head = `${JSON.stringify({ uuid: item.uuid, name: item.name, content_type: item.content_type, size: layout.plaintextSizeBytes }).slice(0, -1)},"data":"`;
  const tail = '"}';
  const log = ctx.state.log;
  async function* body() {
    yield head;
    try {
      yield* base64Stream(plaintext);
    } catch (error) {
      log.error({ err: error, file_uuid: item.uuid }, 'download stopped: stored content failed to decrypt');
      throw error;
    }
    yield tail;
  }
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', 'private, no-store');
  ctx.length = Buffer.byteLength(head) + base64Length(layout.plaintextSizeBytes) + tail.length;
  ctx.body = Readable.from(body(), { objectMode: false });
});

fileContentRouter.get('/:uuid/download_init', requireScope('drive.read'), async (ctx) => {
  const deps = contentDeps();
  const { version, layout, dataKey } = await openLiveContent(deps, driveCaller(ctx.state), ctx.params.uuid!);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = {
    data_key: encodeDataKey(dataKey),
    chunk_size_bytes: layout.chunkSizeBytes,
    chunk_count: layout.chunkCount,
    ciphertext_size_bytes: layout.ciphertextSizeBytes,
    download_url: await presignDownloadUrl(deps, version.storage_key),
    version_uuid: version.uuid,
  };
});

fileContentRouter.post('/:uuid/replace', requireScope('drive.update'), jsonBody(), async (ctx) => {
  const input = readDriveBody(ctx.request.body, FilesReplaceSchema, ['plaintext_size_bytes']);
  const sizeBytes = checkFileSize(input.plaintext_size_bytes);
  const contentType = input.content_type === undefined ? undefined : checkContentType(input.content_type);
  const staged = await beginReplace(contentDeps(), driveCaller(ctx.state), ctx.params.uuid!, { sizeBytes, contentType });
  ctx.status = 201;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = presentStagedContent(staged, 'version_uuid');
});

fileContentRouter.post('/:uuid/replace/part_urls', requireScope('drive.update'), jsonBody(), async (ctx) => {
  const input = readDriveBody(ctx.request.body, UploadsPartUrlsSchema, ['part_numbers']);
  const version = await findOwnReplacement(contentDeps(), driveCaller(ctx.state), ctx.params.uuid!);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = await presentPartUrls(version, input.part_numbers);
});

fileContentRouter.post('/:uuid/replace/complete', requireScope('drive.update'), jsonBody('4mb'), async (ctx) => {
  const input = readDriveBody(ctx.request.body, UploadsCompleteSchema, ['parts']);
  const me = driveCaller(ctx.state);
  await completeReplace(contentDeps(), me, ctx.params.uuid!, input.parts);
  ctx.body = presentFile(await findVisibleItem(db(), me, ctx.params.uuid!, { kind: 'file' }), me.userUuid);
});

fileContentRouter.post('/:uuid/replace/abort', requireScope('drive.update'), async (ctx) => {
  const me = driveCaller(ctx.state);
  await abortReplace(contentDeps(), me, ctx.params.uuid!);
  ctx.body = presentFile(await findVisibleItem(db(), me, ctx.params.uuid!, { kind: 'file' }), me.userUuid);
});
