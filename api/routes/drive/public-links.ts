// Public links, anonymous and read-only: GET /s/<token> serves the shared file, or the shared folder's listing
// (HTML, or JSON for Accept: application/json), and GET /s/<token>/<uuid> anything below a shared folder. Rate-limited
// per client address and per link. Decisions: docs/drive-sharing.md § Public links.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import * as z from 'zod';
import { RateLimiter, clientAddressKey } from '../../middleware/rate-limit.js';
import { input, uuidParam, validate, type InputErrors } from '../../middleware/validate.js';
import {
  PUBLIC_DOWNLOAD_CSP,
  PUBLIC_PAGE_HEADERS,
  presentSharedDownload,
  presentSharedFolder,
  renderRefusal,
  renderSharedFolder,
  sharedFileDisposition,
  sharedItemUrls,
} from '../../presenters/drive-public-links.js';
import { openDownloadOf } from '../../../domain/drive/content.js';
import {
  findPublicLink,
  findSharedItem,
  isPublicLinkToken,
  linkNotFound,
  listSharedFolder,
} from '../../../domain/drive/public-links.js';
import { AppError } from '../../../domain/errors.js';
import { declareSecretSegment } from '../../../platform/secret-paths.js';
import type { ApiServices } from '../../services.js';

/** Most items one listing shows; past it the page says so (`truncated`), and deeper items stay reachable by url. */
const SHARED_FOLDER_LISTING_MAX = 1000;

const PublicLinksShowSchema = z.object({
  params: z.object({ token: z.string().refine(isPublicLinkToken), uuid: uuidParam.optional() }),
});

/** Every malformed part of a public url is the same 404 as an unknown link. */
const publicLinkInput: InputErrors = { pathParam: () => linkNotFound(), otherwise: () => linkNotFound() };

const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'too_many_requests',
    `Too many requests; retry after ${retryAfterSeconds} seconds.`,
    {},
    { 'Retry-After': String(retryAfterSeconds) },
  );

function limit(limiter: RateLimiter, key: string): void {
  const retryAfter = limiter.take(key);
  if (retryAfter) throw tooManyRequests(retryAfter);
}

/**
 * The frame of every answer under /s/: the security headers (on refusals too), the per-address limit before any
 * work, and a refusal a browser can read (a plain page) or a program can (the usual JSON error body).
 */
function publicPage(perIp: RateLimiter): Middleware {
  return async (ctx, next) => {
    ctx.set(PUBLIC_PAGE_HEADERS);
    try {
      limit(perIp, clientAddressKey(ctx.ip));
      await next();
    } catch (error) {
      if (!(error instanceof AppError) || ctx.accepts('html', 'json') !== 'html') throw error;
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderRefusal(error.status, error.description);
    }
  };
}

// The token is the secret that reads the item: logs, traces and metrics show /s/<token> (platform/secret-paths.ts).
// Declared when the module loads, as a route path is: a process-wide redaction rule, not state of one app.
declareSecretSegment('/s', '<token>');

export function publicLinksRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/s', sensitive: true });

  const show: Middleware = async (ctx) => {
    const { params } = input(ctx.state, PublicLinksShowSchema);
    const link = await findPublicLink(services.db, params.token);
    if (!link) throw linkNotFound();
    limit(services.publicLinkLimits.perToken, link.uuid);
    const item = await findSharedItem(services.db, link, params.uuid);
    const urlOf = sharedItemUrls(services.settings.publicUrl, link);

    if (item.kind === 'folder') {
      const listing = await listSharedFolder(services.db, link, item, SHARED_FOLDER_LISTING_MAX);
      ctx.vary('Accept');
      if (ctx.accepts('html', 'json') === 'json') ctx.body = presentSharedFolder(listing, urlOf);
      else {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = renderSharedFolder(listing, urlOf);
      }
      return;
    }

    // HEAD answers the headers only: storage is not opened for a body nobody reads.
    const download = ctx.method === 'HEAD' ? undefined : await openDownloadOf(services.content, item);
    ctx.status = 200;
    // As stored: ctx.type would add a charset to text types that the file may not be in.
    ctx.set('Content-Type', item.content_type ?? 'application/octet-stream');
    ctx.set('Content-Disposition', sharedFileDisposition(item));
    ctx.set('Content-Security-Policy', PUBLIC_DOWNLOAD_CSP);
    if (!download) {
      ctx.length = Number(item.file_size_bytes);
      return;
    }
    const log = ctx.state.log;
    const { body, length } = presentSharedDownload(download, (error) =>
      log.error(
        { err: error, file_uuid: item.uuid },
        'public link download stopped: stored content failed to decrypt',
      ),
    );
    ctx.body = body;
    // After the body: Koa drops Content-Length when a stream is set, but the plaintext size is known.
    ctx.length = length;
  };

  router.get(
    '/:token',
    publicPage(services.publicLinkLimits.perIp),
    validate(PublicLinksShowSchema, publicLinkInput),
    show,
  );
  router.get(
    '/:token/:uuid',
    publicPage(services.publicLinkLimits.perIp),
    validate(PublicLinksShowSchema, publicLinkInput),
    show,
  );
  return router;
}
