// Suggestions: propose changes as CriticMarkup, accept or reject them (editor), or delete one (its author, manager, owner).
import Router from '@koa/router';
import { applyOperations, decideSuggestion, deleteSuggestion, settleWrite } from '../../../domain/documents/content.js';
import { db } from '../../../platform/database.js';
import { requireScope } from '../../middleware/auth.js';
import { jsonBody } from '../../middleware/json-body.js';
import { OPERATIONS_BODY_LIMIT, presenterFor, readOperationsBody } from './content.js';
import { checkPathUuids, documentCaller } from './params.js';

export const suggestionsRouter = new Router({ prefix: '/v1/documents/:uuid/suggestions' });

suggestionsRouter.post('/', requireScope('docs.comment'), checkPathUuids(), jsonBody(OPERATIONS_BODY_LIMIT), async (ctx) => {
  const me = documentCaller(ctx.state);
  const input = readOperationsBody(ctx.request.body, 'suggest');
  const present = presenterFor(me.userUuid);
  const outcome = await db().transaction((tx) => applyOperations(tx, me, ctx.params.uuid!, 'suggest', input, present));
  const result = await settleWrite(db(), me, ctx.params.uuid!, outcome, present);
  ctx.status = result.status;
  ctx.body = result.body;
});

for (const decision of ['accept', 'reject'] as const) {
  suggestionsRouter.post(`/:thread/${decision}`, requireScope('docs.write'), checkPathUuids(), async (ctx) => {
    const me = documentCaller(ctx.state);
    const outcome = await db().transaction((tx) => decideSuggestion(tx, me, ctx.params.uuid!, ctx.params.thread!, decision));
    const result = await settleWrite(db(), me, ctx.params.uuid!, outcome, presenterFor(me.userUuid));
    ctx.status = result.status;
    ctx.body = result.body;
  });
}

suggestionsRouter.delete('/:thread', requireScope('docs.comment'), checkPathUuids(), async (ctx) => {
  const me = documentCaller(ctx.state);
  const outcome = await db().transaction((tx) => deleteSuggestion(tx, me, ctx.params.uuid!, ctx.params.thread!));
  const result = await settleWrite(db(), me, ctx.params.uuid!, outcome, presenterFor(me.userUuid));
  ctx.status = result.status;
  ctx.body = result.body;
});
