// Access tokens and workspace API keys: issued once in clear, stored only as a SHA-256 hash, revocable.
import { hash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Scope } from './scopes.js';

// The prefixes tell a token from a key before any lookup, and make a leaked secret easy to grep for.
const ACCESS_TOKEN_PREFIX = 'folio_at_';
const API_KEY_PREFIX = 'folio_ak_';

function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

// Lookups go by hash, so a timing difference can reveal nothing about a stored secret.
export function hashSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

export interface IssuedToken {
  access_token: string;
  expires_at: string;
}

export async function issueAccessToken(
  knex: Knex,
  input: { workspaceUuid: string; userUuid: string; scopes: Scope[]; expiresInMs: number },
): Promise<IssuedToken> {
  const member = await knex('workspace_members')
    .where({ workspace_uuid: input.workspaceUuid, user_uuid: input.userUuid })
    .first();
  if (!member) throw new Error(`User ${input.userUuid} is not a member of workspace ${input.workspaceUuid}`);
  const token = newSecret(ACCESS_TOKEN_PREFIX);
  const expiresAt = new Date(Date.now() + input.expiresInMs);
  await knex('access_tokens').insert({
    token_hash: hashSecret(token),
    workspace_uuid: input.workspaceUuid,
    user_uuid: input.userUuid,
    scopes: input.scopes,
    expires_at: expiresAt,
  });
  return { access_token: token, expires_at: expiresAt.toISOString() };
}

/**
 * How long an API process may serve a credential it resolved without looking again (api/middleware/credential-cache.ts):
 * long enough that a busy client hits it, short enough that a revoker never waits longer than this for every process.
 */
export const CREDENTIAL_CACHE_TTL_MS = 5_000;

/**
 * Revokes a token; true when a live token was found. Revoking twice is harmless. Returns once every API process has
 * heard of it (`everyApiProcessHeard`: platform/process-session.ts, waiting at most the cache's TTL), so the token's
 * next request is refused wherever it goes.
 */
export async function revokeAccessToken(
  knex: Knex,
  token: string,
  everyApiProcessHeard: (knex: Knex, timeoutMs: number) => Promise<void>,
): Promise<boolean> {
  const count = await knex('access_tokens')
    .where({ token_hash: hashSecret(token) })
    .whereNull('revoked_at')
    .update({ revoked_at: knex.fn.now() });
  if (count > 0) await everyApiProcessHeard(knex, CREDENTIAL_CACHE_TTL_MS);
  return count > 0;
}

export async function issueApiKey(knex: Knex, workspaceUuid: string): Promise<{ api_key: string }> {
  const key = newSecret(API_KEY_PREFIX);
  await knex('api_keys').insert({ key_hash: hashSecret(key), workspace_uuid: workspaceUuid });
  return { api_key: key };
}

export type Credential =
  | {
      kind: 'user';
      tokenUuid: string;
      workspaceUuid: string;
      userUuid: string;
      scopes: Scope[];
      expiresAt: Date;
    }
  | { kind: 'api_key'; workspaceUuid: string };

/** What a bearer secret stands for, or undefined when it is unknown, expired or revoked. `hash` is hashSecret(secret). */
export async function resolveCredential(
  knex: Knex,
  secret: string,
  hash = hashSecret(secret),
): Promise<Credential | undefined> {
  if (secret.startsWith(ACCESS_TOKEN_PREFIX)) {
    const row = await knex('access_tokens')
      .where({ token_hash: hash })
      .whereNull('revoked_at')
      .where('expires_at', '>', knex.fn.now())
      .first();
    if (!row) return undefined;
    return {
      kind: 'user',
      tokenUuid: row.uuid,
      workspaceUuid: row.workspace_uuid,
      userUuid: row.user_uuid,
      scopes: row.scopes,
      expiresAt: new Date(row.expires_at),
    };
  }
  if (secret.startsWith(API_KEY_PREFIX)) {
    const row = await knex('api_keys').where({ key_hash: hash }).whereNull('revoked_at').first();
    return row ? { kind: 'api_key', workspaceUuid: row.workspace_uuid } : undefined;
  }
  return undefined;
}

/** Removes tokens that expired or were revoked before the cutoff; returns how many went. */
export async function deleteDeadAccessTokens(knex: Knex, cutoff: Date): Promise<number> {
  return knex('access_tokens')
    .where((q) => q.where('expires_at', '<', cutoff).orWhere('revoked_at', '<', cutoff))
    .delete();
}
