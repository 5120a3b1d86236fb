// Property tests: the writer's caches (per block, by content, units built on demand) change nothing it returns.
import fc from 'fast-check';
import { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import type { TextUnit, WriteContext } from '../../../domain/document-engine/markdown-units.js';
import { rememberSources } from '../../../domain/document-engine/markdown-write-cache.js';
import { serializeDoc } from '../../../domain/document-engine/markdown-writer.js';
import { normalizeDoc } from '../../../domain/document-engine/normalize.js';
import { schema } from '../../../domain/document-engine/schema.js';
import { docArb, SUGGESTIONS } from './arbitraries.js';

const refs = new Map(SUGGESTIONS.map((s) => [s.ref, s.id]));
const refOf = (id: string) => SUGGESTIONS.find((s) => s.id === id)?.ref ?? null;
const uncached: WriteContext = { refOf, suggestionRefs: refs };
const cached: WriteContext = {
  refOf,
  suggestionRefs: refs,
  signature: SUGGESTIONS.map((s) => `${s.id}:${s.ref}`)
    .sort()
    .join(','),
};
const RUNS = Math.ceil(Number(process.env.FOLIO_PROPERTY_RUNS ?? 2000) / 4);
const TIMEOUT = 60_000 + RUNS * 20;
const open = new Set(SUGGESTIONS.map((s) => s.id));

/** The markdown span → document range mapping over the whole list of units, as a binary search over it. */
function referenceRange(units: TextUnit[], start: number, end: number): { from: number; to: number } | null {
  let lo = 0;
  let hi = units.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (units[mid]!.mdEnd <= start) lo = mid + 1;
    else hi = mid;
  }
  const first = units[lo];
  if (!first || first.md >= end) return null;
  let last: TextUnit = first;
  for (let i = lo; i < units.length && units[i]!.md < end; i++) last = units[i]!;
  return { from: first.from, to: last.to };
}

describe('writer caches', () => {
  it(
    'write the same markdown and map the same spans as writing afresh',
    () => {
      fc.assert(
        fc.property(docArb, fc.array(fc.tuple(fc.nat(), fc.nat(40)), { maxLength: 30 }), (raw, spans) => {
          const doc = normalizeDoc(raw, open);
          const fresh = serializeDoc(doc, uncached);
          const first = serializeDoc(doc, cached);
          const again = serializeDoc(doc, cached);
          // The same blocks read again from stored JSON: new nodes, found by their content.
          const json = JSON.parse(JSON.stringify(doc.toJSON())) as { content?: unknown[] };
          const copy = PMNode.fromJSON(schema, json);
          rememberSources(copy, json.content);
          const reread = serializeDoc(copy, cached);
          for (const serialized of [first, again, reread]) expect(serialized.markdown).toBe(fresh.markdown);
          const length = fresh.markdown.length;
          for (const [at, size] of spans) {
            const start = length === 0 ? 0 : at % (length + 1);
            const end = Math.min(length, start + size);
            const expected = referenceRange(fresh.units, start, end);
            for (const serialized of [fresh, first, again, reread])
              expect(serialized.rangeOf(start, end)).toEqual(expected);
          }
          for (const serialized of [first, again, reread]) expect(serialized.units).toEqual(fresh.units);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
