// Bounded input at the edge: the JSON depth check that runs on a body's text before it is parsed, and the NUL scan of
// validated input, both linear in their input whatever its nesting (issue 22, row 1).
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../../api/middleware/json-body.js';
import { firstNulPath } from '../../../api/middleware/validate.js';
import {
  JsonTooDeepError,
  MAX_JSON_DEPTH,
  MAX_JSON_MEMBERS,
  jsonBoundPassed,
  jsonDepthExceeds,
  parseBoundedJson,
} from '../../../domain/bounded-json.js';
import { AppError } from '../../../domain/errors.js';

const nestedArrays = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Milliseconds one call of `run` takes, the best of three (a busy machine only ever adds time). */
function timed(run: () => unknown): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('jsonDepthExceeds', () => {
  it('allows 64 levels of arrays, objects or both, and refuses 65', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonDepthExceeds(nestedArrays(64))).toBe(false);
    expect(jsonDepthExceeds(nestedArrays(65))).toBe(true);
    expect(jsonDepthExceeds(nestedObjects(64))).toBe(false);
    expect(jsonDepthExceeds(nestedObjects(65))).toBe(true);
    const mixed = (depth: number) => '[{"a":'.repeat(depth / 2) + 'null' + '}]'.repeat(depth / 2);
    expect(jsonDepthExceeds(mixed(64))).toBe(false);
    expect(jsonDepthExceeds(mixed(66))).toBe(true);
  });

  it('counts open levels, not brackets: siblings at one level never add up', () => {
    expect(jsonDepthExceeds(`[${Array(10_000).fill('[[1]]').join(',')}]`, 3)).toBe(false);
    expect(jsonDepthExceeds(`{"a":{},"b":{"c":[]}}`, 3)).toBe(false);
    expect(jsonDepthExceeds(`{"a":{},"b":{"c":[[]]}}`, 3)).toBe(true);
  });

  it('ignores brackets inside strings, across escaped quotes and runs of backslashes', () => {
    const brackets = '['.repeat(100);
    expect(jsonDepthExceeds(JSON.stringify({ a: brackets }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: `"${brackets}"` }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: `\\${brackets}\\\\"${brackets}` }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: '\\', b: [[1]] }), 2)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ a: '\\\\\\"', b: [1] }), 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: '\\\\\\"', b: [[1]] }), 2)).toBe(true);
  });

  it('agrees with the depth of what JSON.parse builds, on generated values', () => {
    const depthOf = (value: unknown): number =>
      value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    const strings = ['', '[', ']', '{"', '\\', '\\"', '"', 'a\\\\', '}]"[{'];
    let seed = 7;
    const random = (below: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % below;
    const generate = (budget: number): unknown => {
      const kind = random(budget > 0 ? 4 : 2);
      if (kind === 0) return strings[random(strings.length)]! + strings[random(strings.length)]!;
      if (kind === 1) return random(10);
      const children = Array.from({ length: random(4) }, () => generate(budget - 1));
      return kind === 2
        ? children
        : Object.fromEntries(children.map((child, index) => [strings[index % strings.length]!, child]));
    };
    for (let round = 0; round < 500; round++) {
      const value = generate(8);
      const text = JSON.stringify(value);
      const depth = depthOf(value);
      expect(jsonDepthExceeds(text, depth), text).toBe(false);
      if (depth > 0) expect(jsonDepthExceeds(text, depth - 1), text).toBe(true);
    }
  });

  it('reads 16 times the text in about 16 times the time, and 1,000,000 levels in milliseconds', () => {
    const small = nestedArrays(100_000);
    const large = nestedArrays(1_600_000);
    // Every level opens before the first one closes: without a bound the scan reads the whole text.
    const ratio =
      timed(() => jsonDepthExceeds(large, Infinity)) /
      Math.max(
        timed(() => jsonDepthExceeds(small, Infinity)),
        1,
      );
    expect(ratio).toBeLessThan(64);
    expect(timed(() => jsonDepthExceeds(nestedArrays(1_000_000)))).toBeLessThan(500);
    const escapes = JSON.stringify(['\\"'.repeat(1_000_000)]);
    expect(timed(() => jsonDepthExceeds(escapes))).toBeLessThan(2_000);
  });
});

describe('jsonBoundPassed', () => {
  const objectOf = (members: number) =>
    `{${Array.from({ length: members }, (_, index) => `"${index.toString(36)}":0`).join(',')}}`;

  it('allows an object of 1,000 members and refuses 1,001, at any level; arrays are not bounded', () => {
    expect(MAX_JSON_MEMBERS).toBe(1_000);
    expect(jsonBoundPassed(objectOf(1_000))).toBeUndefined();
    expect(jsonBoundPassed(objectOf(1_001))).toBe('members');
    expect(jsonBoundPassed(`{"a":[${objectOf(1_001)}]}`)).toBe('members');
    expect(jsonBoundPassed(`[${Array(100_000).fill('0').join(',')}]`)).toBeUndefined();
    // Members are counted per object: siblings and an enclosing array do not add up.
    expect(jsonBoundPassed(`[${Array(10).fill(objectOf(1_000)).join(',')}]`)).toBeUndefined();
    expect(jsonBoundPassed(`{"a":${objectOf(999)},"b":[1,2,3]}`)).toBeUndefined();
    expect(jsonBoundPassed(JSON.stringify({ text: ','.repeat(5_000) }))).toBeUndefined();
  });

  it('refuses 100,000 keys in milliseconds, before anything is parsed', () => {
    const wide = objectOf(100_000);
    expect(timed(() => jsonBoundPassed(wide))).toBeLessThan(200);
    expect(() => parseJsonBody(wide)).toThrow(
      expect.objectContaining({
        code: 'invalid_body',
        description: 'The request body has an object of more than 1000 members.',
      }),
    );
  });
});

