// Thumbnails of Drive files (spec/drive.md § Thumbnails; decisions in docs/drive-thumbnails.md): one file's image with
// its validators, and a batch of up to 25. A file with none yet gets its render started here, and answers 202.
import Router from '@koa/router';
import type { Context } from 'koa';
import * as z from 'zod';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { noneMatch } from '../../middleware/conditional.js';
import { jsonBody } from '../../middleware/json-body.js';
import {
  checkedBy,
  driveInput,
  input,
  uuidParam,
  validate,
  type InputErrors,
} from '../../middleware/validate.js';
import { presentThumbnailBatch, type BatchEntry } from '../../presenters/drive-thumbnails.js';
import { tooManyUuids } from '../../../domain/drive/errors.js';
import {
  THUMBNAIL_BATCH_MAX_UUIDS,
  THUMBNAIL_CACHE_SECONDS,
  checkVariant,
  lookupThumbnail,
  lookupThumbnails,
  readThumbnail,
  type ThumbnailIds,
} from '../../../domain/drive/thumbnails.js';
import { invalidBody } from '../../../domain/errors.js';
import type { ApiServices } from '../../services.js';

const Variant = z.unknown().optional().transform(checkedBy(checkVariant));

const ThumbnailsShowSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  query: z.object({ variant: Variant }),
});

const ThumbnailsBatchSchema = z.object({
  body: z.object({
    uuids: z.array(z.string()).max(THUMBNAIL_BATCH_MAX_UUIDS),
    variant: Variant,
  }),
});

/** Drive's input errors, with the batch's own code for a list over the limit. */
const batchInput: InputErrors = {
  ...driveInput,
  fields: {
    'body.uuids': (issue) =>
      issue.code === 'too_big'
        ? tooManyUuids()
        : invalidBody('uuids is an array of file uuids.', { fields: ['uuids'] }),
  },
};

/** Content that never changes for its URL and validator, cached by the caller's own client only (access can end). */
const READY_CACHE_CONTROL = `private, max-age=${THUMBNAIL_CACHE_SECONDS}, immutable`;

/** A request found no thumbnail: start its render. A failed start is only logged: the next request tries again. */
async function startRenders(services: ApiServices, ctx: Context, renders: ThumbnailIds[]): Promise<void> {
  await Promise.all(
    renders.map((ids) =>
      services.workflows
        .startThumbnail(ids)
        .catch((error: unknown) =>
          ctx.state.log.warn(
            { err: error, file_uuid: ids.fileUuid, version_uuid: ids.versionUuid },
            'could not start a thumbnail render',
          ),
        ),
    ),
  );
}

export function thumbnailsRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/drive', sensitive: true });

  router.get(
    '/files/:uuid/thumbnail',
    requireScope('drive.read'),
    validate(ThumbnailsShowSchema, driveInput),
    async (ctx) => {
      const { params, query } = input(ctx.state, ThumbnailsShowSchema);
      const deps = services.content;
      const found = await lookupThumbnail(
        deps.db,
        callerOf(ctx.state),
        params.uuid,
        query.variant,
        services.settings.thumbnails,
      );
      if (found.status === 'ready') {
        ctx.set('ETag', found.etag);
        ctx.set('Cache-Control', READY_CACHE_CONTROL);
        if (noneMatch(ctx.get('If-None-Match'), found.etag)) {
          ctx.status = 304;
          return;
        }
        ctx.type = found.thumbnail.content_type!;
        ctx.body = await readThumbnail(deps, found.thumbnail);
        return;
      }
      // Neither answer is final (a render ends, a replacement changes the content), so neither is stored.
      ctx.set('Cache-Control', 'no-store');
      if (found.status === 'generating') {
        await startRenders(services, ctx, [found.ids]);
        ctx.status = 202;
        ctx.set('Retry-After', '1');
        ctx.body = '';
        return;
      }
      ctx.status = 204;
    },
  );

  router.post(
    '/thumbnails/batch',
    requireScope('drive.read'),
    jsonBody(),
    validate(ThumbnailsBatchSchema, batchInput),
    async (ctx) => {
      const { body } = input(ctx.state, ThumbnailsBatchSchema);
      const deps = services.content;
      const lookups = await lookupThumbnails(
        deps.db,
        callerOf(ctx.state),
        body.uuids,
        body.variant,
        services.settings.thumbnails,
      );
      const entries: BatchEntry[] = await Promise.all(
        lookups.map(async (lookup, at) => ({
          uuid: body.uuids[at]!,
          lookup,
          data: lookup?.status === 'ready' ? await readThumbnail(deps, lookup.thumbnail) : undefined,
        })),
      );
      const renders = new Map<string, ThumbnailIds>();
      for (const lookup of lookups)
        if (lookup?.status === 'generating') renders.set(lookup.ids.versionUuid, lookup.ids);
      await startRenders(services, ctx, [...renders.values()]);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = presentThumbnailBatch(entries);
    },
  );
  return router;
}
