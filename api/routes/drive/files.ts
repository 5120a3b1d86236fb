// Drive file metadata: list a folder, list the trash, read a file, update it (rename, move, trash/restore). Reads answer
// an ETag and updates take If-Match (an extension: docs/extensions.md § Conditional writes). Bytes (simple upload and download, chunked transfer, replace) are in file-content.ts and uploads.ts.
import Router from '@koa/router';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { answerItem, answerItemRead, ifMatchGuard, ifMatchHeader } from '../../middleware/conditional.js';
import { requireDeleteScopeToTrash } from '../../middleware/drive-trash-scope.js';
import { jsonBody } from '../../middleware/json-body.js';
import { transaction, unitOf } from '../../middleware/transaction.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentFile, presentList } from '../../presenters/drive.js';
import { updateItem } from '../../../domain/drive/item-update.js';
import { findPresentableItem, listFolder, listTrash } from '../../../domain/drive/items.js';
import type { ApiServices } from '../../services.js';

const FilesListSchema = z.object({
  query: z.object({
    // Empty, absent or repeated: the caller's Drive root.
    folder_uuid: z
      .string()
      .optional()
      .catch(undefined)
      .transform((uuid) => uuid || null),
  }),
});

const FilesShowSchema = z.object({ params: z.object({ uuid: uuidParam }) });

const FilesUpdateSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: z.object({
    name: z.string().optional(),
    // Present moves (null: to the owner's Drive root); absent leaves the file where it is.
    folder_uuid: z.string().nullable().optional(),
    trashed: z.boolean().optional(),
  }),
});

export function filesRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/drive', sensitive: true });

  router.get('/files', requireScope('drive.read'), validate(FilesListSchema, driveInput), async (ctx) => {
    const { query } = input(ctx.state, FilesListSchema);
    const me = callerOf(ctx.state);
    const folder = await listFolder(services.db, me, query.folder_uuid);
    ctx.body = presentList('/v1/drive/files', folder.items, me.userUuid, folder.folderUuid);
  });

  router.get('/trash', requireScope('drive.read'), async (ctx) => {
    const me = callerOf(ctx.state);
    ctx.body = presentList('/v1/drive/trash', await listTrash(services.db, me), me.userUuid);
  });

  router.get(
    '/files/:uuid',
    requireScope('drive.read'),
    validate(FilesShowSchema, driveInput),
    async (ctx) => {
      const { params } = input(ctx.state, FilesShowSchema);
      const me = callerOf(ctx.state);
      answerItemRead(
        ctx,
        presentFile(await findPresentableItem(services.db, me, params.uuid, 'file'), me.userUuid),
      );
    },
  );

  router.post(
    '/files/:uuid',
    requireScope('drive.update'),
    jsonBody(),
    requireDeleteScopeToTrash(),
    validate(FilesUpdateSchema, driveInput),
    ifMatchHeader(),
    transaction(services),
    async (ctx) => {
      const { params, body } = input(ctx.state, FilesUpdateSchema);
      const me = callerOf(ctx.state);
      const update = { name: body.name, parentUuid: body.folder_uuid, trashed: body.trashed };
      const guard = ifMatchGuard(ctx.state, (item) => presentFile(item, me.userUuid));
      answerItem(
        ctx,
        presentFile(await updateItem(unitOf(ctx.state), me, params.uuid, 'file', update, guard), me.userUuid),
      );
    },
  );
  return router;
}
