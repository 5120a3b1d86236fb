// Property tests: whatever the engine stores, its markdown reads back as the same document.
import fc from 'fast-check';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { parseMarkdown } from '../../../domain/document-engine/markdown.js';
import type { WriteContext } from '../../../domain/document-engine/markdown-units.js';
import { serializeDoc } from '../../../domain/document-engine/markdown-writer.js';
import { normalizeDoc } from '../../../domain/document-engine/normalize.js';
import { marks } from '../../../domain/document-engine/schema.js';
import { docArb, markdownArb, SUGGESTIONS } from './arbitraries.js';

const refs = new Map(SUGGESTIONS.map((s) => [s.ref, s.id]));
const ctx: WriteContext = {
  refOf: (id) => SUGGESTIONS.find((s) => s.id === id)?.ref ?? null,
  suggestionRefs: refs,
};
// FOLIO_PROPERTY_RUNS raises the number of runs for a deeper search than the default suite does.
const RUNS = Number(process.env.FOLIO_PROPERTY_RUNS ?? 2000);
const TIMEOUT = 60_000 + RUNS * 5;
const open = new Set(SUGGESTIONS.map((s) => s.id));

function withoutComments(doc: PMNode): PMNode {
  return doc.type.schema.nodeFromJSON(
    JSON.parse(
      JSON.stringify(doc.toJSON(), (key, value) =>
        key === 'marks' && Array.isArray(value)
          ? value.filter((mark: { type: string }) => mark.type !== marks.comment.name)
          : value,
      ),
    ),
  );
}

describe('markdown round trip', () => {
  it(
    'reads any stored document back from its markdown unchanged (comments aside)',
    () => {
      fc.assert(
        fc.property(docArb, (raw) => {
          const doc = normalizeDoc(raw, open);
          const markdown = serializeDoc(doc, ctx).markdown;
          const back = parseMarkdown(markdown, { suggestionRefs: refs });
          expect(back.toJSON(), markdown).toEqual(withoutComments(doc).toJSON());
          expect(serializeDoc(back, ctx).markdown).toBe(markdown);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'parse → serialize → parse is stable for arbitrary markdown',
    () => {
      fc.assert(
        fc.property(markdownArb, (markdown) => {
          let first: PMNode;
          try {
            first = parseMarkdown(markdown);
          } catch (error) {
            if (error instanceof AppError && error.code === 'invalid_markdown') return;
            throw error;
          }
          const written = serializeDoc(first, ctx).markdown;
          const second = parseMarkdown(written);
          expect(second.toJSON(), written).toEqual(first.toJSON());
          expect(serializeDoc(second, ctx).markdown).toBe(written);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
