// What the API adds to answers because of how they travel: HSTS over HTTPS, and `Connection: close` while shutting down.
import { Stream } from 'node:stream';
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

/**
 * An object answer is serialised here, once, into the bytes sent. Left to Koa, its JSON text would be measured for
 * Content-Length by Koa, measured again by Node's HTTP layer and encoded on write: three passes over the text, which for
 * a first-sync page of 1,000 items (≈ 500 KB) cost more than the JSON.stringify itself. Content-Type stays the JSON type
 * Koa set when the object was assigned. Outside the error mapping, so error answers are encoded here too.
 */
export function jsonAnswersAsBytes(): Middleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || body instanceof Stream) return;
    ctx.body = Buffer.from(JSON.stringify(body));
  };
}
