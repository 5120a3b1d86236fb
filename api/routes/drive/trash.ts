// Drive trash and permanent delete: POST …/trash and DELETE on files and folders (spec/drive.md § Files, § Folders).
// Restore is the update routes' `trashed: false` (files.ts, folders.ts); the trash list is GET /v1/drive/trash (files.ts).
import Router from '@koa/router';
import { z } from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentFile, presentFolder } from '../../presenters/drive.js';
import { deleteItem, trashItem } from '../../../domain/drive/trash.js';

export const ItemTrashSchema = z.object({ params: z.object({ uuid: uuidParam }) });
export const ItemDeleteSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export const trashRouter = new Router({ prefix: '/v1/drive' });

trashRouter.post('/files/:uuid/trash', requireScope('drive.delete'), validate(ItemTrashSchema, driveInput), transaction(), async (ctx) => {
  const { params } = input(ctx.state, ItemTrashSchema);
  const me = callerOf(ctx.state);
  ctx.body = presentFile(await trashItem(unitOf(ctx.state), me, params.uuid, 'file'), me.userUuid);
});

/** The spec leaves this body "not shown": Folio answers the folder as it now stands, trashed (docs/drive-trash.md). */
trashRouter.post('/folders/:uuid/trash', requireScope('drive.delete'), validate(ItemTrashSchema, driveInput), transaction(), async (ctx) => {
  const { params } = input(ctx.state, ItemTrashSchema);
  const me = callerOf(ctx.state);
  ctx.body = presentFolder(await trashItem(unitOf(ctx.state), me, params.uuid, 'folder'), me.userUuid);
});

trashRouter.delete('/files/:uuid', requireScope('drive.delete'), validate(ItemDeleteSchema, driveInput), transaction(), async (ctx) => {
  const { params } = input(ctx.state, ItemDeleteSchema);
  await deleteItem(unitOf(ctx.state), callerOf(ctx.state), params.uuid, 'file');
  ctx.status = 204;
});

trashRouter.delete('/folders/:uuid', requireScope('drive.delete'), validate(ItemDeleteSchema, driveInput), transaction(), async (ctx) => {
  const { params } = input(ctx.state, ItemDeleteSchema);
  await deleteItem(unitOf(ctx.state), callerOf(ctx.state), params.uuid, 'folder');
  ctx.status = 204;
});
