// The linear CriticMarkup reader reads every input as the scanning one before it did (critic-markup-reference.ts).
import fc from 'fast-check';
import MarkdownItConstructor from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { criticMarkupPlugin } from '../../../domain/document-engine/critic-markup.js';
import { referenceCriticMarkupPlugin } from './critic-markup-reference.js';

const linear = new MarkdownItConstructor('commonmark', { html: true })
  .enable('strikethrough')
  .use(criticMarkupPlugin);
const reference = new MarkdownItConstructor('commonmark', { html: true })
  .enable('strikethrough')
  .use(referenceCriticMarkupPlugin);

// Pieces that make markers, escapes, code spans, notes and links, so random sources hit every path of the walks.
const PIECES = [
  '{++',
  '++}',
  '{--',
  '--}',
  '{==',
  '==}',
  '{~~',
  '~~}',
  '~>',
  '{>>',
  '<<}',
  's1',
  '¶',
  '`',
  '``',
  '\\',
  '[',
  ']',
  '(u)',
  '*',
  'a',
  ' ',
  '+',
  '-',
  '~',
  '=',
  '{',
  '}',
  '>',
  '\n',
];
const sourceArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

const tokens = (md: typeof linear, src: string) => JSON.stringify(md.parse(src, {}));

describe('the linear CriticMarkup reader', () => {
  it('reads random marker soup as the scanning reader did', () => {
    fc.assert(
      fc.property(sourceArb, (src) => {
        expect(tokens(linear, src)).toBe(tokens(reference, src));
      }),
      { numRuns: 10_000 },
    );
  }, 120_000);

  it.each([
    ['nested spans', '{++a {--b--} c++}{>>s1<<}'],
    ['a replacement with a nested span', '{~~a {++b++} ~> c~~}{>>s2<<}'],
    ['a closer inside a code span', '{++a `++}` b++}'],
    ['an escaped closer', '{++a \\++} b++}'],
    ['a closer of another kind', '{++a --} b++}'],
    ['a note inside a span', '{++a {>>x<<} b++}{>>s3<<}'],
    ['a span inside link text', '[{++a++}{>>s1<<}](u) {++b'],
    ['unclosed openers', '{++{--{=={~~ x'],
  ])('reads %s as the scanning reader did', (_name, src) => {
    expect(tokens(linear, src)).toBe(tokens(reference, src));
  });
});
