// Document attachments: upload raw bytes (type sniffed from them), read one, download its bytes.
import Router from '@koa/router';
import type { Context } from 'koa';
import * as z from 'zod';
import {
  attachmentFilename,
  findAttachment,
  isUsableFilename,
  MAX_ATTACHMENT_BYTES,
  openAttachment,
  uploadAttachment,
} from '../../../domain/documents/attachments.js';
import { emptyFile, invalidFilename } from '../../../domain/documents/errors.js';
import { fileTooLarge } from '../../../domain/errors.js';
import { readBoundedBody } from '../../input/bounded-body.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { documentVisible } from '../../middleware/document-visible.js';
import { isLarge, type UploadSlots } from '../../middleware/upload-slots.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { attachmentDisposition, presentAttachment } from '../../presenters/documents.js';
import type { ApiServices } from '../../services.js';

/** filename: the display name, the last path segment of what the client sent; the body is the raw bytes. */
const AttachmentsUploadSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  query: z.object({ filename: z.string().transform(attachmentFilename).refine(isUsableFilename) }),
});

const AttachmentsInfoSchema = z.object({ params: z.object({ uuid: uuidParam, attachment: uuidParam }) });

const AttachmentsDownloadSchema = AttachmentsInfoSchema;

/**
 * The request's bytes, refused as soon as they pass the cap (413, from the declared length when there is one) and when
 * empty (422). A large body (api/middleware/upload-slots.ts) first takes one of the process's large-upload slots,
 * handed to `hold` to release once the upload is done with the bytes, or is refused with 503 when none is free; only
 * then is a client waiting on `Expect: 100-continue` told to send it.
 */
async function readUpload(
  slots: UploadSlots,
  ctx: Context,
  hold: (release: () => void) => void,
): Promise<Buffer> {
  const declared = ctx.get('Content-Length');
  const length = /^\d+$/.test(declared) ? Number(declared) : undefined;
  const withinCap = length === undefined || length <= MAX_ATTACHMENT_BYTES;
  if (withinCap && isLarge(length)) hold(slots.reserve());
  slots.sendContinue(ctx.req, ctx.res);
  const bytes = await readBoundedBody(ctx, {
    length,
    limit: MAX_ATTACHMENT_BYTES,
    tooLarge: () =>
      fileTooLarge(MAX_ATTACHMENT_BYTES, `An attachment is at most ${MAX_ATTACHMENT_BYTES} bytes.`),
  });
  if (bytes.length === 0) throw emptyFile();
  return bytes;
}

export function attachmentsRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/attachments', sensitive: true });

  router.post(
    '/',
    services.uploadSlots.readsBodyAfterChecks,
    requireScope('docs.write'),
    documentVisible(services),
    validate(AttachmentsUploadSchema, { ...documentsInput, fields: { 'query.filename': invalidFilename } }),
    async (ctx) => {
      const { params, query } = input(ctx.state, AttachmentsUploadSchema);
      let release: (() => void) | undefined;
      try {
        // Storage work happens between the upload's transactions, so it opens them itself (runInTransaction).
        const { attachment, created } = await uploadAttachment(
          services.runInTransaction,
          services.documents,
          callerOf(ctx.state),
          params.uuid,
          {
            filename: query.filename,
            read: () => readUpload(services.uploadSlots, ctx, (slot) => (release = slot)),
          },
        );
        ctx.status = created ? 201 : 200;
        ctx.body = presentAttachment(attachment);
      } finally {
        release?.();
      }
    },
  );

  router.get(
    '/:attachment',
    requireScope('docs.read'),
    validate(AttachmentsInfoSchema, documentsInput),
    async (ctx) => {
      const { params } = input(ctx.state, AttachmentsInfoSchema);
      ctx.body = presentAttachment(
        await findAttachment(services.db, services.documents, callerOf(ctx.state), {
          documentUuid: params.uuid,
          attachmentUuid: params.attachment,
        }),
      );
    },
  );

  router.get(
    '/:attachment/download',
    requireScope('docs.read'),
    validate(AttachmentsDownloadSchema, documentsInput),
    async (ctx) => {
      const { params } = input(ctx.state, AttachmentsDownloadSchema);
      const { attachment, content } = await openAttachment(
        services.db,
        services.documents,
        callerOf(ctx.state),
        { documentUuid: params.uuid, attachmentUuid: params.attachment },
      );
      ctx.status = 200;
      ctx.set('Content-Type', attachment.content_type);
      ctx.set('Content-Disposition', attachmentDisposition(attachment));
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = content;
      // After the body: Koa drops Content-Length when a stream is set, but the plaintext size is known.
      ctx.length = Number(attachment.byte_size);
    },
  );
  return router;
}
