// Document history (an extension, docs/extensions.md § Documents history): list revisions, read one, restore one.
import Router from '@koa/router';
import * as z from 'zod';
import { invalidCursor, invalidLimit, invalidRevision } from '../../../domain/documents/errors.js';
import { listRevisions, readRevision, restoreRevision } from '../../../domain/documents/history.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { pageQuery } from '../../input/documents.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { contentPresenter, presentRevisionContent, presentRevisionList } from '../../presenters/documents.js';
import type { ApiServices } from '../../services.js';

const revisionParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .max(2 ** 31 - 1),
  );

const RevisionsListSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  query: z.object(pageQuery),
});

const RevisionsInfoSchema = z.object({ params: z.object({ uuid: uuidParam, revision: revisionParam }) });

const RevisionsRestoreSchema = z.object({ params: z.object({ uuid: uuidParam, revision: revisionParam }) });

const revisionsInput = {
  ...documentsInput,
  pathParam: (name: string) => (name === 'revision' ? invalidRevision() : documentsInput.pathParam(name)),
  fields: { 'query.limit': invalidLimit, 'query.cursor': invalidCursor },
};

export function revisionsRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/revisions', sensitive: true });

  router.get('/', requireScope('docs.read'), validate(RevisionsListSchema, revisionsInput), async (ctx) => {
    const { params, query } = input(ctx.state, RevisionsListSchema);
    const me = callerOf(ctx.state);
    const page = await listRevisions(services.db, services.documents, me, params.uuid, query);
    ctx.body = presentRevisionList(`/v1/documents/${params.uuid}/revisions`, page, me.userUuid);
  });

  router.get(
    '/:revision',
    requireScope('docs.read'),
    validate(RevisionsInfoSchema, revisionsInput),
    async (ctx) => {
      const { params } = input(ctx.state, RevisionsInfoSchema);
      const me = callerOf(ctx.state);
      ctx.body = presentRevisionContent(
        params.uuid,
        await readRevision(services.db, services.documents, me, params.uuid, params.revision),
        me.userUuid,
      );
    },
  );

  router.post(
    '/:revision/restore',
    requireScope('docs.write'),
    validate(RevisionsRestoreSchema, revisionsInput),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, RevisionsRestoreSchema);
      const me = callerOf(ctx.state);
      const answer = await restoreRevision(
        unitOf(ctx.state).tx,
        services.documents,
        me,
        params.uuid,
        params.revision,
        contentPresenter(me.userUuid),
      );
      ctx.status = answer.status;
      ctx.body = answer.body;
    },
  );
  return router;
}
