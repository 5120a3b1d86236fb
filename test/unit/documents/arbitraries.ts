// fast-check generators of Folio documents and markdown, shared by the property tests.
import fc from 'fast-check';
import { Node as PMNode } from 'prosemirror-model';
import type { NodeJSON } from '../../../domain/document-engine/state.js';
import { COLORS, schema } from '../../../domain/document-engine/schema.js';

/** Open suggestion threads the generated documents may carry, with their refs. */
export const SUGGESTIONS = [
  { id: 'sa', ref: 1 },
  { id: 'sb', ref: 2 },
];

// Characters chosen to hit every escape the writer knows about, plus plain text and non-ASCII.
const CHARS = [
  ...'abcxyz ABC 0123 ',
  ...'*_~`[]{}<>&#!-+=.()|\\:;\'"/?@$%^',
  '¶',
  'é',
  '中',
  '\u00a0',
  '\u2003',
  '\t',
  '\n',
];

export const textArb = fc
  .array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 12 })
  .map((chars) => chars.join(''));
const wordArb = fc
  .array(fc.constantFrom(...'abcdefghij'), { minLength: 1, maxLength: 6 })
  .map((chars) => chars.join(''));

// Titles hit the quote, the backslash, an entity and a line ending.
const titleArb = fc.constantFrom(null, 't', 'say "hi" & \\ bye', 'two\nlines', '&amp;');

const markArb = fc.oneof(
  fc.constant({ type: 'strong' }),
  fc.constant({ type: 'em' }),
  fc.constantFrom('strong', 'em').map((type) => ({ type, attrs: { depth: 2 } })),
  fc.constant({ type: 'strikethrough' }),
  fc.constant({ type: 'code' }),
  fc.constant({ type: 'underline' }),
  fc.constantFrom(...COLORS).map((color) => ({ type: 'text_color', attrs: { color } })),
  fc.constantFrom(...COLORS).map((color) => ({ type: 'highlight', attrs: { color } })),
  fc
    .record({
      href: fc.constantFrom(
        'https://example.com/a',
        'attachment:5b1e7c1e-0000-4000-8000-000000000001',
        'https://x.y/p(1)?q=a&b=c',
        '',
      ),
      title: titleArb,
    })
    .map((attrs) => ({ type: 'link', attrs })),
  fc.constantFrom('c1', 'c2').map((thread) => ({ type: 'comment', attrs: { thread } })),
  fc
    .constantFrom(...SUGGESTIONS.map((s) => s.id))
    .chain((thread) =>
      fc
        .constantFrom('suggest_insert', 'suggest_delete', 'suggest_format')
        .map((type) => ({ type, attrs: { thread } })),
    ),
);

const marksArb = fc.uniqueArray(markArb, { maxLength: 3, selector: (mark) => mark.type });

const inlineArb = (heading: boolean): fc.Arbitrary<NodeJSON[]> =>
  fc.array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .record({ text: textArb, marks: marksArb })
          .map(({ text, marks }) => ({ type: 'text', text, marks })),
      },
      {
        weight: heading ? 0 : 1,
        arbitrary: marksArb.map((marks) => ({
          type: 'hard_break',
          marks: marks.filter((m) => m.type !== 'code'),
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ alt: wordArb, title: titleArb })
          .map(({ alt, title }) => ({ type: 'image', attrs: { src: 'attachment:abc', alt, title } })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({
            href: fc.constantFrom('', 'https://e.x/(a)', 'javascript:alert(1)'),
            title: titleArb,
            marks: marksArb,
          })
          .map(({ href, title, marks }) => ({
            type: 'empty_link',
            attrs: { href, title },
            marks: marks.filter((m) => m.type !== 'link' && m.type !== 'code'),
          })),
      },
    ),
    { minLength: 1, maxLength: 6 },
  );

const blockMarkerArb = fc.option(
  fc.record({
    kind: fc.constantFrom('insert', 'delete', 'format'),
    thread: fc.constantFrom(...SUGGESTIONS.map((s) => s.id)),
  }),
  { freq: 4 },
);

