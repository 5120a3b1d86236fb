// Puts a document in the one shape its markdown reads back as, so serialize → parse gives the same document.
import { type Mark, type Node as PMNode } from 'prosemirror-model';
import { markdownLinkSafe } from './links.js';
import {
  blockSuggestion,
  isColor,
  isInlineTextblock,
  isSuggestionMark,
  marks,
  nodes,
  schema,
} from './schema.js';

// Each rule below removes something CommonMark cannot write, or writes differently than it is stored:
// empty paragraphs, whitespace at a block's edges or after a line break, whitespace just inside ** * ~~ (the
// delimiters stop working), line breaks at a block's edges or in headings, lists of one kind side by side (markdown
// joins them), anchors of threads that are not open, colors outside the nine, links markdown-it would not follow.

/** Returns the normalized document. `openSuggestions` are the suggestion threads whose marks may stay. */
export function normalizeDoc(doc: PMNode, openSuggestions: ReadonlySet<string>): PMNode {
  const result = nodes.doc.create(null, normalizeBlocks(childrenOf(doc), openSuggestions));
  checkDoc(result);
  return result;
}

// Nodes never change, so a block that passed check() once passes again: an edit checks only the blocks it made.
const checked = new WeakSet<PMNode>();

/** result.check(), in the same order, skipping blocks already checked (the doc itself has no attrs or marks). */
function checkDoc(doc: PMNode) {
  if (!nodes.doc.validContent(doc.content))
    throw new RangeError(`Invalid content for node doc: ${doc.content.toString().slice(0, 50)}`);
  doc.forEach((child) => {
    if (checked.has(child)) return;
    child.check();
    checked.add(child);
  });
}

// Blocks known to be in shape, with the open suggestions they were found so under: normalizing the same block again
// (each operation of an edit, then the result) gives it back as it is without reading it.
const normalBlocks = new WeakMap<PMNode, string>();
const openKeys = new WeakMap<ReadonlySet<string>, string>();

function openKey(open: ReadonlySet<string>): string {
  let key = openKeys.get(open);
  if (key === undefined) {
    key = JSON.stringify([...open].sort());
    openKeys.set(open, key);
  }
  return key;
}

const childrenOf = (node: PMNode): PMNode[] => {
  const list: PMNode[] = [];
  node.forEach((child) => list.push(child));
  return list;
};

function normalizeBlocks(blocks: PMNode[], open: ReadonlySet<string>): PMNode[] {
  const out: PMNode[] = [];
  for (const block of blocks) {
    for (const normalized of normalizeBlock(block, open)) {
      const previous = out[out.length - 1];
      if (previous && writtenAlike(previous, normalized)) {
        // Markdown cannot write these two apart: one list, loose if either was (its items get blank lines).
        const merged = previous.type.create(previous.attrs, previous.content.append(normalized.content));
        const tight = previous.attrs.tight !== false && normalized.attrs.tight !== false;
        out[out.length - 1] = merged.type.create(
          { ...merged.attrs, tight: canBeTight(merged, tight) },
          merged.content,
        );
      } else {
        out.push(normalized);
      }
    }
  }
  return out;
}

/** Two lists side by side that markdown writes as one: same kind and the same bullet or delimiter. */
const writtenAlike = (a: PMNode, b: PMNode) =>
  a.type === b.type &&
  ((a.type === nodes.bullet_list && a.attrs.bullet === b.attrs.bullet) ||
    (a.type === nodes.ordered_list && a.attrs.delimiter === b.attrs.delimiter));

const BULLETS = ['-', '*', '+'];
const DELIMITERS = ['.', ')'];

/**
 * A list's tightness as it reads back. It only shows where an item holds a paragraph right inside it; a list without
 * one is kept tight (reading gives that). A loose list needs a blank line to write: two items, or two blocks in one.
 * A tight one needs every two blocks of an item writable without one (tightPair); else it is loose.
 */
function canBeTight(list: PMNode, tight: boolean): boolean {
  let paragraphs = false;
  let blankNeeded = false;
  let blankPossible = list.childCount > 1;
  list.forEach((item) => {
    let previous: PMNode | null = null;
    item.forEach((child) => {
      if (child.type === nodes.paragraph) paragraphs = true;
      // A code block's or rule's suggestion marker is a paragraph of its own, a blank line before the block.
      if (standsAlone(child)) paragraphs = blankNeeded = blankPossible = true;
      if (previous) {
        blankPossible = true;
        if (!tightPair(previous, child)) blankNeeded = true;
      }
      previous = child;
    });
  });
  if (!paragraphs) return true;
  if (blankNeeded) return false;
  return tight || !blankPossible;
}

