// The gate of the webhook admin API: a user token (API keys are refused by requireScope) of a workspace admin.
import type { Middleware } from 'koa';
import { isWorkspaceAdmin } from '../../domain/accounts/admins.js';
import { adminRequired } from '../../domain/webhooks/errors.js';
import type { ApiServices } from '../services.js';
import { callerOf } from './auth.js';

export function requireWorkspaceAdmin({ db }: Pick<ApiServices, 'db'>): Middleware {
  return async (ctx, next) => {
    if (!(await isWorkspaceAdmin(db, callerOf(ctx.state)))) throw adminRequired();
    await next();
  };
}
