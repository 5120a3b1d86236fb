// A document the caller cannot see answers 404 before anything about the request's body is checked, so a body
// error never tells a stranger that the document exists (docs/documents-api.md § Authentication and errors).
import type { Middleware } from 'koa';
import { findVisibleDocument } from '../../domain/documents/documents.js';
import { isUuid } from '../../domain/uuid.js';
import type { ApiServices } from '../services.js';
import { callerOf } from './auth.js';

/**
 * Looks the path's document up for the caller (404 not_found when invisible) before jsonBody and validate. A
 * malformed uuid is left to validate (422 invalid_uuid). The domain function looks it up again, with its lock and
 * role: this step only decides the order of the answers.
 */
export function documentVisible({ db, documents }: Pick<ApiServices, 'db' | 'documents'>): Middleware {
  return async (ctx, next) => {
    const uuid = (ctx.params as Record<string, string> | undefined)?.uuid;
    if (isUuid(uuid)) await findVisibleDocument(db, documents, callerOf(ctx.state), uuid);
    await next();
  };
}
