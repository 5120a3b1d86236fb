// The one reader of a raw request body with a cap (the simple upload's JSON, an attachment's bytes); JSON bodies of
// other routes go through api/middleware/json-body.ts.
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { AppError } from '../../domain/errors.js';

interface BoundedBody {
  /** The declared Content-Length, if any: a larger one is refused before a byte is read. */
  length: number | undefined;
  limit: number;
  /** The refusal of a body past `limit` (413 with the route's code). */
  tooLarge: () => AppError;
}

/**
 * Reads the body, refusing it with `tooLarge()` as soon as it passes the cap. The rest of a refused body is read
 * and dropped, never buffered, so the client reads its 413 instead of a reset while it still sends; the server's
 * request timeout (FOLIO_HTTP_REQUEST_TIMEOUT) bounds how long that may take.
 */
export async function readBoundedBody(
  ctx: Context,
  body: BoundedBody & { encoding: 'utf8' },
): Promise<string>;
export async function readBoundedBody(ctx: Context, body: BoundedBody): Promise<Buffer>;
export async function readBoundedBody(
  ctx: Context,
  { length, limit, tooLarge, encoding }: BoundedBody & { encoding?: 'utf8' },
): Promise<string | Buffer> {
  try {
    return encoding
      ? await getRawBody(ctx.req, { length, limit, encoding })
      : await getRawBody(ctx.req, { length, limit });
  } catch (error) {
    if ((error as { type?: string }).type !== 'entity.too.large') throw error;
    ctx.req.resume();
    throw tooLarge();
  }
}
