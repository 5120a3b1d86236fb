// Drive trash and permanent delete: POST …/trash and DELETE on files and folders (spec/drive.md § Files, § Folders).
// Restore is the update routes' `trashed: false` (trash-flag.ts); the trash list is GET /v1/drive/trash (files.ts).
import Router from '@koa/router';
import { requireScope } from '../../middleware/auth.js';
import { presentFile, presentFolder } from '../../presenters/drive.js';
import { deleteItem, trashItem } from '../../../domain/drive/trash.js';
import { driveCaller } from './folders.js';

export const trashRouter = new Router({ prefix: '/v1/drive' });

trashRouter.post('/files/:uuid/trash', requireScope('drive.delete'), async (ctx) => {
  const me = driveCaller(ctx.state);
  ctx.body = presentFile(await trashItem(me, ctx.params.uuid!, 'file'), me.userUuid);
});

/** The spec leaves this body "not shown": Folio answers the folder as it now stands, trashed (docs/drive-trash.md). */
trashRouter.post('/folders/:uuid/trash', requireScope('drive.delete'), async (ctx) => {
  const me = driveCaller(ctx.state);
  ctx.body = presentFolder(await trashItem(me, ctx.params.uuid!, 'folder'), me.userUuid);
});

trashRouter.delete('/files/:uuid', requireScope('drive.delete'), async (ctx) => {
  await deleteItem(driveCaller(ctx.state), ctx.params.uuid!, 'file');
  ctx.status = 204;
});

trashRouter.delete('/folders/:uuid', requireScope('drive.delete'), async (ctx) => {
  await deleteItem(driveCaller(ctx.state), ctx.params.uuid!, 'folder');
  ctx.status = 204;
});
