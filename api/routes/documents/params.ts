// Shared pieces of the Documents routers: the caller, path uuid checks (422 invalid_uuid) and body reading.
import type { Middleware } from 'koa';
import { invalidBody } from '../../../domain/errors.js';
import { isUuid, type DocumentCaller } from '../../../domain/documents/documents.js';
import { invalidUuid } from '../../../domain/documents/errors.js';
import { caller } from '../../middleware/auth.js';

export const documentCaller = (state: Parameters<typeof caller>[0]): DocumentCaller => {
  const { userUuid, workspaceUuid } = caller(state);
  return { userUuid, workspaceUuid };
};

const PARAM_NAMES: Record<string, string> = { uuid: 'document uuid', attachment: 'attachment uuid', thread: 'thread uuid', message: 'message uuid' };

/** Refuses a malformed path uuid with 422 invalid_uuid, after the scope check and before any lookup. */
export function checkPathUuids(): Middleware {
  return (ctx, next) => {
    for (const [name, value] of Object.entries(ctx.params ?? {})) {
      if (PARAM_NAMES[name] && !isUuid(value)) throw invalidUuid(PARAM_NAMES[name]!);
    }
    return next();
  };
}

/** The JSON body as an object ({} when absent); anything else is 400 invalid_body. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidBody('The body must be a JSON object.');
  return body as Record<string, unknown>;
}
