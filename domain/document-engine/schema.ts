// The ProseMirror schema of a Folio document: the blocks and marks the markdown conventions can express, plus anchors.
import { Schema, type Mark, type MarkType, type Node as PMNode } from 'prosemirror-model';

/** The nine colors the markdown conventions allow for text color and highlight; any other is dropped. */
export const COLORS = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type Color = (typeof COLORS)[number];
export const isColor = (value: unknown): value is Color =>
  typeof value === 'string' && (COLORS as readonly string[]).includes(value);

export type SuggestionKind = 'insert' | 'delete' | 'format';

/**
 * A block-level suggestion, written `{++¶++}`, `{--¶--}` or `{==¶==}` at the start of the block:
 * insert — the block is new (rejecting it dissolves the block); delete — the block goes (accepting it dissolves the
 * block); format — the block's type changes (the new type is on the thread).
 */
export interface BlockSuggestion {
  kind: SuggestionKind;
  thread: string;
}

const suggestionAttr = { suggestion: { default: null as BlockSuggestion | null } };

// Marks that live on inline content other than code. Code text only ever carries comment anchors, because
// nothing else can be written inside a fenced block.
const inlineMarks =
  'suggest_insert suggest_delete suggest_format comment link underline text_color highlight strong em strikethrough';

export const schema = new Schema({
  nodes: {
    doc: { content: 'block*' },
    paragraph: { group: 'block', content: 'inline*', attrs: { ...suggestionAttr } },
    heading: {
      group: 'block',
      content: 'inline*',
      attrs: { level: { default: 1 }, ...suggestionAttr },
      defining: true,
    },
    // A quote or item written empty (`>` or `-` alone) is kept, with written_empty set; one that an edit leaves
    // empty goes (normalize.ts), as a paragraph left empty does.
    blockquote: {
      group: 'block',
      content: 'block*',
      attrs: { written_empty: { default: false } },
      defining: true,
    },
    // bullet and delimiter are the characters the list was written with (two lists side by side differ in them);
    // tight is CommonMark's tight list (items' paragraphs render without <p>), false for a loose one.
    bullet_list: {
      group: 'block',
      content: 'list_item+',
      attrs: { bullet: { default: '-' }, tight: { default: true } },
    },
    ordered_list: {
      group: 'block',
      content: 'list_item+',
      attrs: { order: { default: 1 }, delimiter: { default: '.' }, tight: { default: true } },
    },
    // block+ rather than "paragraph block*": CommonMark lets an item open with a list, heading or fence.
    list_item: { content: 'block*', attrs: { written_empty: { default: false } }, defining: true },
    code_block: {
      group: 'block',
      content: 'text*',
      marks: 'comment',
      code: true,
      attrs: { language: { default: '' }, ...suggestionAttr },
    },
    horizontal_rule: { group: 'block', attrs: { ...suggestionAttr } },
    text: { group: 'inline' },
    hard_break: { group: 'inline', inline: true, marks: inlineMarks },
    image: {
      group: 'inline',
      inline: true,
      marks: inlineMarks,
      attrs: { src: {}, alt: { default: '' }, title: { default: null } },
    },
    // A link with no text, `[](href)`: a mark needs text to sit on, so it is a leaf of its own.
    empty_link: {
      group: 'inline',
      inline: true,
      marks: inlineMarks.replace(' link', ''),
      attrs: { href: {}, title: { default: null } },
    },
  },
  // Order is nesting rank: earlier marks wrap later ones when both open at the same place.
  marks: {
    suggest_insert: { attrs: { thread: {} }, inclusive: false },
    suggest_delete: { attrs: { thread: {} }, inclusive: false },
    suggest_format: { attrs: { thread: {} }, inclusive: false },
    // Comments may overlap one another, so the type does not exclude itself.
    comment: { attrs: { thread: {} }, excludes: '', inclusive: false },
    link: { attrs: { href: {}, title: { default: null } }, inclusive: false },
    underline: {},
    text_color: { attrs: { color: {} } },
    highlight: { attrs: { color: {} } },
    // depth counts emphasis of the same kind nested inside itself (`*(*foo*)*`): 1 outermost. Marks of one kind
    // with different depths sit on the same text, so the type does not exclude itself.
    strong: { attrs: { depth: { default: 1 } }, excludes: '' },
    em: { attrs: { depth: { default: 1 } }, excludes: '' },
    strikethrough: {},
    code: {},
  },
});

export const nodes = schema.nodes;
export const marks = schema.marks;

/** Marks that anchor a thread rather than format text. */
const anchorMarkTypes: readonly MarkType[] = [
  marks.comment,
  marks.suggest_insert,
  marks.suggest_delete,
  marks.suggest_format,
];
const suggestionMarkTypes: readonly MarkType[] = [
  marks.suggest_insert,
  marks.suggest_delete,
  marks.suggest_format,
];

export const isAnchorMark = (mark: Mark) => anchorMarkTypes.includes(mark.type);
export const isSuggestionMark = (mark: Mark) => suggestionMarkTypes.includes(mark.type);

export const suggestionMarkType = (kind: SuggestionKind): MarkType =>
  kind === 'insert' ? marks.suggest_insert : kind === 'delete' ? marks.suggest_delete : marks.suggest_format;

/** Blocks that hold inline text and so can carry CriticMarkup inside them. */
export const isInlineTextblock = (node: PMNode) =>
  node.type === nodes.paragraph || node.type === nodes.heading;

export const blockSuggestion = (node: PMNode): BlockSuggestion | null =>
  (node.attrs.suggestion as BlockSuggestion | null | undefined) ?? null;