/** A block whose suggestion marker is written on a line of its own before it (a fence or rule cannot hold one). */
const standsAlone = (block: PMNode) =>
  blockSuggestion(block) !== null &&
  (block.type === nodes.code_block || block.type === nodes.horizontal_rule);

/**
 * Whether two blocks of a tight list's item can be written on consecutive lines and read back as two blocks: the
 * second must be able to interrupt a paragraph (or the first must end for sure), and must not be read as going on
 * with the first (a quote after a quote, or lazy text after a quote or list). Where not, the list is loose.
 */
export function tightPair(previous: PMNode, next: PMNode): boolean {
  if (standsAlone(next)) return false;
  // An empty item or quote cannot interrupt a paragraph ("-" under text is a heading underline).
  if (
    (next.type === nodes.bullet_list || next.type === nodes.ordered_list) &&
    next.firstChild!.childCount === 0
  )
    return false;
  if (next.type === nodes.blockquote && next.childCount === 0) return false;
  if (
    previous.type === nodes.heading ||
    previous.type === nodes.code_block ||
    previous.type === nodes.horizontal_rule
  )
    return true;
  if (previous.type === nodes.blockquote && next.type === nodes.blockquote) return false;
  return (
    next.type === nodes.heading ||
    next.type === nodes.code_block ||
    next.type === nodes.horizontal_rule ||
    next.type === nodes.blockquote ||
    next.type === nodes.bullet_list ||
    (next.type === nodes.ordered_list && next.attrs.order === 1)
  );
}

// Blocks already in shape come back as the same objects, so a large document costs a check, not a rebuild, and
// the writer's per-block cache keeps working across the operations of one edit.
const same = (before: PMNode[], after: PMNode[]) =>
  after.length > 0 && before.length === after.length && before.every((node, i) => node === after[i]);

function normalizeBlock(block: PMNode, open: ReadonlySet<string>): PMNode[] {
  const key = openKey(open);
  if (normalBlocks.get(block) === key) return [block];
  const result = normalizeBlockOnce(block, open);
  if (result.length === 1 && result[0] === block) normalBlocks.set(block, key);
  return result;
}

function normalizeBlockOnce(block: PMNode, open: ReadonlySet<string>): PMNode[] {
  const marker = 'suggestion' in block.attrs ? openMarker(block, open) : undefined;
  const markerKept = marker === undefined || marker === block.attrs.suggestion;
  const attrs = marker === undefined ? block.attrs : { ...block.attrs, suggestion: marker };
  if (isInlineTextblock(block)) {
    const heading = block.type === nodes.heading;
    if (markerKept && isNormalInline(block, open, heading)) return block.childCount === 0 ? [] : [block];
    const content = normalizeInline(childrenOf(block), open, heading);
    return content.length === 0 ? [] : [block.type.create(attrs, content)];
  }
  if (block.type === nodes.code_block) {
    const language = cleanLanguage(block.attrs.language);
    if (markerKept && language === block.attrs.language && isNormalCode(block)) return [block];
    const content: PMNode[] = [];
    // Keep the comment anchors of code text; nothing else can be written inside a fence.
    block.forEach((child) => {
      const kept = child.marks.filter((mark) => mark.type === marks.comment);
      const cleaned = child.text!.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
      if (cleaned) content.push(schema.text(cleaned, kept));
    });
    return [nodes.code_block.create({ ...attrs, language }, content)];
  }
  if (block.type === nodes.horizontal_rule) return markerKept ? [block] : [block.type.create(attrs)];
  if (block.type === nodes.bullet_list || block.type === nodes.ordered_list) {
    const before = childrenOf(block);
    const items = before.flatMap((item) => {
      const children = childrenOf(item);
      // An item written empty stays; one whose blocks all went (an edit emptied it) goes.
      if (children.length === 0) return item.attrs.written_empty === true ? [item] : [];
      const content = normalizeBlocks(children, open);
      if (same(children, content) && item.attrs.written_empty === false) return [item];
      return content.length === 0 ? [] : [nodes.list_item.create(null, content)];
    });
    if (items.length === 0) return [];
    const ordered = block.type === nodes.ordered_list;
    const list = block.type.create(block.attrs, items);
    const attrs = ordered
      ? {
          order:
            Number.isSafeInteger(block.attrs.order) && block.attrs.order >= 0
              ? Math.min(block.attrs.order, 999_999_999)
              : 1,
          delimiter: DELIMITERS.includes(block.attrs.delimiter) ? block.attrs.delimiter : '.',
        }
      : { bullet: BULLETS.includes(block.attrs.bullet) ? block.attrs.bullet : '-' };
    const clean = { ...attrs, tight: canBeTight(list, block.attrs.tight !== false) };
    const unchanged = Object.entries(clean).every(([name, value]) => block.attrs[name] === value);
    if (same(before, items) && unchanged) return [block];
    return [block.type.create(clean, items)];
  }
  if (block.type === nodes.blockquote) {
    const children = childrenOf(block);
    if (children.length === 0) return block.attrs.written_empty === true ? [block] : [];
    const content = normalizeBlocks(children, open);
    if (same(children, content) && block.attrs.written_empty === false) return [block];
    return content.length === 0 ? [] : [block.type.create(null, content)];
  }
  if (block.type === nodes.list_item) {
    // A stray item outside a list becomes its own list.
    const content = normalizeBlocks(childrenOf(block), open);
    if (content.length === 0) return [];
    const list = nodes.bullet_list.create(null, nodes.list_item.create(null, content));
    return [nodes.bullet_list.create({ tight: canBeTight(list, true) }, list.content)];
  }
  return [];
}

