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
 * An object answer is serialised here, once, into the bytes sent (jsonBytes). Left to Koa, its JSON text would be
 * measured for Content-Length by Koa, measured again by Node's HTTP layer and encoded on write. Content-Type stays the
 * JSON type Koa set when the object was assigned. Outside the error mapping, so error answers are encoded here too.
 */
export function jsonAnswersAsBytes(): Middleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || body instanceof Stream) return;
    ctx.body = jsonBytes(body);
  };
}

/** An array of at least this many elements, at the top of an answer or in a field of its top object, is cut in chunks. */
const CHUNKED_FROM = 32;
/** About how long each chunk's text is: well under V8's largest young object (128 KB), far above one element's. */
const CHUNK_CHARACTERS = 32 * 1024;

/**
 * The bytes of `Buffer.from(JSON.stringify(value))`, without ever making the whole text one string. A string longer than
 * 128 KB is allocated by V8 outside its young generation, in fresh memory; a first-sync page of 1,000 items (≈ 590 KB)
 * took 5.9 ms to stringify and encode that way in the API, and 2.4 ms cut in chunks (docs/benchmarks.md § 2026-11-28
 * (session 22)). So a long array, at the top or in a field of the top object (a list's items), is stringified a chunk of
 * elements at a time, each chunk sized from the one before to about CHUNK_CHARACTERS; each text is measured and
 * written into the one buffer. Everything else is JSON.stringify's own text; an object with toJSON is left to it whole.
 */
export function jsonBytes(value: object): Buffer {
  const pieces: string[] = [];
  if (Array.isArray(value)) pushArray(value, pieces);
  else if (!hasLongArrayField(value)) return Buffer.from(JSON.stringify(value));
  else {
    let separator = '{';
    for (const [key, field] of Object.entries(value)) {
      if (Array.isArray(field) && field.length >= CHUNKED_FROM) {
        pieces.push(`${separator}${JSON.stringify(key)}:`);
        pushArray(field, pieces);
      } else {
        // What JSON.stringify leaves out of an object (undefined, a function) it answers undefined for.
        const text = JSON.stringify(field) as string | undefined;
        if (text === undefined) continue;
        pieces.push(`${separator}${JSON.stringify(key)}:${text}`);
      }
      separator = ',';
    }
    pieces.push('}');
  }
  const lengths = pieces.map((piece) => Buffer.byteLength(piece));
  const bytes = Buffer.allocUnsafe(lengths.reduce((total, length) => total + length, 0));
  let offset = 0;
  pieces.forEach((piece, index) => (offset += bytes.write(piece, offset, lengths[index]!)));
  return bytes;
}

const hasLongArrayField = (value: object) =>
  typeof (value as { toJSON?: unknown }).toJSON !== 'function' &&
  Object.values(value).some((field) => Array.isArray(field) && field.length >= CHUNKED_FROM);

/**
 * An array's text, a chunk of elements at a time: each chunk is stringified as an array of its own (so an element
 * JSON.stringify writes as null stays null) and its brackets cut off, the separating comma a piece of its own.
 */
function pushArray(array: unknown[], pieces: string[]): void {
  if (!array.length) {
    pieces.push('[]');
    return;
  }
  let step = 1;
  for (let start = 0; start < array.length;) {
    const taken = Math.min(step, array.length - start);
    const text = JSON.stringify(array.slice(start, start + taken));
    if (start === 0) pieces.push(text.slice(0, -1));
    else pieces.push(',', text.slice(1, -1));
    start += taken;
    step = Math.max(1, Math.floor((CHUNK_CHARACTERS * taken) / text.length));
  }
  pieces.push(']');
}
