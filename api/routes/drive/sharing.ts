// Read-only sharing settings of a file or folder (spec/drive.md § Sharing; decisions in docs/drive-sharing.md).
// Grants and public links are made by the operator CLI (`folio share ...`).
import Router from '@koa/router';
import { requireScope } from '../../middleware/auth.js';
import { presentSharing } from '../../presenters/drive-sharing.js';
import { readSharing } from '../../../domain/drive/sharing.js';
import { db } from '../../../platform/database.js';
import { driveCaller } from './folders.js';

export const sharingRouter = new Router({ prefix: '/v1/drive' });

sharingRouter.get('/files/:uuid/sharing', requireScope('drive.read'), async (ctx) => {
  ctx.body = presentSharing(await readSharing(db(), driveCaller(ctx.state), ctx.params.uuid!, 'file'));
});

sharingRouter.get('/folders/:uuid/sharing', requireScope('drive.read'), async (ctx) => {
  ctx.body = presentSharing(await readSharing(db(), driveCaller(ctx.state), ctx.params.uuid!, 'folder'));
});
