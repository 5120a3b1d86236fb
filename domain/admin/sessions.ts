// Who is signed in to the admin app: one-time sign-in links and the sessions they start (docs/admin-app.md).
// Only hashes of the link and session secrets are stored, so reading the database does not let anyone sign in.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { hashSecret } from '../accounts/credentials.js';
import { AppError } from '../errors.js';
import { isUuid } from '../uuid.js';

const SIGN_IN_LINK_PREFIX = 'folio_sl_';
const SESSION_PREFIX = 'folio_as_';

/** The link an admin opens: <admin url>/sign-in/<token>. */
export const signInUrl = (adminUrl: string, token: string) =>
  `${adminUrl.replace(/\/$/, '')}/sign-in/${token}`;

const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
// Ended sessions stay listable (`folio admin sessions list --all`) this long.
const KEEP_ENDED_SESSIONS_MS = 30 * 24 * 3_600_000;

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

export interface AdminSession {
  uuid: string;
  workspaceUuid: string;
  userUuid: string;
  csrfToken: string;
  email: string;
  workspaceName: string;
}

export type SessionEndReason = 'signed_out' | 'revoked' | 'expired';

const notAnAdmin = (who: string) =>
  new AppError(422, 'not_an_admin', `${who} is not an admin of any workspace.`);

/**
 * The workspace a sign-in link is for: the one given, or the only workspace the user administers. The user is
 * named by uuid or e-mail address.
 */
async function adminMembership(
  knex: Knex,
  user: string,
  workspaceUuid?: string,
): Promise<{ userUuid: string; workspaceUuid: string; email: string }> {
  const query = knex('workspace_members as m')
    .join('users as u', 'u.uuid', 'm.user_uuid')
    .where('m.admin', true)
    .select('m.user_uuid', 'm.workspace_uuid', 'u.email');
  if (isUuid(user)) query.where('u.uuid', user);
  else query.whereRaw('lower(u.email) = lower(?)', [user]);
  if (workspaceUuid !== undefined)
    query.where('m.workspace_uuid', isUuid(workspaceUuid) ? workspaceUuid : null);
  const rows = await query;
  if (!rows.length) throw notAnAdmin(user);
  if (rows.length > 1) {
    throw new AppError(
      422,
      'workspace_required',
      `${user} administers several workspaces; name one with --workspace.`,
      {
        workspaces: rows.map((row) => row.workspace_uuid),
      },
    );
  }
  return { userUuid: rows[0].user_uuid, workspaceUuid: rows[0].workspace_uuid, email: rows[0].email };
}

/**
 * A fresh one-time sign-in secret for a workspace admin, valid 15 minutes; the caller builds the link from it.
 * `maxRecent` bounds the links one admin may be sent per 15 minutes (the sign-in page's e-mail form is open to anyone).
 */
export async function createSignInLink(
  knex: Knex,
  input: { user: string; workspaceUuid?: string },
  now = new Date(),
  options: { maxRecent?: number } = {},
): Promise<{ token: string; expiresAt: Date; userUuid: string; workspaceUuid: string; email: string }> {
  const member = await adminMembership(knex, input.user, input.workspaceUuid);
  await forgetOldSignIns(knex, new Date(now.getTime() - KEEP_ENDED_SESSIONS_MS));
  if (options.maxRecent !== undefined) {
    const since = new Date(now.getTime() - SIGN_IN_LINK_TTL_MS);
    const recent = await knex('admin_sign_in_links')
      .where({ user_uuid: member.userUuid })
      .where('created_at', '>', since)
      .count({ n: '*' })
      .first();
    if (Number(recent!.n) >= options.maxRecent)
      throw new AppError(
        429,
        'too_many_links',
        'Too many sign-in links were sent recently; use the last one.',
      );
  }
  const token = SIGN_IN_LINK_PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);
  await knex('admin_sign_in_links').insert({
    token_hash: hashSecret(token),
    workspace_uuid: member.workspaceUuid,
    user_uuid: member.userUuid,
    expires_at: expiresAt,
  });
  return { token, expiresAt, ...member };
}

/** Who a sign-in link would sign in, while it is unused and unexpired (the confirmation page shows it). */
export async function peekSignInLink(
  knex: Knex,
  token: string,
): Promise<{ email: string; workspaceName: string } | undefined> {
  if (!token.startsWith(SIGN_IN_LINK_PREFIX)) return undefined;
  const row = await knex('admin_sign_in_links as l')
    .join('users as u', 'u.uuid', 'l.user_uuid')
    .join('workspaces as w', 'w.uuid', 'l.workspace_uuid')
    .where('l.token_hash', hashSecret(token))
    .whereNull('l.used_at')
    .where('l.expires_at', '>', knex.fn.now())
    .first('u.email', 'w.name');
  return row ? { email: row.email, workspaceName: row.name } : undefined;
}

/**
 * Uses a sign-in link once and starts a session. Undefined when the link is unknown, used, expired, or its user is no
 * longer an admin of the workspace. The UPDATE … WHERE used_at IS NULL makes a double submit start one session.
 */
