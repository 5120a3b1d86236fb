// set_document: the new markdown replaces only the blocks that differ, so anchors on unchanged text stay put.
import { Fragment, type Node as PMNode } from 'prosemirror-model';
import { parseMarkdown } from './markdown.js';
import { cellsOf, nodesOf } from './normalize.js';
import { blockSuggestion, isSuggestionMark, marks, nodes } from './schema.js';
import { suggestionRefs, type Working } from './state.js';

// Above this many block pairs the alignment falls back to common head and tail only.
const MAX_ALIGNMENT_CELLS = 4_000_000;

/**
 * The document the markdown describes, built from the current one: top-level blocks are aligned (longest common
 * subsequence, comments ignored); equal blocks are kept as they are, with their comment marks; a changed block
 * facing one changed block of the same kind keeps its unchanged head and tail, so a comment there survives too.
 */
export function setDocument(working: Working, markdown: string): PMNode {
  // CriticMarkup naming an open suggestion reads back as that suggestion, so the read markdown round-trips. Only
  // suggestions still in the document can be named: one whose text is gone never comes back on other text.
  const present = presentSuggestions(working.doc);
  const refs = new Map([...suggestionRefs(working.threads)].filter(([, id]) => present.has(id)));
  const next = parseMarkdown(markdown, { suggestionRefs: refs });
  return nodes.doc.create(null, mergeContent(children(working.doc), children(next)));
}

/** Aligns two lists of sibling blocks; equal ones are kept from the old list, changed ones merged or replaced. */
function mergeContent(oldBlocks: PMNode[], newBlocks: PMNode[]): PMNode[] {
  const oldKeys = oldBlocks.map((block) => keyOf(withoutComments(block)));
  const newKeys = newBlocks.map(keyOf);
  const out: PMNode[] = [];
  let i = 0;
  let j = 0;
  const flushChanged = (toI: number, toJ: number) => {
    const removed = oldBlocks.slice(i, toI);
    const added = newBlocks.slice(j, toJ);
    if (removed.length === added.length)
      added.forEach((block, k) => out.push(mergeBlock(removed[k]!, block)));
    else out.push(...added);
    i = toI;
    j = toJ;
  };
  for (const [a, b] of align(oldKeys, newKeys)) {
    flushChanged(a, b);
    out.push(oldBlocks[a]!);
    i = a + 1;
    j = b + 1;
  }
  flushChanged(oldBlocks.length, newBlocks.length);
  return out;
}

function presentSuggestions(doc: PMNode): Set<string> {
  const present = new Set<string>();
  doc.descendants((node) => {
    const marker = blockSuggestion(node);
    if (marker) present.add(marker.thread);
    for (const mark of node.marks) if (isSuggestionMark(mark)) present.add(mark.attrs.thread as string);
  });
  return present;
}

const children = (node: PMNode) => {
  const list: PMNode[] = [];
  node.forEach((child) => list.push(child));
  return list;
};

const keyOf = (block: PMNode) => JSON.stringify(block.toJSON());

/** A block without comment marks: comments are not in the markdown, so they cannot make blocks differ. */
function withoutComments(block: PMNode): PMNode {
  if (block.isText) return block.mark(block.marks.filter((mark) => mark.type !== marks.comment));
  if (block.isLeaf) return block.mark(block.marks.filter((mark) => mark.type !== marks.comment));
  const content: PMNode[] = [];
  block.forEach((child) => content.push(withoutComments(child)));
  return block.type.create(block.attrs, Fragment.fromArray(content), block.marks);
}

/** Index pairs of equal keys on a longest common subsequence, in order. */
function align(a: string[], b: string[]): Array<[number, number]> {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const pairs: Array<[number, number]> = [];
  for (let k = 0; k < head; k++) pairs.push([k, k]);
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length * midB.length <= MAX_ALIGNMENT_CELLS) {
    const n = midA.length;
    const m = midB.length;
    const table: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let x = n - 1; x >= 0; x--) {
      for (let y = m - 1; y >= 0; y--) {
        table[x]![y] =
          midA[x] === midB[y] ? table[x + 1]![y + 1]! + 1 : Math.max(table[x + 1]![y]!, table[x]![y + 1]!);
      }
    }
    let x = 0;
    let y = 0;
    while (x < n && y < m) {
      if (midA[x] === midB[y]) {
        pairs.push([head + x, head + y]);
        x++;
        y++;
      } else if (table[x + 1]![y]! >= table[x]![y + 1]!) x++;
      else y++;
    }
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

/**
 * A changed block. Containers of the same kind merge child by child. When the old and new are text blocks of the same kind, the unchanged head and tail of the old
 * (with their comment marks) stay and only the middle is the new text; a comment around the middle covers it.
 */
function mergeBlock(old: PMNode, next: PMNode): PMNode {
  if (!old.sameMarkup(next) || old.isLeaf) return next;
  // A list or quote of which only some children changed keeps the others, with their comments.
  if (!old.isTextblock) return old.type.create(old.attrs, mergeContent(children(old), children(next)));
  const bare = withoutComments(old);
  const start = bare.content.findDiffStart(next.content);
  if (start === null) return old;
  const end = bare.content.findDiffEnd(next.content);
  if (!end) return next;
  let endA = end.a;
  let endB = end.b;
  const overlap = start - Math.min(endA, endB);
  if (overlap > 0) {
    endA += overlap;
    endB += overlap;
  }
  const oldCells = cellsOf(children(old));
  const newCells = cellsOf(children(next));
  const around = (oldCells[start - 1]?.marks ?? []).filter(
    (mark) => mark.type === marks.comment && mark.isInSet(oldCells[endA]?.marks ?? []),
  );
  const middle = newCells.slice(start, endB).map((cell) => {
    let set = cell.marks;
    for (const mark of around) set = mark.addToSet(set);
    return { ...cell, marks: set };
  });
  return old.type.create(
    old.attrs,
    nodesOf([...oldCells.slice(0, start), ...middle, ...oldCells.slice(endA)]),
  );
}
