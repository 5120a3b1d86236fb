// Drive trash and permanent delete: POST …/trash and DELETE on files and folders (spec/drive.md § Files, § Folders).
// Restore is the update routes' `trashed: false` (files.ts, folders.ts); the trash list is GET /v1/drive/trash (files.ts).
// Each takes If-Match (an extension: docs/extensions.md § Conditional writes).
import Router from '@koa/router';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { answerItem, ifMatchGuard, ifMatchHeader } from '../../middleware/conditional.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentFile, presentFolder } from '../../presenters/drive.js';
import type { VisibleItem } from '../../../domain/drive/rows.js';
import { deleteItem, trashItem } from '../../../domain/drive/trash.js';
import type { ApiServices } from '../../services.js';

const ItemTrashSchema = z.object({ params: z.object({ uuid: uuidParam }) });
const ItemDeleteSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export function trashRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/drive', sensitive: true });

  router.post(
    '/files/:uuid/trash',
    requireScope('drive.delete'),
    validate(ItemTrashSchema, driveInput),
    ifMatchHeader(),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, ItemTrashSchema);
      const me = callerOf(ctx.state);
      const present = (item: VisibleItem) => presentFile(item, me.userUuid);
      answerItem(
        ctx,
        present(
          await trashItem(unitOf(ctx.state), me, params.uuid, 'file', ifMatchGuard(ctx.state, present)),
        ),
      );
    },
  );

  /** The spec leaves this body "not shown": Folio answers the folder as it now stands, trashed (docs/drive-trash.md). */
  router.post(
    '/folders/:uuid/trash',
    requireScope('drive.delete'),
    validate(ItemTrashSchema, driveInput),
    ifMatchHeader(),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, ItemTrashSchema);
      const me = callerOf(ctx.state);
      const present = (item: VisibleItem) => presentFolder(item, me.userUuid);
      answerItem(
        ctx,
        present(
          await trashItem(unitOf(ctx.state), me, params.uuid, 'folder', ifMatchGuard(ctx.state, present)),
        ),
      );
    },
  );

  router.delete(
    '/files/:uuid',
    requireScope('drive.delete'),
    validate(ItemDeleteSchema, driveInput),
    ifMatchHeader(),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, ItemDeleteSchema);
      const me = callerOf(ctx.state);
      await deleteItem(
        unitOf(ctx.state),
        me,
        params.uuid,
        'file',
        ifMatchGuard(ctx.state, (item) => presentFile(item, me.userUuid)),
      );
      ctx.status = 204;
    },
  );

  router.delete(
    '/folders/:uuid',
    requireScope('drive.delete'),
    validate(ItemDeleteSchema, driveInput),
    ifMatchHeader(),
    transaction(services),
    async (ctx) => {
      const { params } = input(ctx.state, ItemDeleteSchema);
      const me = callerOf(ctx.state);
      await deleteItem(
        unitOf(ctx.state),
        me,
        params.uuid,
        'folder',
        ifMatchGuard(ctx.state, (item) => presentFolder(item, me.userUuid)),
      );
      ctx.status = 204;
    },
  );
  return router;
}
