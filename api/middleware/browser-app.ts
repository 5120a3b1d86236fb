// What the API's browser apps share (the admin app, docs/admin-app.md; the editor app, docs/editor.md): the security
// headers of every answer under their path, and the same-origin test of their writes. Moved here from
// api/admin-app/session.ts so the editor app uses the same code.
import type { Context, Middleware } from 'koa';

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

export function securityHeaders(settings: { url: URL }): Middleware {
  return async (ctx, next) => {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Sign-in links carry their secret in the path: no page of the app tells another site where it came from.
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (settings.url.protocol === 'https:') ctx.set('Strict-Transport-Security', 'max-age=31536000');
    await next();
  };
}

/**
 * Whether a write comes from the app's own pages: the browser's Sec-Fetch-Site (or, from a browser that sends none,
 * its Origin) says same origin.
 */
export function fromSameOrigin(ctx: Context, settings: { url: URL }): boolean {
  const fetchSite = ctx.get('Sec-Fetch-Site');
  if (fetchSite) return fetchSite === 'same-origin';
  const origin = ctx.get('Origin');
  if (origin === '') return true;
  try {
    return new URL(origin).origin === settings.url.origin;
  } catch {
    return false;
  }
}