function isNormalCode(block: PMNode): boolean {
  let normal = true;
  block.forEach((child) => {
    if (/[\r\0]/.test(child.text!) || child.marks.some((mark) => mark.type !== marks.comment)) normal = false;
  });
  return normal;
}

// Whitespace inside a code span is written as it is (the span's backticks hold it), so it is never at an edge.
const isCode = (node: PMNode) => marks.code.isInSet(node.marks) !== undefined;
/** Whitespace that reading strips at a block's edges: spaces, tabs, line endings (other Unicode spaces are written as entities). */
const EDGE_SPACE = /^[ \t\n\r]$/;
const startsWith = (node: PMNode, space: RegExp) =>
  node.type === nodes.hard_break || (node.isText && !isCode(node) && space.test(node.text![0]!));
const endsWith = (node: PMNode, space: RegExp) =>
  node.type === nodes.hard_break ||
  (node.isText && !isCode(node) && space.test(node.text![node.text!.length - 1]!));
/** Unicode whitespace, which ** * ~~ must not have just inside them. */
const UNICODE_SPACE = /^\s$/;

/** Whether inline content already is what normalizeInline would make of it, checked node by node. */
function isNormalInline(block: PMNode, open: ReadonlySet<string>, heading: boolean): boolean {
  const count = block.childCount;
  if (count === 0) return true;
  if (startsWith(block.child(0), EDGE_SPACE) || endsWith(block.child(count - 1), EDGE_SPACE)) return false;
  for (let i = 0; i < count; i++) {
    const node = block.child(i);
    const previous = i > 0 ? block.child(i - 1) : null;
    const next = i + 1 < count ? block.child(i + 1) : null;
    if (cleanMarkSet(node.marks, open) !== node.marks) return false;
    if (
      node.isText &&
      (/[\r\0]/.test(node.text!) || ((heading || isCode(node)) && node.text!.includes('\n')))
    )
      return false;
    if (
      node.type === nodes.hard_break &&
      (heading || (next?.isText && !isCode(next) && /^[ \t]/.test(next.text!)))
    )
      return false;
    if (
      node.type === nodes.image &&
      (markdownLinkSafe(node.attrs.src) !== node.attrs.src ||
        cleanTitle(node.attrs.title) !== node.attrs.title)
    )
      return false;
    if (
      node.type === nodes.empty_link &&
      (markdownLinkSafe(node.attrs.href) !== node.attrs.href ||
        cleanTitle(node.attrs.title) !== node.attrs.title)
    )
      return false;
    for (const type of DELIMITED) {
      if (!type.isInSet(node.marks)) continue;
      if ((!previous || !type.isInSet(previous.marks)) && startsWith(node, UNICODE_SPACE)) return false;
      if ((!next || !type.isInSet(next.marks)) && endsWith(node, UNICODE_SPACE)) return false;
    }
  }
  return softBreaksAlone(block);
}

