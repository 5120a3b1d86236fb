// Documents: list, Trash list, get, create, update (rename, trash, restore) and the trash shortcut.
import Router from '@koa/router';
import { z } from 'zod';
import { createDocument, findVisibleDocument, listDocuments, type DocumentUpdate } from '../../../domain/documents/documents.js';
import { invalidCursor, invalidLimit, invalidQuery, invalidTitle, invalidTrashed } from '../../../domain/documents/errors.js';
import { updateDocument } from '../../../domain/documents/trash.js';
import { db } from '../../../platform/database.js';
import { requireScope } from '../../middleware/auth.js';
import { jsonBody } from '../../middleware/json-body.js';
import { presentDocument, presentDocumentList } from '../../presenters/documents.js';
import { bodyObject, checkPathUuids, documentCaller } from './params.js';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/** One value of a query parameter; a repeated parameter is null (refused). */
const single = (value: unknown): string | undefined | null => (value === undefined || typeof value === 'string' ? value : null);

export const DocumentsListSchema = z.object({
  q: z.string().max(255).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_LIMIT))
    .optional(),
  cursor: z.string().optional(),
});

/** q (title contains, case-insensitive; empty means all), limit 1..100 (default 25), cursor (empty means the first page). */
function readListQuery(query: Record<string, unknown>) {
  const q = single(query.q);
  const limit = single(query.limit);
  const cursor = single(query.cursor);
  if (q === null || !DocumentsListSchema.shape.q.safeParse(q).success) throw invalidQuery();
  const parsedLimit = limit === null ? undefined : DocumentsListSchema.shape.limit.safeParse(limit);
  if (!parsedLimit?.success) throw invalidLimit();
  if (cursor === null) throw invalidCursor();
  return { q: q || undefined, limit: parsedLimit.data ?? DEFAULT_LIMIT, cursor: cursor || undefined };
}

/** title: string or null (editor); trashed: boolean (owner or manager). Checked whole before any write. */
export function readDocumentUpdate(body: Record<string, unknown>): DocumentUpdate {
  const update: DocumentUpdate = {};
  if ('title' in body) {
    if (body.title !== null && typeof body.title !== 'string') throw invalidTitle();
    update.title = body.title;
  }
  if ('trashed' in body) {
    if (typeof body.trashed !== 'boolean') throw invalidTrashed();
    update.trashed = body.trashed;
  }
  return update;
}

export const documentsRouter = new Router({ prefix: '/v1/documents' });

documentsRouter.get('/', requireScope('docs.read'), async (ctx) => {
  const me = documentCaller(ctx.state);
  const query = readListQuery(ctx.query);
  const page = await listDocuments(db(), me, { ...query, trashed: false });
  ctx.body = presentDocumentList('/v1/documents', page, me.userUuid);
});

documentsRouter.get('/trash', requireScope('docs.read'), async (ctx) => {
  const me = documentCaller(ctx.state);
  const query = readListQuery(ctx.query);
  const page = await listDocuments(db(), me, { ...query, trashed: true });
  ctx.body = presentDocumentList('/v1/documents/trash', page, me.userUuid);
});

documentsRouter.post('/', requireScope('docs.write'), jsonBody(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const body = bodyObject(ctx.request.body);
  const document = await db().transaction(async (tx) => {
    const uuid = await createDocument(tx, me, { title: body.title });
    return findVisibleDocument(tx, me, uuid);
  });
  ctx.status = 201;
  ctx.body = presentDocument(document, me.userUuid);
});

documentsRouter.get('/:uuid', requireScope('docs.read'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  ctx.body = presentDocument(await findVisibleDocument(db(), me, ctx.params.uuid!), me.userUuid);
});

documentsRouter.post('/:uuid', requireScope('docs.write'), checkPathUuids(), jsonBody(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const update = readDocumentUpdate(bodyObject(ctx.request.body));
  ctx.body = presentDocument(await updateDocument(db(), me, ctx.params.uuid!, update), me.userUuid);
});

documentsRouter.post('/:uuid/trash', requireScope('docs.write'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  ctx.body = presentDocument(await updateDocument(db(), me, ctx.params.uuid!, { trashed: true }), me.userUuid);
});
