// Bearer authentication and the per-route scope check. The decisions the spec leaves open are in README.md.
import type { Middleware } from 'koa';
import { hashSecret, resolveCredential, type Credential } from '../../domain/accounts/credentials.js';
import type { Scope } from '../../domain/accounts/scopes.js';
import type { Caller } from '../../domain/caller.js';
import { apiKeyRefused, insufficientScope, unauthenticated } from '../../domain/errors.js';
import type { ApiServices } from '../services.js';

export type UserCredential = Extract<Credential, { kind: 'user' }>;

declare module 'koa' {
  interface DefaultState {
    auth?: Credential;
  }
}

function bearerSecret(header: string): string | undefined {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Resolves the bearer credential for everything under /v1; unknown, expired or revoked → 401. Resolved credentials are
 * remembered briefly per process (credential-cache.ts); a revocation reaches every process before its next request.
 */
export function authenticate({ db, credentials }: Pick<ApiServices, 'db' | 'credentials'>): Middleware {
  return async (ctx, next) => {
    const secret = bearerSecret(ctx.get('Authorization'));
    if (!secret) throw unauthenticated();
    const hash = hashSecret(secret);
    const credential = await credentials.get(hash.toString('hex'), () => resolveCredential(db, secret, hash));
    if (!credential) throw unauthenticated('The access token is unknown, expired or revoked.');
    ctx.state.auth = credential;
    await next();
  };
}

/** The route's one scope. Files and documents belong to a person, so workspace API keys are refused. */
export function requireScope(scope: Scope): Middleware {
  return async (ctx, next) => {
    const credential = ctx.state.auth;
    if (!credential) throw unauthenticated();
    if (credential.kind !== 'user') throw apiKeyRefused();
    if (!credential.scopes.includes(scope)) throw insufficientScope(scope);
    await next();
  };
}

/** The caller of a route that passed requireScope. */
export function caller(state: { auth?: Credential }): UserCredential {
  const credential = state.auth;
  if (credential?.kind !== 'user') throw unauthenticated();
  return credential;
}

/** The person a Drive or Documents route acts for. */
export function callerOf(state: { auth?: Credential }): Caller {
  const { userUuid, workspaceUuid } = caller(state);
  return { userUuid, workspaceUuid };
}
