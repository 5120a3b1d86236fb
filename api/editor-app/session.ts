// The editor app's gate (docs/editor.md): the session cookie scoped to the app's path, and the CSRF check of every
// write. The security headers and the same-origin test are the admin app's (api/middleware/browser-app.ts).
import type { Context, Middleware } from 'koa';
import type { Knex } from 'knex';
import { csrfTokenMatches } from '../../domain/admin/sessions.js';
import {
  resumeEditorSession,
  type EditorSession,
  type EditorSessionLimits,
} from '../../domain/accounts/editor-sessions.js';
import type { DocumentsDeps } from '../../domain/documents/deps.js';
import { fromSameOrigin } from '../middleware/browser-app.js';

declare module 'koa' {
  interface DefaultState {
    editorSession?: EditorSession;
  }
}

/** Everything the editor app uses, handed in by whoever mounts it: it reads no configuration and opens no connection. */
export interface EditorAppOptions {
  /** The app's public URL (FOLIO_DOCS_URL), for example https://folio.example.com/docs. */
  url: URL;
  /** The database every page reads and writes. */
  db: Knex;
  limits: EditorSessionLimits;
  /** What the Documents operations are handed (domain/documents/deps.ts): settings, parsed documents, attachments. */
  documents: DocumentsDeps;
}

export const basePath = (options: EditorAppOptions) => options.url.pathname.replace(/\/$/, '');
const isHttps = (options: EditorAppOptions) => options.url.protocol === 'https:';

/** The cookie's name: the __Secure- prefix makes browsers refuse it over plain HTTP. */
const cookieName = (options: EditorAppOptions) => (isHttps(options) ? '__Secure-folio_docs' : 'folio_docs');

function cookieAttributes(options: EditorAppOptions, maxAgeSeconds: number): string {
  // Path: the app's own, so the admin app and the API never receive it.
  const attributes = [
    `Path=${basePath(options) || '/'}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (isHttps(options)) attributes.push('Secure');
  return attributes.join('; ');
}

export function setSessionCookie(ctx: Context, options: EditorAppOptions, token: string): void {
  const maxAge = Math.floor(options.limits.absoluteMs / 1000);
  ctx.append('Set-Cookie', `${cookieName(options)}=${token}; ${cookieAttributes(options, maxAge)}`);
}

export function clearSessionCookie(ctx: Context, options: EditorAppOptions): void {
  ctx.append('Set-Cookie', `${cookieName(options)}=; ${cookieAttributes(options, 0)}`);
}

/** Reads the session cookie; a live session lands in ctx.state.editorSession. Never refuses by itself. */
export function loadSession(options: EditorAppOptions): Middleware {
  return async (ctx, next) => {
    const token = ctx.cookies.get(cookieName(options));
    if (token) ctx.state.editorSession = await resumeEditorSession(options.db, token, options.limits);
    if (token && !ctx.state.editorSession) clearSessionCookie(ctx, options);
    await next();
  };
}

/**
 * Every write (any method but GET and HEAD) must come from the app's own pages: same origin, and, once signed in, the
 * session's CSRF token in the X-CSRF-Token header (the page's scripts) or the _csrf field (its forms). A refusal is a
 * plain 403 and changes nothing.
 */
export function checkCsrf(options: EditorAppOptions): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      const session = ctx.state.editorSession;
      const submitted =
        ctx.get('X-CSRF-Token') || (ctx.request.body as Record<string, unknown> | undefined)?._csrf;
      if (!fromSameOrigin(ctx, options) || (session !== undefined && !csrfTokenMatches(session, submitted))) {
        ctx.status = 403;
        ctx.type = 'text/plain';
        ctx.body =
          'This change did not come from the editor app, or its page expired. Reload the page and try again.';
        return;
      }
    }
    await next();
  };
}