const { block } = fc.letrec<{ block: NodeJSON }>((tie) => ({
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ content: inlineArb(false), suggestion: blockMarkerArb }).map(({ content, suggestion }) => ({
      type: 'paragraph',
      attrs: { suggestion },
      content,
    })),
    fc
      .record({ level: fc.integer({ min: 1, max: 6 }), content: inlineArb(true), suggestion: blockMarkerArb })
      .map(({ level, content, suggestion }) => ({
        type: 'heading',
        attrs: { level, suggestion },
        content,
      })),
    fc
      .record({
        text: fc.array(fc.constantFrom(...'ab `~\n\t{}*'), { maxLength: 12 }).map((chars) => chars.join('')),
        language: fc.constantFrom('', 'js', 'c++', 'föö', 'a\\b&amp;', ';'),
        suggestion: blockMarkerArb,
      })
      .map(({ text, language, suggestion }) => ({
        type: 'code_block',
        attrs: { language, suggestion },
        content: text ? [{ type: 'text', text }] : [],
      })),
    blockMarkerArb.map((suggestion) => ({ type: 'horizontal_rule', attrs: { suggestion } })),
    fc
      .array(tie('block'), { minLength: 1, maxLength: 3 })
      .map((content) => ({ type: 'blockquote', content })),
    // Written empty (`>` alone), or left empty by an edit (normalize drops that one).
    fc.boolean().map((written_empty) => ({ type: 'blockquote', attrs: { written_empty }, content: [] })),
    fc
      .record({
        ordered: fc.boolean(),
        order: fc.integer({ min: 0, max: 12 }),
        bullet: fc.constantFrom('-', '*', '+'),
        delimiter: fc.constantFrom('.', ')'),
        tight: fc.boolean(),
        items: fc.array(fc.array(tie('block'), { minLength: 0, maxLength: 2 }), {
          minLength: 1,
          maxLength: 3,
        }),
        writtenEmpty: fc.boolean(),
      })
      .map(({ ordered, order, bullet, delimiter, tight, items, writtenEmpty }) => ({
        type: ordered ? 'ordered_list' : 'bullet_list',
        attrs: ordered ? { order, delimiter, tight } : { bullet, tight },
        content: items.map((content) => ({
          type: 'list_item',
          attrs: { written_empty: content.length === 0 && writtenEmpty },
          content,
        })),
      })),
  ),
}));

/** Random documents, as ProseMirror nodes (not yet normalized). */
export const docArb: fc.Arbitrary<PMNode> = fc
  .array(block, { maxLength: 5 })
  .map((content) => PMNode.fromJSON(schema, { type: 'doc', content }));

// Pieces of markdown syntax, glued at random into documents that markdown-it (and our reader) must cope with.
const MARKDOWN_PIECES = [
  '# ',
  '## ',
  '###### ',
  '- ',
  '* ',
  '+ ',
  '1. ',
  '3) ',
  '> ',
  '    ',
  '```',
  '```js',
  '~~~',
  '---',
  '***',
  '___',
  '===',
  '**',
  '*',
  '_',
  '__',
  '~~',
  '`',
  '``',
  '[',
  ']',
  '(',
  ')',
  '](https://a.b)',
  '![i](attachment:x)',
  '<u>',
  '</u>',
  '<span data-color="red">',
  '</span>',
  '<mark data-color="teal">',
  '</mark>',
  '<br>',
  '\\',
  '\\*',
  '&amp;',
  '&#42;',
  '&nbsp;',
  ' "title")',
  "'t'",
  '[]',
  '-\n',
  '1)\n',
  '>\n',
  '- - ',
  '* ',
  '{',
  '}',
  '++',
  '--',
  '¶',
  'word',
  'two words',
  'é',
  ' ',
  '  ',
  '\n',
  '\n',
  '\n\n',
  '\t',
  '<https://auto.link>',
];

export const markdownArb: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...MARKDOWN_PIECES) },
      { weight: 1, arbitrary: textArb },
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(''));
