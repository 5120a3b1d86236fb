// JSON from a request, parsed only when its nesting and width are within bounds: a linear scan of the text runs first.

/**
 * The deepest nesting of arrays and objects a request may carry (docs/fuzzing.md § Bounded input). No field of the
 * API nests more than a few levels; the bound keeps every later walk over the parsed value (validation, the NUL scan,
 * logging, zod) short whatever a client sends.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The most members one object may have. Request objects have fixed fields, a few dozen at most; V8 builds an object
 * of 100,000 keys in a slow dictionary form (about 0.1 s to parse and as much to walk on a quiet machine, seconds on a
 * busy one), so a wide object is refused from the text too. Arrays are not bounded here: their length is the
 * route's concern (parts, uuids) and they parse fast.
 */
export const MAX_JSON_MEMBERS = 1_000;

/** Thrown by parseBoundedJson for text past its bounds; JSON.parse's own SyntaxError for malformed text. */
export class JsonTooDeepError extends SyntaxError {
  constructor(
    readonly bound: 'depth' | 'members',
    readonly limit: number,
  ) {
    super(
      bound === 'depth'
        ? `JSON nests deeper than ${limit} levels of arrays and objects.`
        : `A JSON object has more than ${limit} members.`,
    );
    this.name = 'JsonTooDeepError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Which bound `text` passes, if any: more than `maxDepth` arrays and objects open at once, or an object with more
 * than `maxMembers` members (commas at its level), brackets and commas inside strings aside. One pass over the text
 * with two arrays of `maxDepth` entries: a string is skipped with indexOf to its closing quote (one preceded by an
 * even run of backslashes), and each run of backslashes is read once. Text that is not JSON gets some answer;
 * JSON.parse refuses it afterwards.
 */
export function jsonBoundPassed(
  text: string,
  maxDepth: number = MAX_JSON_DEPTH,
  maxMembers: number = MAX_JSON_MEMBERS,
): 'depth' | 'members' | undefined {
  const isObject = new Uint8Array(Math.min(maxDepth, text.length) + 1);
  const commas = new Uint32Array(isObject.length);
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > maxDepth) return 'depth';
      isObject[depth] = code === OPEN_OBJECT ? 1 : 0;
      commas[depth] = 0;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      if (depth > 0) depth--;
    } else if (code === COMMA) {
      if (isObject[depth] && (commas[depth] = commas[depth]! + 1) >= maxMembers) return 'members';
    } else if (code === QUOTE) {
      const open = index;
      for (;;) {
        const close = text.indexOf('"', index + 1);
        if (close < 0) return undefined; // An unterminated string: not JSON.
        let backslash = close - 1;
        while (backslash > open && text.charCodeAt(backslash) === BACKSLASH) backslash--;
        index = close;
        if ((close - 1 - backslash) % 2 === 0) break;
      }
    }
  }
  return undefined;
}

/** Whether `text` nests more than `maxDepth` arrays and objects at once (members not bounded). */
export const jsonDepthExceeds = (text: string, maxDepth: number = MAX_JSON_DEPTH): boolean =>
  jsonBoundPassed(text, maxDepth, Infinity) === 'depth';

/** JSON.parse, after refusing text past `maxDepth` or MAX_JSON_MEMBERS with JsonTooDeepError. */
export function parseBoundedJson(
  text: string,
  maxDepth: number = MAX_JSON_DEPTH,
  reviver?: (key: string, value: unknown) => unknown,
): unknown {
  const passed = jsonBoundPassed(text, maxDepth);
  if (passed) throw new JsonTooDeepError(passed, passed === 'depth' ? maxDepth : MAX_JSON_MEMBERS);
  return JSON.parse(text, reviver);
}
