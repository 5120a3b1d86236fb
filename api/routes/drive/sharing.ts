// Read-only sharing settings of a file or folder (spec/drive.md § Sharing; decisions in docs/drive-sharing.md).
// Grants and public links are made by the operator CLI (`folio share ...`).
import Router from '@koa/router';
import { z } from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentSharing } from '../../presenters/drive-sharing.js';
import { readSharing } from '../../../domain/drive/sharing.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';

const linkKeys = () => ({ publicUrl: config().publicUrl, masterKey: config().masterKey });

const SharingShowSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export const sharingRouter = new Router({ prefix: '/v1/drive', sensitive: true });

sharingRouter.get(
  '/files/:uuid/sharing',
  requireScope('drive.read'),
  validate(SharingShowSchema, driveInput),
  async (ctx) => {
    const { params } = input(ctx.state, SharingShowSchema);
    ctx.body = presentSharing(await readSharing(db(), callerOf(ctx.state), params.uuid, 'file', linkKeys()));
  },
);

sharingRouter.get(
  '/folders/:uuid/sharing',
  requireScope('drive.read'),
  validate(SharingShowSchema, driveInput),
  async (ctx) => {
    const { params } = input(ctx.state, SharingShowSchema);
    ctx.body = presentSharing(
      await readSharing(db(), callerOf(ctx.state), params.uuid, 'folder', linkKeys()),
    );
  },
);
