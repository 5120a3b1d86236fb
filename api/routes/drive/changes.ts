// The Drive changes feed: GET /v1/drive/changes (spec/drive.md § Changes; decisions in docs/drive-sync.md).
import Router from '@koa/router';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { driveInput, input, validate, type InputErrors } from '../../middleware/validate.js';
import { presentChangesPage } from '../../presenters/drive-changes.js';
import { waitForVisibleChange } from '../../../domain/drive/change-notifications.js';
import {
  DEFAULT_PAGE_SIZE,
  latestChanges,
  MAX_PAGE_SIZE,
  readChanges,
} from '../../../domain/drive/changes-feed.js';
import { syncTokenInvalid, tooManyWaits } from '../../../domain/drive/errors.js';
import { decodeSyncToken, encodeSyncToken } from '../../../domain/drive/sync-token.js';
import { invalidBody } from '../../../domain/errors.js';
import { driveChangeWaits } from '../../../platform/metrics.js';
import type { ApiServices } from '../../services.js';

const MAX_WAIT_SECONDS = 120;
const DEFAULT_WAIT_SECONDS = 30;
/** Long-polls one person may hold open in one API process; each holds a request and reads the feed when woken. */
const MAX_WAITS_PER_USER = 3;

/**
 * The schemas of this app's sync-token keys (api/services.ts): the current master key's seals new tokens; during a
 * master-key rotation the previous keys' still open the tokens clients hold (docs/operations.md § Master-key rotation).
 */
function changesSchemas(syncTokenKeys: Buffer[]) {
  const syncTokenKey = syncTokenKeys[0]!;

  /** Query parameters arrive as strings; a repeated parameter arrives as an array and is refused. */
  const ChangesListSchema = z.object({
    query: z
      .object({
        // The cursor it seals; empty or absent is a first sync (null).
        since: z
          .string()
          .optional()
          .transform((token, ctx) => {
            if (!token) return null;
            for (const key of syncTokenKeys) {
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
        // An extension (docs/extensions.md § Drive changes extras): `latest` answers an empty page at the head.
        sync_token: z.literal('latest').optional(),
      })
      .refine((query) => !(query.sync_token && query.since), {
        message: 'since and sync_token=latest exclude each other',
        path: ['sync_token'],
      }),
  });

  /** A token's cursor, for the long-poll: required, and a token of this server. */
  const sealedToken = z.string().transform((token, ctx) => {
    const cursor = token ? decodeSyncToken(token, syncTokenKey) : undefined;
    if (cursor) return cursor;
    ctx.addIssue({ code: 'custom', message: 'sync_token is not a sync token of this server.' });
    return z.NEVER;
  });

  const ChangesWaitSchema = z.object({
    query: z.object({
      sync_token: sealedToken,
      timeout: z
        .string()
        .regex(/^[0-9]{1,3}$/)
        .transform(Number)
        .pipe(z.number().int().min(1).max(MAX_WAIT_SECONDS))
        .default(DEFAULT_WAIT_SECONDS),
    }),
  });
  return { ChangesListSchema, ChangesWaitSchema, syncTokenKey };
}

/** A token that is not this server's is 410 sync_token_invalid, as for since; an absent one 400 invalid_body. */
const waitInput: InputErrors = {
  ...driveInput,
  fields: {
    'query.sync_token': (issue) =>
      issue.code === 'custom'
        ? syncTokenInvalid()
        : invalidBody('sync_token is required.', { fields: ['sync_token'] }),
  },
};

/** RFC 8288's `Link: <…>; rel="next"`, relative to the request: the token is base64url, safe in a query as it is. */
const nextPageLink = (syncToken: string, limit: number) =>
  `</v1/drive/changes?since=${syncToken}&limit=${limit}>; rel="next"`;

const parked = { enter: () => driveChangeWaits.inc(), leave: () => driveChangeWaits.dec() };

export function changesRouter(services: ApiServices): Router {
  const { ChangesListSchema, ChangesWaitSchema, syncTokenKey } = changesSchemas(services.syncTokenKeys);
  const router = new Router({ prefix: '/v1/drive', sensitive: true });

  router.get(
    '/changes',
    requireScope('drive.read'),
    validate(ChangesListSchema, { ...driveInput, fields: { 'query.since': syncTokenInvalid } }),
    async (ctx) => {
      const { query } = input(ctx.state, ChangesListSchema);
      const me = callerOf(ctx.state);
      const page =
        query.sync_token === 'latest'
          ? await latestChanges(services.db, me)
          : await readChanges(services.db, me, query.since, query.limit);
      const syncToken = encodeSyncToken(page.cursor, syncTokenKey);
      // An extension (docs/extensions.md § Drive changes extras): the next page's address among the headers, so a
      // client asks for it while it still reads and parses this page (as @folio/client's changePages does).
      if (page.hasMore) ctx.set('Link', nextPageLink(syncToken, query.limit));
      ctx.body = presentChangesPage(page, syncToken, me.userUuid);
    },
  );

  router.get(
    '/changes/wait',
    requireScope('drive.read'),
    validate(ChangesWaitSchema, waitInput),
    async (ctx) => {
      const { query } = input(ctx.state, ChangesWaitSchema);
      const me = callerOf(ctx.state);
      const release = services.changeWaits.take(me.userUuid, MAX_WAITS_PER_USER);
      if (!release) throw tooManyWaits(MAX_WAITS_PER_USER, DEFAULT_WAIT_SECONDS);
      // A client that closes its connection gives its slot back at once, not at its timeout: the wait ends unanswered.
      const gone = new AbortController();
      const leave = () => {
        if (!ctx.res.writableFinished) gone.abort();
      };
      ctx.res.once('close', leave);
      if (ctx.req.socket.destroyed) gone.abort(); // Closed before anyone listened.
      try {
        const changes = await waitForVisibleChange(
          { db: services.db, hub: services.changesHub, parked },
          { caller: me, cursor: query.sync_token, timeoutMs: query.timeout * 1000, gone: gone.signal },
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { changes };
      } finally {
        ctx.res.off('close', leave);
        release();
      }
    },
  );
  return router;
}
