// The Drive changes feed: GET /v1/drive/changes (spec/drive.md § Changes; decisions in docs/drive-sync.md).
import Router from '@koa/router';
import { z } from 'zod';
import { requireScope } from '../../middleware/auth.js';
import { presentChangesPage } from '../../presenters/drive-sharing.js';
import { invalidBody } from '../../../domain/errors.js';
import { syncTokenInvalid } from '../../../domain/drive/errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, readChanges } from '../../../domain/drive/feed.js';
import { decodeSyncToken, encodeSyncToken } from '../../../domain/drive/sync-token.js';
import { db } from '../../../platform/database.js';
import { driveCaller } from './folders.js';

/** Query parameters arrive as strings; a repeated parameter arrives as an array and is refused. */
export const ChangesListSchema = z.object({
  since: z.string().optional(),
  limit: z
    .string()
    .regex(/^[0-9]{1,4}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_PAGE_SIZE))
    .optional(),
});

export const changesRouter = new Router({ prefix: '/v1/drive' });

changesRouter.get('/changes', requireScope('drive.read'), async (ctx) => {
  const me = driveCaller(ctx.state);
  const parsed = ChangesListSchema.safeParse(ctx.query);
  if (!parsed.success) {
    if (parsed.error.issues.some((issue) => issue.path[0] === 'since')) throw syncTokenInvalid();
    throw invalidBody(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`, { fields: ['limit'] });
  }
  const { since, limit = DEFAULT_PAGE_SIZE } = parsed.data;
  // An empty since is the same as none: a first sync.
  const cursor = since ? decodeSyncToken(since) : null;
  if (cursor === undefined) throw syncTokenInvalid();
  const page = await readChanges(db(), me, cursor, limit);
  ctx.body = presentChangesPage(page, encodeSyncToken(page.cursor), me.userUuid);
});
