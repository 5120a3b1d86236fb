// Edits over document ranges shared by the operations and by accepting or rejecting suggestions.
import type { Mark, Node as PMNode } from 'prosemirror-model';
import type { Transform } from 'prosemirror-transform';
import { blockSuggestion, isAnchorMark, marks, nodes } from './schema.js';

/** A text block a range touches, and the part of its content inside the range. */
export interface CoveredBlock {
  node: PMNode;
  /** Position before the block. */
  pos: number;
  /** The covered part of its content. */
  from: number;
  to: number;
  /** The range covers all of its content. */
  whole: boolean;
}

/** Text blocks and leaf blocks (rules) a range touches, in document order. */
export function blocksInRange(doc: PMNode, from: number, to: number): CoveredBlock[] {
  const blocks: CoveredBlock[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (node.isTextblock) {
      const start = pos + 1;
      const end = pos + 1 + node.content.size;
      const a = Math.max(from, start);
      const b = Math.min(to, end);
      if (a < b || (a === b && node.content.size === 0))
        blocks.push({ node, pos, from: a, to: b, whole: a === start && b === end });
      return false;
    }
    if (node.isLeaf && node.isBlock) {
      if (pos >= from && pos + 1 <= to) blocks.push({ node, pos, from: pos, to: pos + 1, whole: true });
      return false;
    }
    return true;
  });
  return blocks;
}

/** The marks every inline node of a range has. */
export function marksAcross(doc: PMNode, from: number, to: number): readonly Mark[] {
  let common: readonly Mark[] | null = null;
  doc.nodesBetween(from, to, (node) => {
    if (!node.isInline) return true;
    common = common === null ? node.marks : common.filter((mark) => mark.isInSet(node.marks));
    return false;
  });
  return common ?? [];
}

/**
 * The anchors text put in a range's place carries. A comment that surrounds the range covers the new text too, but
 * one that ends at the range does not spread onto it. Text that replaces a suggestion's added text is still that
 * suggestion's added text.
 */
export function anchorsAround(doc: PMNode, from: number, to: number): readonly Mark[] {
  const before = doc.resolve(from).nodeBefore;
  const after = doc.resolve(to).nodeAfter;
  const surrounding =
    before?.isInline && after?.isInline
      ? before.marks.filter((mark) => mark.type === marks.comment && mark.isInSet(after.marks))
      : [];
  const added =
    from < to ? marksAcross(doc, from, to).filter((mark) => mark.type === marks.suggest_insert) : [];
  return [...surrounding, ...added];
}

/** The format marks of inline content with a new set of anchors. */
export const withAnchors = (set: readonly Mark[], anchors: readonly Mark[]): readonly Mark[] => {
  let out: readonly Mark[] = set.filter((mark) => !isAnchorMark(mark));
  for (const anchor of anchors) out = anchor.addToSet(out);
  return out;
};

/**
 * Removes text inside one block; when that leaves two spaces where the text was, one goes, so deleting a word
 * from a sentence reads as a person would expect.
 */
export function deleteInline(tr: Transform, from: number, to: number): void {
  tr.delete(from, to);
  collapseSpaces(tr, tr.mapping.map(from, -1));
}

export function collapseSpaces(tr: Transform, pos: number): void {
  const $pos = tr.doc.resolve(pos);
  if (!$pos.parent.isTextblock || $pos.parent.type === nodes.code_block) return;
  const before = $pos.nodeBefore;
  const after = $pos.nodeAfter;
  if (before?.isText && after?.isText && before.text!.endsWith(' ') && after.text!.startsWith(' '))
    tr.delete(pos, pos + 1);
}

/**
 * Removes a range that may reach across blocks. A block whose whole text is in the range goes with it; when both
 * ends cut into blocks, the two ends join, as deleting across paragraphs does in an editor.
 */
export function deleteRange(tr: Transform, from: number, to: number): void {
  const doc = tr.doc;
  const $from = doc.resolve(from);
  const $to = doc.resolve(to);
  let start = from;
  let end = to;
  if ($from.parent.isTextblock && $from.parentOffset === 0 && to >= $from.end()) start = $from.before();
  if ($to.parent.isTextblock && $to.parentOffset === $to.parent.content.size && from <= $to.start())
    end = $to.after();
  tr.delete(start, end);
  const at = tr.mapping.map(start, -1);
  if (at <= tr.doc.content.size) collapseSpaces(tr, at);
}

/**
 * Takes away the block boundary a block suggestion stands for. A text block left empty goes; one with text left
 * joins the text block before it. A code block or rule goes whole.
 */
export function dissolveBlock(tr: Transform, pos: number): void {
  const node = tr.doc.nodeAt(pos);
  if (!node) return;
  const plainAttrs = { ...node.attrs, suggestion: null };
  if (!node.isTextblock || node.type === nodes.code_block || node.content.size === 0) {
    tr.delete(pos, pos + node.nodeSize);
    return;
  }
  tr.setNodeMarkup(pos, undefined, plainAttrs);
  const previous = previousTextblock(tr.doc, pos);
  if (!previous || previous.node.type === nodes.code_block) return;
  const joinFrom = previous.pos + 1 + previous.node.content.size;
  tr.delete(joinFrom, pos + 1);
  collapseSpaces(tr, joinFrom);
}

function previousTextblock(doc: PMNode, before: number): { node: PMNode; pos: number } | null {
  let found: { node: PMNode; pos: number } | null = null;
  doc.nodesBetween(0, before, (node, pos) => {
    if (pos + node.nodeSize > before) return !node.isTextblock;
    if (node.isTextblock) {
      found = { node, pos };
      return false;
    }
    return true;
  });
  return found;
}

/** Positions of blocks carrying a block suggestion of a thread, in document order. */
export function blocksMarkedBy(doc: PMNode, thread: string, kind?: string): number[] {
  const found: number[] = [];
  doc.descendants((node, pos) => {
    const marker = blockSuggestion(node);
    if (marker && marker.thread === thread && (kind === undefined || marker.kind === kind)) found.push(pos);
    return !node.isTextblock;
  });
  return found;
}

/** Inline ranges carrying a mark, merged where adjacent, in document order. */
export function markedRanges(
  doc: PMNode,
  test: (mark: Mark) => boolean,
): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  doc.descendants((node, pos) => {
    if (!node.isInline || !node.marks.some(test)) return true;
    const last = ranges[ranges.length - 1];
    if (last && last.to === pos) last.to = pos + node.nodeSize;
    else ranges.push({ from: pos, to: pos + node.nodeSize });
    return false;
  });
  return ranges;
}
