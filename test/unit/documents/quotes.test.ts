// The linear before/after check of quote matching answers as the direct one does, for every position.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextIndex, fitsAfter, fitsBefore } from '../../../domain/document-engine/quotes.js';

const textArb = (maxLength: number) =>
  fc.array(fc.constantFrom('a', 'b', ' ', '\n', '\u00a0'), { maxLength }).map((chars) => chars.join(''));
const contextArb = fc.option(
  textArb(6).filter((text) => text !== ''),
  { nil: undefined },
);

describe('the before/after index', () => {
  it('answers as the direct check at every position', () => {
    fc.assert(
      fc.property(textArb(300), contextArb, contextArb, (haystack, before, after) => {
        const index = new ContextIndex(haystack, before, after);
        for (let i = 0; i <= haystack.length; i++) {
          expect(index.fitsBefore(i)).toBe(fitsBefore(haystack, i, before));
          expect(index.fitsAfter(i)).toBe(fitsAfter(haystack, i, after));
        }
      }),
      { numRuns: 3_000 },
    );
  }, 120_000);

  it('forgives whitespace beyond the window only as the direct check does', () => {
    const haystack = `ab${' '.repeat(250)}X${' '.repeat(250)}ab`;
    const start = haystack.indexOf('X');
    const index = new ContextIndex(haystack, 'ab ', ' ab');
    expect(index.fitsBefore(start)).toBe(fitsBefore(haystack, start, 'ab '));
    expect(index.fitsAfter(start + 1)).toBe(fitsAfter(haystack, start + 1, ' ab'));
  });
});
