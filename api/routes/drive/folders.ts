// Drive folders: create, read, update (rename, move, color, trash/restore) — spec/drive.md § Folders.
import Router from '@koa/router';
import { z } from 'zod';
import { caller, requireScope } from '../../middleware/auth.js';
import { hasKey, readDriveBody } from '../../middleware/drive-body.js';
import { jsonBody } from '../../middleware/json-body.js';
import { presentFolder } from '../../presenters/drive.js';
import { createFolder, findVisibleItem, updateItemMetadata, type DriveCaller } from '../../../domain/drive/items.js';
import { db } from '../../../platform/database.js';
import { applyTrashedFlag, requireDeleteScopeToTrash } from './trash-flag.js';

export const FoldersCreateSchema = z.object({
  name: z.string(),
  parent_uuid: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
});

export const FoldersUpdateSchema = z.object({
  name: z.string().optional(),
  parent_uuid: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
  trashed: z.boolean().optional(),
});

const driveCaller = (state: Parameters<typeof caller>[0]): DriveCaller => {
  const { userUuid, workspaceUuid } = caller(state);
  return { userUuid, workspaceUuid };
};

export const foldersRouter = new Router({ prefix: '/v1/drive/folders' });

foldersRouter.post('/', requireScope('drive.create'), jsonBody(), async (ctx) => {
  const input = readDriveBody(ctx.request.body, FoldersCreateSchema, ['name']);
  const me = driveCaller(ctx.state);
  const folder = await db().transaction(async (tx) => {
    const uuid = await createFolder(tx, me, { name: input.name, parentUuid: input.parent_uuid ?? null, color: input.color ?? undefined });
    return findVisibleItem(tx, me, uuid);
  });
  ctx.status = 201;
  ctx.body = presentFolder(folder, me.userUuid);
});

foldersRouter.get('/:uuid', requireScope('drive.read'), async (ctx) => {
  const me = driveCaller(ctx.state);
  ctx.body = presentFolder(await findVisibleItem(db(), me, ctx.params.uuid!, { kind: 'folder' }), me.userUuid);
});

foldersRouter.post('/:uuid', requireScope('drive.update'), jsonBody(), requireDeleteScopeToTrash(), async (ctx) => {
  const body = ctx.request.body;
  const input = readDriveBody(body, FoldersUpdateSchema);
  const me = driveCaller(ctx.state);
  const folder = await db().transaction(async (tx) => {
    const item = await findVisibleItem(tx, me, ctx.params.uuid!, { kind: 'folder', needs: 'editor', forUpdate: true });
    await updateItemMetadata(tx, me, item, {
      name: input.name,
      parentUuid: hasKey(body, 'parent_uuid') ? (input.parent_uuid ?? null) : undefined,
      color: hasKey(body, 'color') ? input.color : undefined,
    });
    return findVisibleItem(tx, me, item.uuid, { forUpdate: true });
  });
  ctx.body = presentFolder(await applyTrashedFlag(me, folder, input.trashed), me.userUuid);
});

export { driveCaller };
