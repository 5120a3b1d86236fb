// The admin app's gate: security headers on every answer, the session cookie, and the CSRF check of every POST.
import type { Context, Middleware } from 'koa';
import {
  csrfTokenMatches,
  resumeSession,
  type AdminSession,
  type SessionLimits,
} from '../../domain/admin/sessions.js';
import { db } from '../../platform/database.js';
import type { PageContext } from './views/layout.js';

declare module 'koa' {
  interface DefaultState {
    adminSession?: AdminSession;
  }
}

export interface AdminAppSettings {
  /** The admin app's public URL, for example https://folio.example.com/admin. */
  url: URL;
  limits: SessionLimits;
  /** Whether the sign-in page may e-mail links (outgoing SMTP is configured). */
  emailEnabled: boolean;
}

export const basePath = (settings: AdminAppSettings) => settings.url.pathname.replace(/\/$/, '');
const isHttps = (settings: AdminAppSettings) => settings.url.protocol === 'https:';

/** The cookie's name: the __Secure- prefix makes browsers refuse it over plain HTTP. */
const sessionCookieName = (settings: AdminAppSettings) =>
  isHttps(settings) ? '__Secure-folio_admin' : 'folio_admin';

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function securityHeaders(settings: AdminAppSettings): Middleware {
  return async (ctx, next) => {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Sign-in links carry their secret in the path: no page of the app tells another site where it came from.
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (isHttps(settings)) ctx.set('Strict-Transport-Security', 'max-age=31536000');
    await next();
  };
}

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
    if (token) ctx.state.adminSession = await resumeSession(db(), token, settings.limits);
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

const sameOrigin = (value: string, settings: AdminAppSettings) => {
  try {
    return new URL(value).origin === settings.url.origin;
  } catch {
    return false;
  }
};

/**
 * Every POST must come from the app's own pages: the browser's Sec-Fetch-Site (or, from a browser that sends none, its
 * Origin) says same origin, and, once signed in, the form carries the session's CSRF token. A refusal is a plain 403
 * and changes nothing.
 */
export function checkCsrf(settings: AdminAppSettings): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST') {
      const fetchSite = ctx.get('Sec-Fetch-Site');
      const origin = ctx.get('Origin');
      const fromApp = fetchSite ? fetchSite === 'same-origin' : origin === '' || sameOrigin(origin, settings);
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
