// The CommonMark spec's own examples, each set as a document and read back: the markdown Folio returns must render
// (with the reference implementation, commonmark.js) to the same HTML as the markdown that went in. Exceptions are
// listed by example number with their reason (docs/documents-model.md § "What the model normalises"); a listed
// example that starts to pass fails the table too, so the lists only ever shrink.
import { HtmlRenderer, Parser } from 'commonmark';
import { tests as examples, type SpecExample } from 'commonmark-spec';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { renderMarkdown, stateFromMarkdown } from '../../../domain/document-engine/state.js';

/** Sections about raw HTML: Folio markdown reads only the convention's tags, so these are not in the table. */
const RAW_HTML_SECTIONS = new Set(['HTML blocks', 'Raw HTML']);

/**
 * Examples in other sections that hold raw HTML (as the reference implementation reads them). They are not counted
 * in the figure, like the raw-HTML sections: Folio refuses HTML other than its convention tags with
 * invalid_markdown. Each is checked to be refused, or read as the reason says.
 */
const RAW_HTML: Record<number, string> = {
  21: 'refused: <a> is not a convention tag',
  31: 'refused: <a> is not a convention tag',
  201: 'refused: <bar> is not a convention tag',
  308: 'refused: an HTML comment',
  309: 'refused: an HTML comment',
  344: 'refused: <a> is not a convention tag',
  475: 'refused: <img> is not a convention tag',
  476: 'refused: <a> is not a convention tag',
  477: 'refused: <a> is not a convention tag',
  491: 'refused: <foo> is not a convention tag',
  494: 'read: <b> is the convention tag for bold, so the unclosed <b> reads as bold to the end of the paragraph',
  524: 'refused: <bar> is not a convention tag',
  536: 'refused: <bar> is not a convention tag',
  642: 'refused: <a> is not a convention tag',
  643: 'refused: <a> is not a convention tag',
};

/** Examples that do not render the same, and why. */
const EXCEPTIONS: Record<number, string> = {
  79: 'empty headings go: an edit that empties a heading removes it, and an empty heading is not kept from markdown either',
};

/**
 * Examples whose HTML differs only in whitespace, which the spec's own test runner does not count: outside <pre>,
 * a run of whitespace is one space and whitespace around block tags does not count. They must render the same in
 * that sense, and not byte for byte (so a newly exact one is taken off the list).
 */
const WHITESPACE_ONLY: Record<number, string> = {
  39: 'two line endings from character references (&#10;&#10;) are one soft line break: a blank line would end the paragraph',
  40: "a tab from &#9; at the start of a paragraph goes, as whitespace at a block's edges does",
  81: 'a line ending in a heading is a space: a heading is written ATX, on one line',
  82: 'a line ending in a heading is a space: a heading is written ATX, on one line',
  95: 'a line ending in a heading is a space: a heading is written ATX, on one line',
  196: 'line endings in a link title are spaces',
};

const reader = new Parser();
const renderer = new HtmlRenderer();

const BLOCK_TAGS = 'blockquote|h[1-6]|hr|li|ol|p|pre|ul';
const SPACE = '[ \\t\\n\\r\\f]';
const AROUND_BLOCK_TAG = new RegExp(`${SPACE}*(</?(?:${BLOCK_TAGS})(?:\\s[^>]*)?/?>)${SPACE}*`, 'g');

const render = (markdown: string) => renderer.render(reader.parse(markdown));

/**
 * HTML compared as the spec's own test runner compares it: outside <pre>, a run of whitespace is one space and
 * whitespace around block tags does not count.
 */
function loose(html: string): string {
  return html
    .split(/(<pre>[\s\S]*?<\/pre>)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(new RegExp(`${SPACE}+`, 'g'), ' ').replace(AROUND_BLOCK_TAG, '$1'),
    )
    .join('')
    .replace(new RegExp(`^${SPACE}+|${SPACE}+$`, 'g'), '');
}

function holdsRawHtml(markdown: string): boolean {
  const walker = reader.parse(markdown).walker();
  for (let event = walker.next(); event; event = walker.next()) {
    if (event.node.type === 'html_inline' || event.node.type === 'html_block') return true;
  }
  return false;
}

type Outcome =
  | { kind: 'same' }
  | { kind: 'whitespace'; back: string; want: string; got: string }
  | { kind: 'different'; back: string; want: string; got: string }
  | { kind: 'refused'; code: string };

function roundTrip(example: SpecExample): Outcome {
  let back: string;
  try {
    back = renderMarkdown(stateFromMarkdown(example.markdown));
  } catch (error) {
    if (error instanceof AppError) return { kind: 'refused', code: error.code };
    throw error;
  }
  const want = render(example.markdown);
  const got = render(back);
  if (want === got) return { kind: 'same' };
  return { kind: loose(want) === loose(got) ? 'whitespace' : 'different', back, want, got };
}

const inScope = examples.filter((example) => !RAW_HTML_SECTIONS.has(example.section));
const table = inScope.filter((example) => !(example.number in RAW_HTML));
const outcomes = new Map(inScope.map((example) => [example.number, roundTrip(example)]));
const count = (...kinds: string[]) =>
  table.filter((example) => kinds.includes(outcomes.get(example.number)!.kind)).length;
const percent = (n: number) => `${((100 * n) / table.length).toFixed(1)}%`;
const exact = count('same');
const same = count('same', 'whitespace');
const figure = `${same} of ${table.length} (${percent(same)}) outside raw HTML render the same, ${exact} (${percent(exact)}) byte for byte`;

describe(`CommonMark ${examples.length} spec examples after a round trip: ${figure}`, () => {
  it('holds at least 98% of the examples outside raw HTML', () => {
    expect(same / table.length).toBeGreaterThanOrEqual(0.98);
  });

  it('lists exactly the examples that hold raw HTML outside the raw-HTML sections', () => {
    const withHtml = inScope
      .filter((example) => holdsRawHtml(example.markdown))
      .map((example) => example.number);
    expect(withHtml).toEqual(Object.keys(RAW_HTML).map(Number));
  });

  it.each(table.map((example) => [example.number, example.section, example] as const))(
    'example %i (%s)',
    (number, _section, example) => {
      const outcome = outcomes.get(number)!;
      if (EXCEPTIONS[number]) {
        expect(outcome.kind, `example ${number} now renders the same: take it off EXCEPTIONS`).toBe(
          'different',
        );
      } else if (WHITESPACE_ONLY[number]) {
        expect(
          outcome,
          `example ${number} now renders byte for byte the same: take it off WHITESPACE_ONLY`,
        ).toMatchObject({ kind: 'whitespace' });
      } else {
        expect(outcome, JSON.stringify(example.markdown)).toEqual({ kind: 'same' });
      }
    },
  );

  it.each(Object.entries(RAW_HTML).map(([number, reason]) => [Number(number), reason] as const))(
    'raw HTML example %i: %s',
    (number, reason) => {
      const outcome = outcomes.get(number)!;
      if (reason.startsWith('refused'))
        expect(outcome).toEqual({ kind: 'refused', code: 'invalid_markdown' });
      else expect(outcome.kind).not.toBe('refused');
    },
  );
});
