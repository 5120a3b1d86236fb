// The `trashed` key of a file or folder update: `trashed: true` through an update also needs the drive.delete scope.
import type { Middleware } from 'koa';
import { requireScope } from './auth.js';

const needsDelete = requireScope('drive.delete');

/** Runs after the body is parsed and before it is validated, as the scope check of the trash routes does. */
export function requireDeleteScopeToTrash(): Middleware {
  return (ctx, next) =>
    (ctx.request.body as { trashed?: unknown } | undefined)?.trashed === true
      ? needsDelete(ctx, next)
      : next();
}