describe('parseBoundedJson and parseJsonBody', () => {
  it('parses within the bound and refuses beyond it before parsing', () => {
    expect(parseBoundedJson('{"a":[1]}', 2)).toEqual({ a: [1] });
    expect(() => parseBoundedJson('{"a":[1]}', 1)).toThrow(JsonTooDeepError);
    expect(() => parseBoundedJson('{"a":', 2)).toThrow(SyntaxError);
  });

  it('answers a body nested past 64 levels with 400 invalid_body that says so, and 64 levels with the value', () => {
    const refusal = (() => {
      try {
        parseJsonBody(`{"name":"x","extra":${nestedArrays(65)}}`);
      } catch (error) {
        return error;
      }
    })() as AppError;
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.status).toBe(400);
    expect(refusal.code).toBe('invalid_body');
    expect(refusal.description).toBe('The request body nests arrays and objects deeper than 64 levels.');
    const within = `{"extra":${nestedArrays(63)}}`;
    expect(JSON.stringify(parseJsonBody(within))).toBe(within);
    expect(() => parseJsonBody(nestedArrays(100_000))).toThrow('deeper than 64 levels');
  });

  it('keeps the reading it had: an empty body is {}, the top level is an object or an array, "__proto__" keys are refused', () => {
    expect(parseJsonBody('')).toEqual({});
    expect(parseJsonBody(' [1]')).toEqual([1]);
    for (const text of [
      '"text"',
      '1',
      'null',
      '{"a":',
      '{"__proto__":{"admin":true}}',
      '{"a":{"\\u005f_proto__":1}}',
    ]) {
      expect(() => parseJsonBody(text), text).toThrow(
        expect.objectContaining({ code: 'invalid_body', description: 'The request body is not valid JSON.' }),
      );
    }
    expect(parseJsonBody('{"name":"__proto__"}')).toEqual({ name: '__proto__' });
  });
});

describe('firstNulPath', () => {
  const skipped = ['body', 'operations'];

  it('names the path of a string holding U+0000, however deep, and skips the markdown subtree', () => {
    expect(firstNulPath({ params: {}, query: {}, body: { name: 'a\u0000' } }, skipped)).toEqual([
      'body',
      'name',
    ]);
    expect(firstNulPath({ params: {}, query: { q: ['x', 'y\u0000'] }, body: {} }, skipped)).toEqual([
      'query',
      'q',
      '1',
    ]);
    expect(
      firstNulPath(
        { params: {}, query: {}, body: { name: 'fine', operations: [{ markdown: '\u0000' }] } },
        skipped,
      ),
    ).toBeUndefined();
    expect(firstNulPath({ params: {}, query: {}, body: { operations: '\u0000' } }, skipped)).toBeUndefined();
    expect(
      firstNulPath({ params: {}, query: {}, body: { extra: { operations: ['\u0000'] } } }, skipped),
    ).toEqual(['body', 'extra', 'operations', '0']);
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 1000; level++) deep = [deep];
    const path = firstNulPath({ params: {}, query: {}, body: { deep } }, skipped);
    expect(path).toEqual(['body', 'deep', ...Array(1000).fill('0')]);
  });

  it('scans 100,000 nested levels in linear time', () => {
    const nest = (depth: number, leaf: unknown) => {
      let value = leaf;
      for (let level = 0; level < depth; level++) value = [value];
      return { params: {}, query: {}, body: { deep: value } };
    };
    const clean = nest(100_000, 'x');
    // A quadratic scan (a path copied at every level) spends minutes here; a linear one milliseconds (the bound is for
    // a busy machine).
    expect(timed(() => firstNulPath(clean, skipped))).toBeLessThan(3_000);
    const small = nest(10_000, 'x\u0000');
    const large = nest(160_000, 'x\u0000');
    const ratio =
      timed(() => firstNulPath(large, skipped)) /
      Math.max(
        timed(() => firstNulPath(small, skipped)),
        2,
      );
    expect(ratio).toBeLessThan(64);
    expect(firstNulPath(large, skipped)).toHaveLength(160_002);
  });

  it('scans 100,000 keys and 100,000 array elements in linear time', () => {
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, 'v']));
    const elements = Array.from({ length: 100_000 }, () => 'v');
    expect(
      timed(() => firstNulPath({ params: {}, query: {}, body: { keys, elements } }, skipped)),
    ).toBeLessThan(3_000);
  });
});
