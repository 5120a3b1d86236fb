// Suggestions: propose changes as CriticMarkup, accept or reject them (editor), or delete one (its author, manager, owner).
import Router from '@koa/router';
import * as z from 'zod';
import { decideSuggestion, deleteSuggestion, writeOperations } from '../../../domain/documents/content.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { documentVisible } from '../../middleware/document-visible.js';
import { OPERATIONS_BODY_LIMIT, operationsBody, operationsInput } from '../../input/documents.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { contentPresenter, presentContent } from '../../presenters/documents.js';
import type { ApiServices } from '../../services.js';

const SuggestionsCreateSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: operationsBody('suggest'),
});

const SuggestionsDecideSchema = z.object({ params: z.object({ uuid: uuidParam, thread: uuidParam }) });

const SuggestionsDeleteSchema = z.object({ params: z.object({ uuid: uuidParam, thread: uuidParam }) });

export function suggestionsRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/suggestions', sensitive: true });

  router.post(
    '/',
    requireScope('docs.comment'),
    documentVisible(services),
    jsonBody(OPERATIONS_BODY_LIMIT),
    validate(SuggestionsCreateSchema, operationsInput),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, SuggestionsCreateSchema);
      const me = callerOf(ctx.state);
      const answer = await writeOperations(
        unitOf(ctx.state).tx,
        services.documents,
        me,
        params.uuid,
        { ...body, mode: 'suggest' },
        contentPresenter(me.userUuid),
      );
      ctx.status = answer.status;
      ctx.body = answer.body;
    },
  );

  for (const decision of ['accept', 'reject'] as const) {
    router.post(
      `/:thread/${decision}`,
      requireScope('docs.write'),
      validate(SuggestionsDecideSchema, documentsInput),
      transaction(services),
      async (ctx) => {
        const { params } = input(ctx.state, SuggestionsDecideSchema);
        const me = callerOf(ctx.state);
        const content = await decideSuggestion(
          unitOf(ctx.state).tx,
          services.documents,
          me,
          { documentUuid: params.uuid, threadUuid: params.thread },
          decision,
        );
        ctx.body = presentContent(content, me.userUuid);
      },
    );
  }

  router.delete(
    '/:thread',
    requireScope('docs.comment'),
    validate(SuggestionsDeleteSchema, documentsInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, SuggestionsDeleteSchema);
      const me = callerOf(ctx.state);
      const content = await deleteSuggestion(unitOf(ctx.state).tx, services.documents, me, {
        documentUuid: params.uuid,
        threadUuid: params.thread,
      });
      ctx.body = presentContent(content, me.userUuid);
    },
  );
  return router;
}
