// Document attachments: upload raw bytes (type sniffed from them), read one, download its bytes.
import Router from '@koa/router';
import {
  checkFilename,
  checkUploadAllowed,
  findAttachment,
  openAttachment,
  readUpload,
  storeAttachment,
} from '../../../domain/documents/attachments.js';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { requireScope } from '../../middleware/auth.js';
import { presentAttachment } from '../../presenters/documents.js';
import { checkPathUuids, documentCaller } from './params.js';

/** RFC 6266 with an RFC 5987 filename*: a plain ASCII fallback, and the exact UTF-8 name percent-encoded. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function declaredLength(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

export const attachmentsRouter = new Router({ prefix: '/v1/documents/:uuid/attachments' });

attachmentsRouter.post('/', requireScope('docs.write'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const filename = checkFilename(ctx.query.filename);
  await checkUploadAllowed(db(), me, ctx.params.uuid!);
  const bytes = await readUpload(ctx.req, declaredLength(ctx.get('Content-Length') || undefined)).catch((error: unknown) => {
    // The rest of a refused body is never read, so the connection cannot carry another request.
    ctx.set('Connection', 'close');
    throw error;
  });
  const { attachment, created } = await storeAttachment(db(), { storage: storage(), bucket: bucket() }, me, ctx.params.uuid!, { filename, bytes });
  ctx.status = created ? 201 : 200;
  ctx.body = presentAttachment(attachment);
});

attachmentsRouter.get('/:attachment', requireScope('docs.read'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  ctx.body = presentAttachment(await findAttachment(db(), me, ctx.params.uuid!, ctx.params.attachment!));
});

attachmentsRouter.get('/:attachment/download', requireScope('docs.read'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const attachment = await findAttachment(db(), me, ctx.params.uuid!, ctx.params.attachment!);
  const stream = await openAttachment({ storage: storage(), bucket: bucket() }, attachment);
  ctx.status = 200;
  ctx.set('Content-Type', attachment.content_type);
  ctx.set('Content-Disposition', contentDisposition(attachment.inline ? 'inline' : 'attachment', attachment.filename));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = stream;
  // After the body: Koa drops Content-Length when a stream is set, but the plaintext size is known.
  ctx.length = Number(attachment.byte_size);
});
