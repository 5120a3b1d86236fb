// Document content: read it as markdown with its open threads, and edit it with quoted operations.
import Router from '@koa/router';
import { parseOperations, type EditMode } from '../../../domain/document-engine/index.js';
import { applyOperations, readContent, settleWrite, type ContentPresenter, type OperationsInput } from '../../../domain/documents/content.js';
import { blankSuggestionComment, invalidBaseRevision, invalidBatchId } from '../../../domain/documents/errors.js';
import { db } from '../../../platform/database.js';
import { requireScope } from '../../middleware/auth.js';
import { jsonBody } from '../../middleware/json-body.js';
import { presentContent } from '../../presenters/documents.js';
import { bodyObject, checkPathUuids, documentCaller } from './params.js';

/** Edits carry whole documents (set_document), so their bodies may be far larger than other JSON bodies. */
export const OPERATIONS_BODY_LIMIT = '16mb';

const MAX_BATCH_ID_LENGTH = 64;

/**
 * The body of an edit or a suggestion, checked before the document is touched: operations (the engine's check),
 * base_revision (a whole number from 1; null means absent), batch_id (1 to 64 characters; null means absent).
 */
export function readOperationsBody(raw: unknown, mode: EditMode): OperationsInput {
  const body = bodyObject(raw);
  const operations = parseOperations(body.operations, mode);
  const input: OperationsInput = { operations: body.operations };
  const base = body.base_revision;
  if (base !== undefined && base !== null) {
    if (typeof base !== 'number' || !Number.isSafeInteger(base) || base < 1) throw invalidBaseRevision();
    input.baseRevision = base;
  }
  const batch = body.batch_id;
  if (batch !== undefined && batch !== null) {
    if (typeof batch !== 'string' || batch.length < 1 || batch.length > MAX_BATCH_ID_LENGTH) throw invalidBatchId();
    input.batchId = batch;
  }
  if (mode === 'suggest') {
    input.comments = operations.map((operation, index) => {
      if (!('comment' in operation) || operation.comment === undefined) return undefined;
      if (operation.comment.trim() === '') throw blankSuggestionComment(index);
      return operation.comment;
    });
  }
  return input;
}

export const presenterFor =
  (callerUuid: string): ContentPresenter =>
  (view, extra) =>
    presentContent(view, callerUuid, extra);

export const contentRouter = new Router({ prefix: '/v1/documents/:uuid/content' });

contentRouter.get('/', requireScope('docs.read'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  ctx.body = presentContent(await readContent(db(), me, ctx.params.uuid!), me.userUuid);
});

contentRouter.post('/', requireScope('docs.write'), checkPathUuids(), jsonBody(OPERATIONS_BODY_LIMIT), async (ctx) => {
  const me = documentCaller(ctx.state);
  const input = readOperationsBody(ctx.request.body, 'edit');
  const present = presenterFor(me.userUuid);
  const outcome = await db().transaction((tx) => applyOperations(tx, me, ctx.params.uuid!, 'edit', input, present));
  const result = await settleWrite(db(), me, ctx.params.uuid!, outcome, present);
  ctx.status = result.status;
  ctx.body = result.body;
});
