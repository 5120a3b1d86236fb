// Documents: list, Trash list, get, create, update (rename, trash, restore) and the trash shortcut.
import Router from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import * as z from 'zod';
import {
  createDocument,
  findVisibleDocument,
  listDocuments,
  updateDocument,
} from '../../../domain/documents/documents.js';
import {
  invalidCursor,
  invalidLimit,
  invalidQuery,
  invalidTitle,
  invalidTrashed,
} from '../../../domain/documents/errors.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { documentVisible } from '../../middleware/document-visible.js';
import { pageQuery } from '../../input/documents.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentDocument, presentDocumentList, type DocumentViewer } from '../../presenters/documents.js';
import type { ApiServices } from '../../services.js';

const MAX_TITLE_LENGTH = 255;

/** A title: a string of at most 255 characters, or null; "" and null both mean untitled (null). */
const title = z
  .string()
  .refine((text) => [...text].length <= MAX_TITLE_LENGTH)
  .nullable()
  .transform((text) => text || null);

/** q (title contains, case-insensitive; empty means all), limit and cursor (pageQuery). A repeated parameter is refused. */
const DocumentsListSchema = z.object({
  query: z.object({
    q: z
      .string()
      .max(255)
      .optional()
      .transform((q) => q || undefined),
    ...pageQuery,
  }),
});
const listInput = {
  ...documentsInput,
  fields: { 'query.q': invalidQuery, 'query.limit': invalidLimit, 'query.cursor': invalidCursor },
};

const DocumentsCreateSchema = z.object({ body: z.object({ title: title.default(null) }) });
// Only the fields a create reads: U+0000 in a field it ignores (trashed) is then invalid_body, never invalid_trashed.
const createInput = { ...documentsInput, fields: { 'body.title': invalidTitle } };

const DocumentsInfoSchema = z.object({ params: z.object({ uuid: uuidParam }) });

/** title (editor), trashed (owner or manager): checked whole before any write. */
const DocumentsUpdateSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: z.object({ title: title.optional(), trashed: z.boolean().optional() }),
});
const fieldsInput = {
  ...documentsInput,
  fields: { 'body.title': invalidTitle, 'body.trashed': invalidTrashed },
};

const DocumentsTrashSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export function documentsRouter(services: ApiServices): Router {
  const viewer = (ctx: ParameterizedContext): DocumentViewer => ({
    callerUuid: callerOf(ctx.state).userUuid,
    docsUrl: services.settings.docsUrl,
  });
  const router = new Router({ prefix: '/v1/documents', sensitive: true });

  /** The live list and the Trash list: one query, told apart by `trashed`. */
  const listHandler =
    (url: string, trashed: boolean): Middleware =>
    async (ctx) => {
      const { query } = input(ctx.state, DocumentsListSchema);
      const page = await listDocuments(services.db, services.documents, callerOf(ctx.state), {
        ...query,
        trashed,
      });
      ctx.body = presentDocumentList(url, page, viewer(ctx));
    };

  router.get(
    '/',
    requireScope('docs.read'),
    validate(DocumentsListSchema, listInput),
    listHandler('/v1/documents', false),
  );

  router.get(
    '/trash',
    requireScope('docs.read'),
    validate(DocumentsListSchema, listInput),
    listHandler('/v1/documents/trash', true),
  );

  router.post(
    '/',
    requireScope('docs.write'),
    jsonBody(),
    validate(DocumentsCreateSchema, createInput),
    transaction(services),
    async (ctx) => {
      const { body } = input(ctx.state, DocumentsCreateSchema);
      const document = await createDocument(
        unitOf(ctx.state).tx,
        services.documents,
        callerOf(ctx.state),
        body,
      );
      ctx.status = 201;
      ctx.body = presentDocument(document, viewer(ctx));
    },
  );

  router.get(
    '/:uuid',
    requireScope('docs.read'),
    validate(DocumentsInfoSchema, documentsInput),
    async (ctx) => {
      const { params } = input(ctx.state, DocumentsInfoSchema);
      ctx.body = presentDocument(
        await findVisibleDocument(services.db, services.documents, callerOf(ctx.state), params.uuid),
        viewer(ctx),
      );
    },
  );

  router.post(
    '/:uuid',
    requireScope('docs.write'),
    documentVisible(services),
    jsonBody(),
    validate(DocumentsUpdateSchema, fieldsInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, DocumentsUpdateSchema);
      const document = await updateDocument(
        unitOf(ctx.state),
        services.documents,
        callerOf(ctx.state),
        params.uuid,
        body,
      );
      ctx.body = presentDocument(document, viewer(ctx));
    },
  );

  router.post(
    '/:uuid/trash',
    requireScope('docs.write'),
    validate(DocumentsTrashSchema, documentsInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, DocumentsTrashSchema);
      const document = await updateDocument(
        unitOf(ctx.state),
        services.documents,
        callerOf(ctx.state),
        params.uuid,
        {
          trashed: true,
        },
      );
      ctx.body = presentDocument(document, viewer(ctx));
    },
  );
  return router;
}
