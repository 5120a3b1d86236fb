// Reads a JSON body within a per-route size limit and parses it only within MAX_JSON_DEPTH and MAX_JSON_MEMBERS:
// malformed, too deep or too wide is 400 invalid_body, too large is 413.
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import {
  JsonTooDeepError,
  MAX_JSON_DEPTH,
  MAX_JSON_MEMBERS,
  parseBoundedJson,
} from '../../domain/bounded-json.js';
import { invalidBody } from '../../domain/errors.js';

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

/** The media types read as JSON: @koa/bodyparser's JSON list, which these routes took before. */
const JSON_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/reports+json',
  'application/scim+json',
];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** co-body's strict mode, kept: a JSON body is an object or an array. */
const STARTS_AS_OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/** A "__proto__" key, escaped or not (@hapi/bourne's test, which co-body applied to these bodies). */
const PROTO_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

const refuseProtoKey = (key: string, value: unknown) => {
  if (key === '__proto__') throw new SyntaxError('a "__proto__" key');
  return value;
};

/** The parsed body of `text`; every refusal is 400 invalid_body, as a malformed body always was. */
export function parseJsonBody(text: string): unknown {
  if (!text) return {};
  if (!STARTS_AS_OBJECT_OR_ARRAY.test(text)) throw invalidBody('The request body is not valid JSON.');
  return parseJsonValue(text, MAX_JSON_DEPTH);
}

/**
 * Any JSON value within `maxDepth` levels and the members bound, "__proto__" keys refused: a whole body, or one member
 * of a body read in pieces (api/input/streamed-json-object.ts). Every refusal is 400 invalid_body.
 */
export function parseJsonValue(text: string, maxDepth: number): unknown {
  try {
    // The reviver only runs for a body that may hold a "__proto__" key, and only once the depth is known to be bounded.
    return parseBoundedJson(text, maxDepth, PROTO_KEY.test(text) ? refuseProtoKey : undefined);
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw invalidBody(
        error.bound === 'depth'
          ? `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`
          : `The request body has an object of more than ${MAX_JSON_MEMBERS} members.`,
      );
    }
    throw invalidBody('The request body is not valid JSON.');
  }
}

/**
 * @koa/bodyparser reads the text (inflating it, and refusing it with 413 as soon as it passes `limit` while it
 * arrives); the depth is checked on that text before JSON.parse or anything else walks it. A body of another media
 * type is read as {} and a method without a body is left alone, as the JSON parser did.
 */
export function jsonBody(limit = '1mb'): Middleware {
  const readText = bodyParser({
    enableTypes: ['text'],
    extendTypes: { text: JSON_TYPES },
    textLimit: limit,
    encoding: 'utf-8',
  });
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method) || ctx.request.body !== undefined) return next();
    // By the Content-Type alone, as @koa/bodyparser decides: ctx.request.is() also wants a Content-Length or
    // Transfer-Encoding, which an HTTP/2 request need not carry.
    if (!JSON_TYPES.includes(ctx.request.type)) {
      ctx.request.body = {};
      return next();
    }
    return readText(ctx, async () => {
      if (typeof ctx.request.body === 'string') ctx.request.body = parseJsonBody(ctx.request.body);
      await next();
    });
  };
}
