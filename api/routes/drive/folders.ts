// Drive folders: create, read, update (rename, move, color, trash/restore) — spec/drive.md § Folders. Answers carry
// an ETag, reads honour If-None-Match and updates If-Match (an extension: docs/extensions.md § Conditional writes).
import Router from '@koa/router';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { answerItem, answerItemRead, ifMatchGuard, ifMatchHeader } from '../../middleware/conditional.js';
import { requireDeleteScopeToTrash } from '../../middleware/drive-trash-scope.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentFolder } from '../../presenters/drive.js';
import { updateItem } from '../../../domain/drive/item-update.js';
import { createFolder, findPresentableItem, findVisibleItem } from '../../../domain/drive/items.js';
import type { ApiServices } from '../../services.js';

export const FoldersCreateSchema = z.object({
  body: z.object({
    name: z.string(),
    parent_uuid: z.string().nullable().optional(),
    color: z.string().nullable().optional(),
  }),
});

const FoldersShowSchema = z.object({ params: z.object({ uuid: uuidParam }) });

const FoldersUpdateSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: z.object({
    name: z.string().optional(),
    // Present moves (null: to the owner's Drive root); absent leaves the folder where it is.
    parent_uuid: z.string().nullable().optional(),
    // Present sets it (blank or null clears it); absent keeps it.
    color: z.string().nullable().optional(),
    trashed: z.boolean().optional(),
  }),
});

export function foldersRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/drive/folders', sensitive: true });

  router.post(
    '/',
    requireScope('drive.create'),
    jsonBody(),
    validate(FoldersCreateSchema, driveInput),
    transaction(services),
    async (ctx) => {
      const { body } = input(ctx.state, FoldersCreateSchema);
      const me = callerOf(ctx.state);
      const { tx } = unitOf(ctx.state);
      const uuid = await createFolder(tx, me, {
        name: body.name,
        parentUuid: body.parent_uuid ?? null,
        color: body.color,
      });
      answerItem(ctx, presentFolder(await findVisibleItem(tx, me, uuid), me.userUuid), 201);
    },
  );

  router.get('/:uuid', requireScope('drive.read'), validate(FoldersShowSchema, driveInput), async (ctx) => {
    const { params } = input(ctx.state, FoldersShowSchema);
    const me = callerOf(ctx.state);
    answerItemRead(
      ctx,
      presentFolder(await findPresentableItem(services.db, me, params.uuid, 'folder'), me.userUuid),
    );
  });

  router.post(
    '/:uuid',
    requireScope('drive.update'),
    jsonBody(),
    requireDeleteScopeToTrash(),
    validate(FoldersUpdateSchema, driveInput),
    ifMatchHeader(),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, FoldersUpdateSchema);
      const me = callerOf(ctx.state);
      const update = {
        name: body.name,
        parentUuid: body.parent_uuid,
        color: body.color,
        trashed: body.trashed,
      };
      const guard = ifMatchGuard(ctx.state, (item) => presentFolder(item, me.userUuid));
      answerItem(
        ctx,
        presentFolder(
          await updateItem(unitOf(ctx.state), me, params.uuid, 'folder', update, guard),
          me.userUuid,
        ),
      );
    },
  );
  return router;
}
