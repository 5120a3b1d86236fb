// Who is signed in to the document editor app (docs/editor.md): one-time sign-in links for any user and the sessions
// they start. The admin app's sign-in (domain/admin/sessions.ts) is the model; these are per user, not per workspace
// admin, since the document's own roles decide what a person may do. Only hashes of the secrets are stored.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashSecret } from './credentials.js';
import { AppError } from '../errors.js';
import { isUuid } from '../uuid.js';

const SIGN_IN_LINK_PREFIX = 'folio_el_';
const SESSION_PREFIX = 'folio_es_';
const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
const KEEP_ENDED_SESSIONS_MS = 30 * 24 * 3_600_000;

/** The shape of a sign-in link's secret, checked before any lookup. */
const EDITOR_LINK_TOKEN = /^folio_el_[A-Za-z0-9_-]{43}$/;

export interface EditorSessionLimits {
  idleMs: number;
  absoluteMs: number;
}

export interface EditorSession {
  uuid: string;
  userUuid: string;
  email: string;
  csrfToken: string;
  earlyAccess: boolean;
}

/** The link a person opens: <docs url>/sign-in/<token>, optionally going on to one document. */
export const editorSignInUrl = (docsUrl: string, token: string, documentUuid?: string) =>
  `${docsUrl.replace(/\/$/, '')}/sign-in/${token}${documentUuid ? `?next=${documentUuid}` : ''}`;

/** A fresh one-time sign-in secret for a user (uuid or e-mail), valid 15 minutes. */
export async function createEditorSignInLink(
  knex: Knex,
  user: string,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date; userUuid: string; email: string }> {
  const query = knex('users');
  if (isUuid(user)) query.where('uuid', user);
  else query.whereRaw('lower(email) = lower(?)', [user]);
  const row = await query.first('uuid', 'email');
  if (!row) throw new AppError(404, 'user_not_found', `No user ${user}.`);
  const cutoff = new Date(now.getTime() - KEEP_ENDED_SESSIONS_MS);
  await knex('editor_sign_in_links').where('expires_at', '<', cutoff).delete();
  await knex('editor_sessions')
    .where((q) => q.where('ended_at', '<', cutoff).orWhere('expires_at', '<', cutoff))
    .delete();
  const token = SIGN_IN_LINK_PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);
  await knex('editor_sign_in_links').insert({
    token_hash: hashSecret(token),
    user_uuid: row.uuid,
    expires_at: expiresAt,
  });
  return { token, expiresAt, userUuid: row.uuid, email: row.email };
}

/** Who a sign-in link would sign in, while it is unused and unexpired (the confirmation page shows it). */
export async function peekEditorSignInLink(
  knex: Knex,
  token: string,
): Promise<{ email: string } | undefined> {
  if (!EDITOR_LINK_TOKEN.test(token)) return undefined;
  return knex('editor_sign_in_links as l')
    .join('users as u', 'u.uuid', 'l.user_uuid')
    .where('l.token_hash', hashSecret(token))
    .whereNull('l.used_at')
    .where('l.expires_at', '>', knex.fn.now())
    .first('u.email');
}

/** Uses a sign-in link once and starts a session; undefined when the link is unknown, used or expired. */
export async function redeemEditorSignInLink(
  knex: Knex,
  token: string,
  limits: EditorSessionLimits,
): Promise<string | undefined> {
  if (!EDITOR_LINK_TOKEN.test(token)) return undefined;
  return knex.transaction(async (tx) => {
    // UPDATE … WHERE used_at IS NULL: a double submit starts one session.
    const [link] = await tx('editor_sign_in_links')
      .where({ token_hash: hashSecret(token) })
      .whereNull('used_at')
      .where('expires_at', '>', tx.fn.now())
      .update({ used_at: tx.fn.now() })
      .returning(['user_uuid']);
    if (!link) return undefined;
    const sessionToken = SESSION_PREFIX + randomBytes(32).toString('base64url');
    await tx('editor_sessions').insert({
      token_hash: hashSecret(sessionToken),
      csrf_token: randomBytes(32).toString('base64url'),
      user_uuid: link.user_uuid,
      expires_at: tx.raw(`now() + (? * interval '1 millisecond')`, [limits.absoluteMs]),
    });
    return sessionToken;
  });
}

/** The live session a cookie names, its idle clock restarted; undefined (and ended) past its idle or absolute end. */
export async function resumeEditorSession(
  knex: Knex,
  sessionToken: string,
  limits: EditorSessionLimits,
): Promise<EditorSession | undefined> {
  if (!sessionToken.startsWith(SESSION_PREFIX)) return undefined;
  const row = await knex('editor_sessions as s')
    .join('users as u', 'u.uuid', 's.user_uuid')
    .where('s.token_hash', hashSecret(sessionToken))
    .whereNull('s.ended_at')
    .first(
      's.uuid',
      's.user_uuid',
      's.csrf_token',
      'u.email',
      'u.early_access',
      knex.raw(
        "s.expires_at <= now() or s.last_seen_at + (? * interval '1 millisecond') <= now() as expired",
        [limits.idleMs],
      ),
    );
  if (!row) return undefined;
  if (row.expired) {
    await endEditorSession(knex, row.uuid);
    return undefined;
  }
  await knex('editor_sessions').where({ uuid: row.uuid }).update({ last_seen_at: knex.fn.now() });
  return {
    uuid: row.uuid,
    userUuid: row.user_uuid,
    email: row.email,
    csrfToken: row.csrf_token,
    earlyAccess: row.early_access,
  };
}

/** Ends a session (sign-out or expiry). */
export async function endEditorSession(knex: Knex, uuid: string): Promise<void> {
  if (!isUuid(uuid)) return;
  await knex('editor_sessions').where({ uuid }).whereNull('ended_at').update({ ended_at: knex.fn.now() });
}