export async function redeemSignInLink(
  knex: Knex,
  token: string,
  limits: SessionLimits,
  client: { userAgent?: string; ip?: string },
): Promise<{ sessionToken: string; session: AdminSession } | undefined> {
  if (!token.startsWith(SIGN_IN_LINK_PREFIX)) return undefined;
  return knex.transaction(async (tx) => {
    const [link] = await tx('admin_sign_in_links')
      .where({ token_hash: hashSecret(token) })
      .whereNull('used_at')
      .where('expires_at', '>', tx.fn.now())
      .update({ used_at: tx.fn.now() })
      .returning(['workspace_uuid', 'user_uuid']);
    if (!link) return undefined;
    const stillAdmin = await tx('workspace_members')
      .where({ workspace_uuid: link.workspace_uuid, user_uuid: link.user_uuid, admin: true })
      .first('user_uuid');
    if (!stillAdmin) return undefined;
    const sessionToken = SESSION_PREFIX + randomBytes(32).toString('base64url');
    const [row] = await tx('admin_sessions')
      .insert({
        token_hash: hashSecret(sessionToken),
        csrf_token: randomBytes(32).toString('base64url'),
        workspace_uuid: link.workspace_uuid,
        user_uuid: link.user_uuid,
        user_agent: client.userAgent?.slice(0, 500) ?? null,
        ip: client.ip ?? null,
        expires_at: tx.raw(`now() + (? * interval '1 millisecond')`, [limits.absoluteMs]),
      })
      .returning('uuid');
    const session = await sessionByUuid(tx, row.uuid);
    return { sessionToken, session: session! };
  });
}

async function sessionByUuid(knex: Knex, uuid: string): Promise<AdminSession | undefined> {
  const row = await knex('admin_sessions as s')
    .join('users as u', 'u.uuid', 's.user_uuid')
    .join('workspaces as w', 'w.uuid', 's.workspace_uuid')
    .where('s.uuid', uuid)
    .first('s.uuid', 's.workspace_uuid', 's.user_uuid', 's.csrf_token', 'u.email', 'w.name');
  return (
    row && {
      uuid: row.uuid,
      workspaceUuid: row.workspace_uuid,
      userUuid: row.user_uuid,
      csrfToken: row.csrf_token,
      email: row.email,
      workspaceName: row.name,
    }
  );
}

/**
 * The live session a cookie names, its idle clock restarted. A session past its idle or absolute end, or whose user
 * stopped being an admin of its workspace, ends here and answers undefined.
 */
export async function resumeSession(
  knex: Knex,
  sessionToken: string,
  limits: SessionLimits,
): Promise<AdminSession | undefined> {
  if (!sessionToken.startsWith(SESSION_PREFIX)) return undefined;
  const row = await knex('admin_sessions as s')
    .leftJoin('workspace_members as m', (join) =>
      join.on('m.workspace_uuid', 's.workspace_uuid').andOn('m.user_uuid', 's.user_uuid'),
    )
    .where('s.token_hash', hashSecret(sessionToken))
    .whereNull('s.ended_at')
    .first(
      's.uuid',
      'm.admin',
      knex.raw(
        "s.expires_at <= now() or s.last_seen_at + (? * interval '1 millisecond') <= now() as expired",
        [limits.idleMs],
      ),
    );
  if (!row) return undefined;
  if (row.expired || !row.admin) {
    await endSession(knex, row.uuid, row.expired ? 'expired' : 'revoked');
    return undefined;
  }
  await knex('admin_sessions').where({ uuid: row.uuid }).update({ last_seen_at: knex.fn.now() });
  return sessionByUuid(knex, row.uuid);
}

/** Ends a session (sign-out, revocation, expiry); true when it was live. */
export async function endSession(knex: Knex, uuid: string, reason: SessionEndReason): Promise<boolean> {
  if (!isUuid(uuid)) return false;
  const count = await knex('admin_sessions')
    .where({ uuid })
    .whereNull('ended_at')
    .update({ ended_at: knex.fn.now(), end_reason: reason });
  return count > 0;
}

/** Ends every live session of a user (in every workspace); returns how many. */
export async function endUserSessions(knex: Knex, userUuid: string): Promise<number> {
  if (!isUuid(userUuid)) return 0;
  return knex('admin_sessions')
    .where({ user_uuid: userUuid })
    .whereNull('ended_at')
    .update({ ended_at: knex.fn.now(), end_reason: 'revoked' });
}

export interface SessionListing {
  uuid: string;
  workspace_uuid: string;
  user_uuid: string;
  email: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  end_reason: string | null;
}

/** Sessions newest first, live ones only unless `all`; optionally of one user (uuid or e-mail). */
export async function listSessions(
  knex: Knex,
  filter: { user?: string; all?: boolean; limit?: number },
): Promise<SessionListing[]> {
  const query = knex('admin_sessions as s')
    .join('users as u', 'u.uuid', 's.user_uuid')
    .orderBy('s.created_at', 'desc')
    .limit(filter.limit ?? 100)
    .select(
      's.uuid',
      's.workspace_uuid',
      's.user_uuid',
      'u.email',
      's.user_agent',
      's.ip',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.ended_at',
      's.end_reason',
    );
  if (!filter.all) query.whereNull('s.ended_at').where('s.expires_at', '>', knex.fn.now());
  if (filter.user !== undefined) {
    if (isUuid(filter.user)) query.where('s.user_uuid', filter.user);
    else query.whereRaw('lower(u.email) = lower(?)', [filter.user]);
  }
  return query;
}

/** Constant-time check of a submitted CSRF token against the session's. */
export function csrfTokenMatches(session: Pick<AdminSession, 'csrfToken'>, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Removes links and sessions that ended (or could no longer be used) before the cutoff. Each new link does it, so the
 * tables stay as small as the admins' recent activity without a schedule of their own.
 */
async function forgetOldSignIns(knex: Knex, cutoff: Date): Promise<void> {
  await knex('admin_sign_in_links').where('expires_at', '<', cutoff).delete();
  await knex('admin_sessions')
    .where((q) => q.where('ended_at', '<', cutoff).orWhere('expires_at', '<', cutoff))
    .delete();
}
