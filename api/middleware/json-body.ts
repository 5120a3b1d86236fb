// Parses a JSON body with a per-route size limit; malformed JSON is 400 invalid_body, too large is 413.
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

export function jsonBody(limit = '1mb'): Middleware {
  return bodyParser({ enableTypes: ['json'], jsonLimit: limit, encoding: 'utf-8', jsonStrict: true });
}