/** Every soft line break stands alone: no space, tab, other line break or hard break right before or after it. */
function softBreaksAlone(block: PMNode): boolean {
  let flat = '';
  let soft = false;
  block.forEach((child) => {
    if (child.isText && !isCode(child)) {
      flat += child.text!;
      soft ||= child.text!.includes('\n');
    } else {
      flat += child.type === nodes.hard_break ? '\n' : 'x';
    }
  });
  return !soft || !/[ \t\n]\n|\n[ \t\n]/.test(flat);
}

const openMarker = (block: PMNode, open: ReadonlySet<string>) => {
  const marker = blockSuggestion(block);
  return marker && open.has(marker.thread) ? marker : null;
};

// The first word of a fence's info string: no whitespace, and no backtick (a backtick fence's info cannot hold one).
const cleanLanguage = (language: unknown) =>
  typeof language === 'string' && /^[^\s`]{1,100}$/u.test(language) ? language : '';

/** One character of inline content, or one inline leaf, with its marks. */
export interface Cell {
  ch: string | null;
  node: PMNode | null;
  marks: readonly Mark[];
}

export function cellsOf(content: readonly PMNode[]): Cell[] {
  const cells: Cell[] = [];
  for (const node of content) {
    if (node.isText) for (const ch of node.text!) cells.push({ ch, node: null, marks: node.marks });
    else cells.push({ ch: null, node, marks: node.marks });
  }
  return cells;
}

export function nodesOf(cells: readonly Cell[]): PMNode[] {
  const out: PMNode[] = [];
  let text = '';
  let textMarks: readonly Mark[] | null = null;
  const flush = () => {
    if (text && textMarks) out.push(schema.text(text, textMarks));
    text = '';
    textMarks = null;
  };
  for (const cell of cells) {
    if (cell.ch !== null) {
      if (textMarks && !sameMarks(textMarks, cell.marks)) flush();
      textMarks = cell.marks;
      text += cell.ch;
    } else if (cell.node) {
      flush();
      out.push(cell.node.mark(cell.marks));
    }
  }
  flush();
  return out;
}

const sameMarks = (a: readonly Mark[], b: readonly Mark[]) =>
  a.length === b.length && a.every((mark, i) => mark.eq(b[i]!));

const isCodeCell = (cell: Cell) => marks.code.isInSet(cell.marks) !== undefined;
/** Whitespace ** * ~~ cannot have just inside them. */
const isSpaceCell = (cell: Cell) =>
  (cell.ch !== null && !isCodeCell(cell) && /\s/.test(cell.ch)) || cell.node?.type === nodes.hard_break;
/** Whitespace reading strips at a block's edges. */
const isEdgeSpaceCell = (cell: Cell) =>
  (cell.ch !== null && !isCodeCell(cell) && EDGE_SPACE.test(cell.ch)) || cell.node?.type === nodes.hard_break;

const DELIMITED = [marks.strong, marks.em, marks.strikethrough];

function normalizeInline(content: readonly PMNode[], open: ReadonlySet<string>, heading: boolean): PMNode[] {
  let cells = cellsOf(content).flatMap((cell): Cell[] => {
    const cleanMarks = cleanMarkSet(cell.marks, open);
    if (cell.ch !== null) {
      // A line ending is a soft line break, except where markdown cannot write one: in a heading or a code span.
      const lineEnd = cell.ch === '\n' || cell.ch === '\r';
      const ch = lineEnd ? (heading || isCodeCell(cell) ? ' ' : '\n') : cell.ch === '\0' ? '\uFFFD' : cell.ch;
      return [{ ch, node: null, marks: cleanMarks }];
    }
    const node = cell.node!;
    if (node.type === nodes.hard_break && heading) return [{ ch: ' ', node: null, marks: cleanMarks }];
    if (node.type === nodes.image) {
      const src = markdownLinkSafe(node.attrs.src);
      if (src === null) return [];
      return [
        {
          ch: null,
          node: nodes.image.create({
            src,
            alt: String(node.attrs.alt ?? ''),
            title: cleanTitle(node.attrs.title),
          }),
          marks: cleanMarks,
        },
      ];
    }
    if (node.type === nodes.empty_link) {
      const href = markdownLinkSafe(node.attrs.href);
      if (href === null) return [];
      return [
        {
          ch: null,
          node: nodes.empty_link.create({ href, title: cleanTitle(node.attrs.title) }),
          marks: cleanMarks,
        },
      ];
    }
    return [{ ch: null, node: node.type.create(node.attrs), marks: cleanMarks }];
  });

  // Leading and trailing whitespace cannot be written; nor can space at the start of a line after a break.
  let start = 0;
  while (start < cells.length && isEdgeSpaceCell(cells[start]!)) start++;
  let end = cells.length;
  while (end > start && isEdgeSpaceCell(cells[end - 1]!)) end--;
  // Nor can spaces around a soft line break (reading strips them), two soft breaks in a row (a blank line ends the
  // paragraph), or a soft break beside a hard one.
  const lineSpace = (cell: Cell) => (cell.ch === ' ' || cell.ch === '\t') && !isCodeCell(cell);
  const softBreak = (cell: Cell | undefined) => cell?.ch === '\n' && !isCodeCell(cell);
  const lineEnd = (cell: Cell | undefined) => softBreak(cell) || cell?.node?.type === nodes.hard_break;
  const kept: Cell[] = [];
  for (const cell of cells.slice(start, end)) {
    if (lineSpace(cell) && lineEnd(kept[kept.length - 1])) continue;
    if (lineEnd(cell)) {
      while (kept.length > 0 && lineSpace(kept[kept.length - 1]!)) kept.pop();
      if (softBreak(cell) && lineEnd(kept[kept.length - 1])) continue;
      if (!softBreak(cell) && softBreak(kept[kept.length - 1])) kept.pop();
    }
    kept.push(cell);
  }
  cells = kept;

  // ** * ~~ only work when no whitespace sits just inside them, so whitespace at a run's edge leaves the mark.
  for (const type of DELIMITED) {
    let i = 0;
    while (i < cells.length) {
      if (!type.isInSet(cells[i]!.marks)) {
        i++;
        continue;
      }
      let j = i;
      while (j < cells.length && type.isInSet(cells[j]!.marks)) j++;
      let a = i;
      while (a < j && isSpaceCell(cells[a]!)) a++;
      let b = j;
      while (b > a && isSpaceCell(cells[b - 1]!)) b--;
      for (let k = i; k < j; k++) {
        if (k < a || k >= b) cells[k] = { ...cells[k]!, marks: type.removeFromSet(cells[k]!.marks) };
      }
      i = j;
    }
  }
  return nodesOf(cells);
}

function cleanMarkSet(set: readonly Mark[], open: ReadonlySet<string>): readonly Mark[] {
  let changed = false;
  const out: Mark[] = [];
  for (const mark of set) {
    const clean = cleanMark(mark, open);
    if (clean !== mark) changed = true;
    if (clean) out.push(clean);
  }
  const nested = nestedInOrder(out);
  return changed || nested !== out ? nested : set;
}

/** em and strong nested in themselves: depths 1, 2, … in order, outermost first, each once. */
function nestedInOrder(set: Mark[]): Mark[] {
  let out = set;
  for (const type of [marks.strong, marks.em]) {
    const own = out.filter((mark) => mark.type === type);
    if (own.length === 0 || own.every((mark, i) => mark.attrs.depth === i + 1)) continue;
    const depths = [...new Set(own.map((mark) => Number(mark.attrs.depth) || 1))].sort((a, b) => a - b);
    const first = out.findIndex((mark) => mark.type === type);
    const rest = out.filter((mark) => mark.type !== type);
    rest.splice(first, 0, ...depths.map((_, i) => type.create({ depth: i + 1 })));
    out = rest;
  }
  return out;
}

/** A title is text on one line, or none. */
const cleanTitle = (title: unknown): string | null =>
  typeof title === 'string' ? title.replace(/\r\n?|\n/g, ' ') : null;

function cleanMark(mark: Mark, open: ReadonlySet<string>): Mark | null {
  if (isSuggestionMark(mark)) return open.has(mark.attrs.thread as string) ? mark : null;
  if (mark.type === marks.text_color || mark.type === marks.highlight)
    return isColor(mark.attrs.color) ? mark : null;
  if (mark.type === marks.link) {
    const href = markdownLinkSafe(mark.attrs.href);
    if (href === null) return null;
    const title = cleanTitle(mark.attrs.title);
    return href === mark.attrs.href && title === mark.attrs.title ? mark : marks.link.create({ href, title });
  }
  return mark;
}
