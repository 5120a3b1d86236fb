// The admin app's gate: security headers on every answer, the session cookie, and the CSRF check of every POST.
import type { Context, Middleware } from 'koa';
import {
  csrfTokenMatches,
  resumeSession,
  type AdminSession,
  type SessionLimits,
} from '../../domain/admin/sessions.js';
import type { Knex } from 'knex';
import type { DestinationDeps } from '../../domain/webhooks/destinations.js';
import type { RunInTransaction } from '../../domain/unit-of-work.js';
import type { OutgoingMail } from '../../platform/mail-out.js';
import { fromSameOrigin } from '../middleware/browser-app.js';
import type { PageContext } from './views/layout.js';

declare module 'koa' {
  interface DefaultState {
    adminSession?: AdminSession;
  }
}

/**
 * Everything the admin app uses, handed to it by whoever mounts it (api/app.ts): it reads no configuration and opens
 * no connection of its own, so a test can mount it on any database and settings.
 */
export interface AdminAppSettings {
  /** The admin app's public URL, for example https://folio.example.com/admin. */
  url: URL;
  limits: SessionLimits;
  /** The database every page reads and writes. */
  db: Knex;
  /** Opens a transaction whose workflow starts go out after commit (test events, resends). */
  runInTransaction: RunInTransaction;
  /** Sends a sign-in link; absent when no outgoing mail is configured, and the sign-in page then offers none. */
  sendMail?: (mail: OutgoingMail) => Promise<void>;
  /**
   * What destinations are checked and their secrets wrapped with, how long a rotated secret keeps signing, and the
   * retry schedule's waits (FOLIO_WEBHOOK_RETRY_DELAYS), which set how many attempts a delivery makes.
   */
  webhooks: DestinationDeps & { secretOverlapMs: number; retryDelaysMs: readonly number[] };
}

export const basePath = (settings: AdminAppSettings) => settings.url.pathname.replace(/\/$/, '');
const isHttps = (settings: AdminAppSettings) => settings.url.protocol === 'https:';

/** The cookie's name: the __Secure- prefix makes browsers refuse it over plain HTTP. */
const sessionCookieName = (settings: AdminAppSettings) =>
  isHttps(settings) ? '__Secure-folio_admin' : 'folio_admin';

// Shared with the editor app (docs/editor.md).
export { securityHeaders } from '../middleware/browser-app.js';

export function setSessionCookie(ctx: Context, settings: AdminAppSettings, token: string): void {
  const attributes = [
    `Path=${basePath(settings) || '/'}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.floor(settings.limits.absoluteMs / 1000)}`,
  ];
  if (isHttps(settings)) attributes.push('Secure');
  ctx.append('Set-Cookie', `${sessionCookieName(settings)}=${token}; ${attributes.join('; ')}`);
}

export function clearSessionCookie(ctx: Context, settings: AdminAppSettings): void {
  const attributes = [`Path=${basePath(settings) || '/'}`, 'HttpOnly', 'SameSite=Lax', 'Max-Age=0'];
  if (isHttps(settings)) attributes.push('Secure');
  ctx.append('Set-Cookie', `${sessionCookieName(settings)}=; ${attributes.join('; ')}`);
}

/** Reads the session cookie; a live session lands in ctx.state.adminSession. Never refuses by itself. */
export function loadSession(settings: AdminAppSettings): Middleware {
  return async (ctx, next) => {
    const token = ctx.cookies.get(sessionCookieName(settings));
    if (token) ctx.state.adminSession = await resumeSession(settings.db, token, settings.limits);
    await next();
  };
}

/** Pages for signed-in admins: anyone else is sent to the sign-in page (and learns nothing else). */
export function requireSession(settings: AdminAppSettings): Middleware {
  return async (ctx, next) => {
    if (!ctx.state.adminSession) {
      if (ctx.cookies.get(sessionCookieName(settings))) clearSessionCookie(ctx, settings);
      ctx.status = 303;
      ctx.redirect(`${basePath(settings)}/sign-in`);
      return;
    }
    await next();
  };
}

/**
 * Every POST must come from the app's own pages: the browser's Sec-Fetch-Site (or, from a browser that sends none, its
 * Origin) says same origin, and, once signed in, the form carries the session's CSRF token. A refusal is a plain 403
 * and changes nothing.
 */
export function checkCsrf(settings: AdminAppSettings): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST') {
      const fromApp = fromSameOrigin(ctx, settings);
      const session = ctx.state.adminSession;
      const submitted = (ctx.request.body as Record<string, unknown> | undefined)?._csrf;
      if (!fromApp || (session !== undefined && !csrfTokenMatches(session, submitted))) {
        ctx.status = 403;
        ctx.type = 'text/plain';
        ctx.body =
          'This form expired or did not come from the admin app. Go back, reload the page and try again.';
        return;
      }
    }
    await next();
  };
}

export function pageContext(ctx: Context, settings: AdminAppSettings): PageContext {
  const session = ctx.state.adminSession;
  return {
    base: basePath(settings),
    session: session && {
      email: session.email,
      workspaceName: session.workspaceName,
      csrfToken: session.csrfToken,
    },
  };
}
