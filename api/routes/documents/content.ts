// Document content: read it as markdown with its open threads, and edit it with quoted operations.
import Router from '@koa/router';
import { z } from 'zod';
import { readContent, writeOperations } from '../../../domain/documents/content.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { documentVisible } from '../../middleware/document-visible.js';
import { OPERATIONS_BODY_LIMIT, operationsBody, operationsInput } from '../../middleware/documents-input.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { contentPresenter, presentContent } from '../../presenters/documents.js';

const ContentInfoSchema = z.object({ params: z.object({ uuid: uuidParam }) });

const ContentEditSchema = z.object({ params: z.object({ uuid: uuidParam }), body: operationsBody('edit') });

export const contentRouter = new Router({ prefix: '/v1/documents/:uuid/content', sensitive: true });

contentRouter.get(
  '/',
  requireScope('docs.read'),
  validate(ContentInfoSchema, documentsInput),
  async (ctx) => {
    const { params } = input(ctx.state, ContentInfoSchema);
    const me = callerOf(ctx.state);
    ctx.body = presentContent(await readContent(db(), me, config(), params.uuid), me.userUuid);
  },
);

contentRouter.post(
  '/',
  requireScope('docs.write'),
  documentVisible(),
  jsonBody(OPERATIONS_BODY_LIMIT),
  validate(ContentEditSchema, operationsInput),
  transaction(),
  async (ctx) => {
    const { params, body } = input(ctx.state, ContentEditSchema);
    const me = callerOf(ctx.state);
    const answer = await writeOperations(
      unitOf(ctx.state).tx,
      me,
      config(),
      params.uuid,
      'edit',
      body,
      contentPresenter(me.userUuid),
    );
    ctx.status = answer.status;
    ctx.body = answer.body;
  },
);
