// What the API adds to answers because of how they travel: HSTS over HTTPS, and `Connection: close` while shutting down.
import type { Middleware } from 'koa';
import type { Draining } from '../shutdown.js';

/** One year, the value browsers' preload lists ask for; subdomains are the operator's to vouch for, so not included. */
const HSTS = 'max-age=31536000';

/**
 * HTTPS answers carry Strict-Transport-Security: served over TLS by the API itself, or (FOLIO_TRUST_PROXY) reported as
 * https by a trusted proxy in X-Forwarded-Proto. Set before the rest runs, so error answers carry it too.
 */
export function strictTransportSecurity(): Middleware {
  return async (ctx, next) => {
    if (ctx.protocol === 'https') ctx.set('Strict-Transport-Security', HSTS);
    await next();
  };
}

/**
 * While the process drains (api/server.ts), an HTTP/1.1 answer closes its connection, so a keep-alive client opens its
 * next one to another process. HTTP/2 has no such header: its sessions get a GOAWAY instead (api/listener.ts).
 */
export function closeConnectionWhileDraining(draining: Draining): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (draining.active && ctx.req.httpVersionMajor === 1) ctx.set('Connection', 'close');
    }
  };
}
