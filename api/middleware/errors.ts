// Turns any thrown error into the spec's body: Drive {error, ...}, Documents {error, error_description, ...}.
import type { Context, Middleware } from 'koa';
import { constraintError } from './constraint-errors.js';
import { AppError, internalError, invalidBody, bodyTooLarge } from '../../domain/errors.js';

function errorBody(path: string, error: AppError): Record<string, unknown> {
  if (path.startsWith('/v1/drive')) return { error: error.code, ...error.extras };
  return { error: error.code, error_description: error.description, ...error.extras };
}

/** Errors thrown by Koa's own parsers carry an HTTP status; map those we expect, hide the rest. */
function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const fromDatabase = constraintError(error);
  if (fromDatabase) return fromDatabase;
  const status = (error as { status?: number; type?: string })?.status;
  if (status === 413) return bodyTooLarge();
  if (status === 400 || status === 415 || status === 422)
    return invalidBody('The request body is not valid JSON.');
  return undefined;
}

export function errorMapping(): Middleware {
  return async (ctx: Context, next) => {
    try {
      await next();
    } catch (error) {
      const appError = toAppError(error);
      if (appError) {
        ctx.status = appError.status;
        ctx.set(appError.headers);
        ctx.body = errorBody(ctx.path, appError);
        return;
      }
      ctx.state.log.error({ err: error }, 'unhandled error');
      const failure = internalError();
      ctx.status = failure.status;
      ctx.body = errorBody(ctx.path, failure);
    }
  };
}
