// Read-only sharing settings of a file or folder (spec/drive.md § Sharing; decisions in docs/drive-sharing.md).
// Grants and public links are made by the operator CLI (`folio share ...`).
import Router from '@koa/router';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { driveInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { presentSharing } from '../../presenters/drive-sharing.js';
import { readSharing } from '../../../domain/drive/sharing.js';
import type { ApiServices } from '../../services.js';

const SharingShowSchema = z.object({ params: z.object({ uuid: uuidParam }) });

export function sharingRouter(services: ApiServices): Router {
  const linkKeys = () => ({ publicUrl: services.settings.publicUrl, masterKey: services.settings.masterKey });
  const router = new Router({ prefix: '/v1/drive', sensitive: true });

  router.get(
    '/files/:uuid/sharing',
    requireScope('drive.read'),
    validate(SharingShowSchema, driveInput),
    async (ctx) => {
      const { params } = input(ctx.state, SharingShowSchema);
      ctx.body = presentSharing(
        await readSharing(services.db, callerOf(ctx.state), params.uuid, 'file', linkKeys()),
      );
    },
  );

  router.get(
    '/folders/:uuid/sharing',
    requireScope('drive.read'),
    validate(SharingShowSchema, driveInput),
    async (ctx) => {
      const { params } = input(ctx.state, SharingShowSchema);
      ctx.body = presentSharing(
        await readSharing(services.db, callerOf(ctx.state), params.uuid, 'folder', linkKeys()),
      );
    },
  );
  return router;
}
