// The Drive changes feed: GET /v1/drive/changes (spec/drive.md § Changes; decisions in docs/drive-sync.md).
import Router from '@koa/router';
import { z } from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { driveInput, input, validate } from '../../middleware/validate.js';
import { presentChangesPage } from '../../presenters/drive-changes.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, readChanges } from '../../../domain/drive/changes-feed.js';
import { syncTokenInvalid } from '../../../domain/drive/errors.js';
import { decodeSyncToken, deriveSyncTokenKey, encodeSyncToken } from '../../../domain/drive/sync-token.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';

let keys: Buffer[] | undefined;
/**
 * The process's sync-token keys, derived once: the current master key's seals new tokens; during a master-key rotation
 * the previous keys' still open the tokens clients hold (docs/operations.md § Master-key rotation).
 */
const syncTokenKeys = () => (keys ??= [config().masterKey, ...(config().masterKey.previousKeys?.values() ?? [])].map(deriveSyncTokenKey));
const syncTokenKey = () => syncTokenKeys()[0]!;

/** Query parameters arrive as strings; a repeated parameter arrives as an array and is refused. */
export const ChangesListSchema = z.object({
  query: z.object({
    // The cursor it seals; empty or absent is a first sync (null).
    since: z
      .string()
      .optional()
      .transform((token, ctx) => {
        if (!token) return null;
        for (const key of syncTokenKeys()) {
          const cursor = decodeSyncToken(token, key);
          if (cursor) return cursor;
        }
        ctx.addIssue({ code: 'custom', message: 'since is not a sync token of this server.' });
        return z.NEVER;
      }),
    limit: z
      .string()
      .regex(/^[0-9]{1,4}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(MAX_PAGE_SIZE))
      .default(DEFAULT_PAGE_SIZE),
  }),
});

export const changesRouter = new Router({ prefix: '/v1/drive' });

changesRouter.get('/changes', requireScope('drive.read'), validate(ChangesListSchema, { ...driveInput, fields: { 'query.since': syncTokenInvalid } }), async (ctx) => {
  const { query } = input(ctx.state, ChangesListSchema);
  const me = callerOf(ctx.state);
  const page = await readChanges(db(), me, query.since, query.limit);
  ctx.body = presentChangesPage(page, encodeSyncToken(page.cursor, syncTokenKey()), me.userUuid);
});
