// Drive file metadata: list a folder, list the trash, read a file, update it (rename, move, trash/restore).
// Bytes (simple upload and download, chunked transfer, replace) are in file-content.ts and uploads.ts.
import Router from '@koa/router';
import { z } from 'zod';
import { requireScope } from '../../middleware/auth.js';
import { hasKey, readDriveBody } from '../../middleware/drive-body.js';
import { jsonBody } from '../../middleware/json-body.js';
import { presentFile, presentList } from '../../presenters/drive.js';
import { findVisibleItem, listChildren, listTrash, updateItemMetadata } from '../../../domain/drive/items.js';
import { db } from '../../../platform/database.js';
import { driveCaller } from './folders.js';
import { applyTrashedFlag, requireDeleteScopeToTrash } from './trash-flag.js';

export const FilesUpdateSchema = z.object({
  name: z.string().optional(),
  folder_uuid: z.string().nullable().optional(),
  trashed: z.boolean().optional(),
});

export const filesRouter = new Router({ prefix: '/v1/drive' });

filesRouter.get('/files', requireScope('drive.read'), async (ctx) => {
  const me = driveCaller(ctx.state);
  const requested = typeof ctx.query.folder_uuid === 'string' && ctx.query.folder_uuid !== '' ? ctx.query.folder_uuid : null;
  const folderUuid = requested === null ? null : (await findVisibleItem(db(), me, requested, { kind: 'folder' })).uuid;
  ctx.body = presentList('/v1/drive/files', await listChildren(db(), me, folderUuid), me.userUuid, folderUuid);
});

filesRouter.get('/trash', requireScope('drive.read'), async (ctx) => {
  const me = driveCaller(ctx.state);
  ctx.body = presentList('/v1/drive/trash', await listTrash(db(), me), me.userUuid);
});

filesRouter.get('/files/:uuid', requireScope('drive.read'), async (ctx) => {
  const me = driveCaller(ctx.state);
  ctx.body = presentFile(await findVisibleItem(db(), me, ctx.params.uuid!, { kind: 'file', includeUploading: true }), me.userUuid);
});

filesRouter.post('/files/:uuid', requireScope('drive.update'), jsonBody(), requireDeleteScopeToTrash(), async (ctx) => {
  const body = ctx.request.body;
  const input = readDriveBody(body, FilesUpdateSchema);
  const me = driveCaller(ctx.state);
  const file = await db().transaction(async (tx) => {
    const item = await findVisibleItem(tx, me, ctx.params.uuid!, { kind: 'file', needs: 'editor', forUpdate: true });
    await updateItemMetadata(tx, me, item, {
      name: input.name,
      parentUuid: hasKey(body, 'folder_uuid') ? (input.folder_uuid ?? null) : undefined,
    });
    return findVisibleItem(tx, me, item.uuid);
  });
  ctx.body = presentFile(await applyTrashedFlag(me, file, input.trashed), me.userUuid);
});
