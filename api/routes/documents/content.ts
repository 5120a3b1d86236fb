// Document content: read it as markdown with its open threads, and edit it with quoted operations.
import Router from '@koa/router';
import * as z from 'zod';
import { readContent, writeOperations } from '../../../domain/documents/content.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { documentVisible } from '../../middleware/document-visible.js';
import { OPERATIONS_BODY_LIMIT, operationsBody, operationsInput } from '../../input/documents.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { contentPresenter, presentContent } from '../../presenters/documents.js';
import type { ApiServices } from '../../services.js';

const ContentInfoSchema = z.object({ params: z.object({ uuid: uuidParam }) });

const ContentEditSchema = z.object({ params: z.object({ uuid: uuidParam }), body: operationsBody('edit') });

export function contentRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/content', sensitive: true });

  router.get('/', requireScope('docs.read'), validate(ContentInfoSchema, documentsInput), async (ctx) => {
    const { params } = input(ctx.state, ContentInfoSchema);
    const me = callerOf(ctx.state);
    ctx.body = presentContent(
      await readContent(services.db, services.documents, me, params.uuid),
      me.userUuid,
    );
  });

  router.post(
    '/',
    requireScope('docs.write'),
    documentVisible(services),
    jsonBody(OPERATIONS_BODY_LIMIT),
    validate(ContentEditSchema, operationsInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, ContentEditSchema);
      const me = callerOf(ctx.state);
      const answer = await writeOperations(
        unitOf(ctx.state).tx,
        services.documents,
        me,
        params.uuid,
        { ...body, mode: 'edit' },
        contentPresenter(me.userUuid),
      );
      ctx.status = answer.status;
      ctx.body = answer.body;
    },
  );
  return router;
}
