// The editor page's doc → operations mapping (docs/editor.md § How changes map to operations), kept free of the DOM so
// that test/unit/editor/ can run it over the CommonMark spec's examples in Node. The page's script (editor.ts) holds
// the view; this module decides what a local change sends.
import { baseKeymap, chainCommands } from 'prosemirror-commands';
import { Fragment, Node as PMNode, Slice, type Mark, type Schema } from 'prosemirror-model';
import { splitListItem } from 'prosemirror-schema-list';
import type { Command } from 'prosemirror-state';
import { applyOperationsTo } from '../../../domain/document-engine/engine.js';
import { parseMarkdown } from '../../../domain/document-engine/markdown.js';
import { inlineFrag } from '../../../domain/document-engine/markdown-inline-writer.js';
import type { WriteContext } from '../../../domain/document-engine/markdown-units.js';
import { normalizeDoc } from '../../../domain/document-engine/normalize.js';
import { parseOperations, type EditMode } from '../../../domain/document-engine/operations.js';
import { matchQuote } from '../../../domain/document-engine/quotes.js';
import { isAnchorMark, schema as engineSchema } from '../../../domain/document-engine/schema.js';
import {
  openSuggestionIds,
  renderMarkdown,
  serializeWorking,
  suggestionRefs,
  type SuggestionAnchor,
  type Working,
} from '../../../domain/document-engine/state.js';
import { acceptSuggestion } from '../../../domain/document-engine/suggestions.js';

/** The API's operations (spec/documents.md § Edit content), as the page sends them. */
export interface Replace {
  type: 'replace';
  find: string;
  with: string;
  occurrence?: number;
}
interface Insert {
  type: 'insert';
  markdown: string;
  after?: string;
  before?: string;
  occurrence?: number;
}
interface Delete {
  type: 'delete';
  find: string;
  occurrence?: number;
}
interface SetDocument {
  type: 'set_document';
  markdown: string;
}
export type Operation = Replace | Insert | Delete | SetDocument;

/**
 * What Enter and Backspace do in the page (and in the tests that play them): ProseMirror's own commands. Enter in a
 * list item makes a new item, elsewhere it splits the block; Backspace at a block's start joins it to the one before.
 */
export const keyCommands = (schema: Schema): Record<'Enter' | 'Backspace', Command> => ({
  Enter: chainCommands(splitListItem(schema.nodes.list_item!), baseKeymap.Enter!),
  Backspace: baseKeymap.Backspace!,
});

/** Open suggestions by the ref the markdown names them with (`s3` → 3), as the content's threads give them. */
export type SuggestionRefs = ReadonlyMap<number, string>;

/** Pasted plain text as ProseMirror inserts it: a paragraph a line, the first and last joining the text around them. */
export function pastedText(schema: Schema, text: string): Slice {
  const lines = text.split(/\r\n?|\n/).filter((line) => line.trim() !== '');
  const paragraphs = lines.map((line) => schema.nodes.paragraph!.create(null, schema.text(line)));
  return new Slice(Fragment.fromArray(paragraphs), 1, 1);
}

/** The suggestion refs of a content's threads (`s3` → its uuid), which its CriticMarkup names. */
export function refsOf(threads: readonly { uuid: string; ref: string | null }[]): SuggestionRefs {
  const refs = new Map<number, string>();
  for (const thread of threads) if (thread.ref !== null) refs.set(Number(thread.ref.slice(1)), thread.uuid);
  return refs;
}

/** The document as the engine reads the markdown, in the page's schema; CriticMarkup is read into its threads' marks. */
export function documentOf(schema: Schema, markdown: string, refs: SuggestionRefs): PMNode {
  return PMNode.fromJSON(schema, parseMarkdown(markdown, { suggestionRefs: refs }).toJSON());
}

const occurrences = (text: string, find: string): number => {
  let count = 0;
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + 1)) count += 1;
  return count;
};

/** What typed text means in inline markdown: text, never markup. Inside a fence `with` is literal, so not there. */
const escapeInline = (text: string) => text.replace(/[\\`*_[\]<>{}~#!|&]/g, (char) => `\\${char}`);

/** The marks of a text node that carry formatting (anchors, such as a suggestion's, are the engine's to place). */
const formatOf = (marks: readonly Mark[]) => marks.filter((mark) => !isAnchorMark(mark));
const sameFormat = (a: readonly Mark[], b: readonly Mark[]) =>
  a.length === b.length && a.every((mark) => mark.isInSet(b));

/** The format of the text between from and to (a text block's), or null when it is not one format, or holds a leaf. */
function formatBetween(doc: PMNode, from: number, to: number): readonly Mark[] | null | undefined {
  let format: readonly Mark[] | undefined;
  let mixed = false;
  doc.nodesBetween(from, to, (node) => {
    if (!node.isInline) return true;
    if (!node.isText) {
      mixed = true;
      return false;
    }
    const marks = formatOf(node.marks);
    if (format === undefined) format = marks;
    else if (!sameFormat(format, marks)) mixed = true;
    return false;
  });
  if (mixed) return null;
  return format;
}

/** A document in the engine's schema, with the open suggestions its marks name, as the engine works on it. */
function workingOf(doc: PMNode, refs: SuggestionRefs): Working {
  const threads: SuggestionAnchor[] = [...refs].map(([ref, id]) => ({
    id,
    kind: 'suggestion',
    ref,
    status: 'open',
    resolution: null,
    format: null,
    blockType: null,
  }));
  return {
    doc: doc.type.schema === engineSchema ? doc : PMNode.fromJSON(engineSchema, doc.toJSON()),
    threads,
  };
}

/** The server's document as the engine matches quotes in it, and the range a quote with an occurrence reads as there. */
function quoteMatcher(serverDoc: PMNode, refs: SuggestionRefs) {
  // The server matches the quote as the engine does (quotes.ts: its markdown first, then its text without markup);
  // the page asks the same function which range a quote reads as.
  const { doc, threads } = workingOf(serverDoc, refs);
  const serialized = serializeWorking({ doc, threads });
  const matchOf = (find: string, occurrence?: number) => {
    try {
      return matchQuote(doc, serialized, { find, occurrence });
    } catch {
      return undefined;
    }
  };
  return { doc, serialized, matchOf };
}

/** The quote a range of the server's document is matched by, with the occurrence that picks exactly that range. */
function quoteFor(
  serverDoc: PMNode,
  refs: SuggestionRefs,
  from: number,
  to: number,
  find = serverDoc.textBetween(from, to),
): { find: string; occurrence?: number } | undefined {
  const { doc, serialized, matchOf: match } = quoteMatcher(serverDoc, refs);
  const matchOf = (occurrence?: number) => match(find, occurrence);
  const lands = (occurrence?: number) => {
    const match = matchOf(occurrence);
    return match !== undefined && match.from === from && match.to === to;
  };
  if (lands()) return { find };
  // The engine picks the nth match of its markdown reading, and past those the nth of its text reading; each reading
  // lists its matches in document order. So the occurrences are found by bisection, not by trying each (a common word
  // in a long document): first how many the markdown reading holds, then the one that lands, in either reading.
  const bound = occurrences(serialized.markdown, find) + occurrences(doc.textContent, find);
  const lastWhere = (low: number, high: number, holds: (occurrence: number) => boolean) => {
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (holds(middle)) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const inMarkdown = lastWhere(0, bound, (occurrence) => matchOf(occurrence)?.reading === 'markdown');
  const inText = lastWhere(inMarkdown, bound, (occurrence) => matchOf(occurrence) !== undefined);
  for (const [low, high] of [
    [1, inMarkdown],
    [inMarkdown + 1, inText],
  ] as const) {
    if (low > high) continue;
    const occurrence = lastWhere(low, high, (at) => matchOf(at)!.from <= from);
    if (lands(occurrence)) return { find, occurrence };
  }
  return undefined;
}

/** Where two documents differ: from start to endA in before, and to endB in after. Null when they do not. */
function changedRange(before: PMNode, after: PMNode) {
  const start = before.content.findDiffStart(after.content);
  if (start === null) return null;
  let { a: endA, b: endB } = before.content.findDiffEnd(after.content)!;
  // findDiffEnd can overlap findDiffStart inside a repeated character; move the ends so both ranges start at start.
  if (endA < start) {
    endB += start - endA;
    endA = start;
  }
  if (endB < start) {
    endA += start - endB;
    endB = start;
  }
  return { start, endA, endB };
}

/**
 * The local change as one replace: the words it touches in one paragraph, heading, item's text or code block, quoted
 * from the document as the server has it (with the occurrence that the server's quote matching reads as that place),
 * its new text as inline markdown that keeps the quoted text's formatting. Undefined when there is no change, or one
 * the page does not send yet: across blocks (a new paragraph, a join), across a change of formatting or a leaf.
 */
export function operationFor(
  before: PMNode,
  after: PMNode,
  refs: SuggestionRefs = new Map(),
): Replace | undefined {
  const changed = changedRange(before, after);
  if (!changed) return undefined;
  const { start, endA, endB } = changed;
  const $a = before.resolve(start);
  const $b = after.resolve(start);
  if (!$a.parent.isTextblock || !$b.parent.isTextblock) return undefined;
  if (!$a.sameParent(before.resolve(endA)) || !$b.sameParent(after.resolve(endB))) return undefined;
  if ($a.parent.type.name !== $b.parent.type.name || !$a.parent.sameMarkup($b.parent)) return undefined;
  const code = $a.parent.type.spec.code === true;

  // The changed text must be of one format, the one of the text it lands in: `with` then only says what the text
  // reads, and the engine gives it the formatting of what it replaces.
  const added = endB > start ? formatBetween(after, start, endB) : undefined;
  const removed = endA > start ? formatBetween(before, start, endA) : undefined;
  if (added === null || removed === null)
    return code ? undefined : blockOperation(before, after, refs, start);
  if (added && removed && !sameFormat(added, removed)) return blockOperation(before, after, refs, start);
  const format = added ?? removed;
  const said =
    format === undefined ? undefined : wordOperation(before, after, refs, start, endA, endB, format);
  return said ?? (code ? undefined : blockOperation(before, after, refs, start));
}

/**
 * The change as a replace of the words it touches, when they are text of the changed text's format: `with` then
 * only says what the text reads, and the engine gives it the formatting of what it replaces.
 */
function wordOperation(
  before: PMNode,
  after: PMNode,
  refs: SuggestionRefs,
  start: number,
  endA: number,
  endB: number,
  format: readonly Mark[],
): Replace | undefined {
  const $a = before.resolve(start);
  const code = $a.parent.type.spec.code === true;

  // Widen the quote to whole words of that format: one letter would rarely be unique, and a word reads as a quote.
  // The quote stays inside text of the changed text's format, so the engine gives the new text that format.
  const blockStart = $a.start();
  const blockEnd = $a.end();
  const wordChar = (pos: number) => {
    if (pos < blockStart || pos >= blockEnd) return false;
    const node = before.nodeAt(pos);
    if (!node?.isText || /\s/.test(before.textBetween(pos, pos + 1))) return false;
    return sameFormat(formatOf(node.marks), format);
  };
  const spaceChar = (pos: number) =>
    pos >= blockStart && pos < blockEnd && /\s/.test(before.textBetween(pos, pos + 1));
  let from = start;
  let to = endA;
  while (wordChar(from - 1)) from -= 1;
  while (wordChar(to)) to += 1;
  if (from === to) {
    // A pure insertion beside no word of its format: quote the word before it, or else the one after.
    while (spaceChar(from - 1)) from -= 1;
    if (wordChar(from - 1)) while (wordChar(from - 1)) from -= 1;
    else {
      from = start;
      while (spaceChar(to)) to += 1;
      while (wordChar(to)) to += 1;
    }
  }
  const quoted = from < to ? formatBetween(before, from, to) : null;
  if (!quoted || !sameFormat(quoted, format)) return undefined;
  const quote = quoteFor(before, refs, from, to);
  if (!quote) return undefined;
  const replacement = after.textBetween(from, to + (endB - endA));
  const operation: Replace = {
    type: 'replace',
    find: quote.find,
    with: code ? replacement : escapeInline(replacement),
  };
  if (quote.occurrence !== undefined) operation.occurrence = quote.occurrence;
  return operation;
}

/**
 * The change as a replace of the whole text block, quoted and rewritten as markdown (the engine's own inline writer):
 * for what words cannot say, such as text typed after a link or an image, which takes neither. A quote in markdown
 * states its formatting, so the engine takes the new formatting from `with` (engine.ts replacementContent).
 */
function blockOperation(
  before: PMNode,
  after: PMNode,
  refs: SuggestionRefs,
  start: number,
): Replace | undefined {
  const $a = before.resolve(start);
  const $b = after.resolve(start);
  const refOf = new Map([...refs].map(([ref, id]) => [id, ref]));
  const context: WriteContext = { refOf: (id) => refOf.get(id) ?? null, suggestionRefs: refs };
  const heading = $a.parent.type.name === 'heading';
  const inline = (block: PMNode) =>
    inlineFrag(PMNode.fromJSON(engineSchema, block.toJSON()), 0, context, heading).text;
  const find = inline($a.parent);
  const replacement = inline($b.parent);
  if (!find || find === replacement) return undefined;
  const quote = quoteFor(before, refs, $a.start(), $a.end(), find);
  if (!quote) return undefined;
  const operation: Replace = { type: 'replace', find: quote.find, with: replacement };
  if (quote.occurrence !== undefined) operation.occurrence = quote.occurrence;
  return operation;
}

/**
 * An operation worked out on `before`, for the server's document now being `current` (a 409's): the same quote and
 * replacement, its occurrence counted anew so that it still names the place it named in `before`. Another edit may
 * have added or removed an earlier copy of the quote, so the old number could name another copy. Undefined when the
 * other edit changed the quoted text or the text around it too closely to tell where that place now is.
 */
export function rebaseOperation(
  operation: Replace,
  before: PMNode,
  beforeRefs: SuggestionRefs,
  current: PMNode,
  currentRefs: SuggestionRefs,
): Replace | undefined {
  const quoted = quoteMatcher(before, beforeRefs).matchOf(operation.find, operation.occurrence);
  if (!quoted) return undefined;
  let { from, to } = quoted;
  // The quoted place is where it was when it lies in the text the two documents start with, or moved by the change
  // of length when it lies in the text they end with. Both are read to their longest, not cut to one span of change:
  // an edit that adds a copy of the quote's words could be read as one that splits the quote ("a laptop." into
  // "a laptop bag and a laptop.": " bag and a laptop" after "a laptop"), though the quote still reads at its end.
  const start = before.content.findDiffStart(current.content);
  if (start !== null && to > start) {
    const end = before.content.findDiffEnd(current.content)!;
    if (from < end.a) return undefined;
    from += end.b - end.a;
    to += end.b - end.a;
  }
  const quote = quoteFor(current, currentRefs, from, to, operation.find);
  if (!quote) return undefined;
  const rebased: Replace = { type: 'replace', find: quote.find, with: operation.with };
  if (quote.occurrence !== undefined) rebased.occurrence = quote.occurrence;
  return rebased;
}

// --- Changes across blocks --------------------------------------------------------------------------------------

/** The engine applying operations as the API does (the same code); undefined where the API would refuse them. */
function applied(working: Working, operations: Operation[], mode: EditMode) {
  let made = working.threads.length;
  let ref = Math.max(0, ...working.threads.map((thread) => (thread.kind === 'suggestion' ? thread.ref : 0)));
  try {
    return applyOperationsTo(working, parseOperations(operations, mode), {
      mode,
      newThreadId: () => `local-${(made += 1)}`,
      nextRef: () => (ref += 1),
    });
  } catch {
    return undefined;
  }
}

/** Whether the API, applying the operations, stores `wanted`: in suggesting mode, once their suggestions are accepted. */
function stores(server: Working, operations: Operation[], mode: EditMode, wanted: string): boolean {
  const result = applied(server, operations, mode);
  if (!result) return false;
  let { state } = result;
  try {
    for (const id of result.suggestionThreadIds) state = acceptSuggestion(state, id);
  } catch {
    return false;
  }
  return renderMarkdown(state) === wanted;
}

/**
 * What a local change sends, as the operations of one request on the server's document `before`: one replace for a
 * change inside a block; across blocks (Enter, Backspace at a block's start, a paste of several paragraphs) the
 * blocks after the first changed one deleted by a quote of their whole text, the new blocks inserted after it, and
 * its own text replaced; or the changed top-level blocks deleted and their new version inserted; the fewest of these
 * that work, else, for an editor, the whole document (set_document). Each candidate is applied with the engine, as
 * the API will, and sent only when it stores what the page shows (for a commenter, once its suggestions are
 * accepted). [] when nothing needs sending: the change writes as the stored markdown (an empty paragraph made by
 * Enter, not yet typed into). Undefined when nothing the API takes says it: the page then refuses the change.
 */
export function operationsFor(
  before: PMNode,
  after: PMNode,
  refs: SuggestionRefs = new Map(),
  mode: EditMode = 'edit',
): Operation[] | undefined {
  if (before.eq(after)) return [];
  const server = workingOf(before, refs);
  let target: PMNode;
  let wanted: string;
  try {
    // What the API would store of the page's document: empty paragraphs go, as they do after any edit.
    const local = workingOf(after, refs);
    target = normalizeDoc(local.doc, openSuggestionIds(local.threads));
    wanted = serializeWorking({ doc: target, threads: local.threads }).markdown;
  } catch {
    return undefined;
  }
  if (wanted === serializeWorking(server).markdown) return [];
  // The fewest operations that store it (the first of equals), quotes before the whole document.
  const candidates: (() => Operation[] | undefined)[] = [
    () => {
      const operation = operationFor(server.doc, target, refs);
      return operation && [operation];
    },
    () => acrossBlocks(server, target, mode),
    () => acrossTopBlocks(server, target, mode),
  ];
  let best: Operation[] | undefined;
  for (const candidate of candidates) {
    if (best?.length === 1) break;
    const operations = candidate();
    if (!operations?.length || (best && operations.length >= best.length)) continue;
    if (stores(server, operations, mode, wanted)) best = operations;
  }
  if (best || mode === 'suggest') return best;
  const whole: Operation[] = [{ type: 'set_document', markdown: wanted }];
  return stores(server, whole, mode, wanted) ? whole : undefined;
}

/** Operations worked out one after another, each on the document the ones before it leave (as the API applies them). */
function sequence(server: Working, mode: EditMode) {
  const operations: Operation[] = [];
  let working = server;
  return {
    operations,
    get doc() {
      return working.doc;
    },
    get refs() {
      return suggestionRefs(working.threads);
    },
    /** Adds an operation; false when there is none or the API would refuse it. */
    add(operation: Operation | undefined): boolean {
      const result = operation && applied(working, [operation], mode);
      if (!result) return false;
      operations.push(operation);
      working = result.working;
      return true;
    },
  };
}

/** The quote of a range that may span blocks: its markdown from its first character of text to its last. */
function spanQuote(doc: PMNode, refs: SuggestionRefs, from: number, to: number) {
  const { serialized } = quoteMatcher(doc, refs);
  const units = serialized.units.filter((unit) => unit.from >= from && unit.to <= to);
  const first = units[0];
  const last = units[units.length - 1];
  if (!first || !last) return undefined;
  return quoteFor(doc, refs, first.from, last.to, serialized.markdown.slice(first.md, last.mdEnd));
}

/** A quote that lands in a text block, for an insert's anchor: one of its last words, the ones nearest a split. */
function anchorQuote(doc: PMNode, refs: SuggestionRefs, from: number, to: number) {
  const words: [number, number][] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isText) return true;
    for (const word of node.text!.matchAll(/\S+/g))
      words.push([pos + word.index, pos + word.index + word[0].length]);
    return false;
  });
  for (const [start, end] of words.slice(-3).reverse()) {
    const quote = quoteFor(doc, refs, start, end);
    if (quote) return quote;
  }
  return undefined;
}

/** Blocks as the markdown an insert takes. */
const markdownOf = (blocks: readonly PMNode[], refs: SuggestionRefs) =>
  serializeWorking(workingOf(engineSchema.nodes.doc.create(null, blocks), refs)).markdown;

/**
 * The blocks an insert after the first changed text block adds, when the API can place them there: the top-level
 * blocks after a top-level one, or the items after a list item's in its list (an insert of a list beside an item
 * joins that list). Undefined for any other place (a paragraph in a block quote: an insert lands after the quote).
 */
function insertedBlocks(target: PMNode, first: number, last: number): PMNode[] | undefined {
  const $first = target.resolve(first);
  const $last = target.resolve(last);
  if ($first.depth === 1) {
    const blocks: PMNode[] = [];
    for (let i = $first.index(0) + 1; i <= $last.index(0); i++) blocks.push(target.child(i));
    return blocks;
  }
  const listDepth = $first.depth - 2;
  if ($first.node(-1).type !== engineSchema.nodes.list_item) return undefined;
  if ($last.depth <= listDepth || $last.before(listDepth) !== $first.before(listDepth)) return undefined;
  const list = $first.node(listDepth);
  const items: PMNode[] = [];
  for (let i = $first.index(listDepth) + 1; i <= $last.index(listDepth); i++) items.push(list.child(i));
  return items.length ? [list.copy(Fragment.fromArray(items))] : undefined;
}

/**
 * A change from the first changed text block to the last, in a few operations: the blocks after the first, up to the
 * last, deleted by a quote of their whole text (a join); the new blocks after the first inserted after it (a split,
 * a paste); the first block's own text replaced. Deleting first and replacing last keeps every position of the first
 * block as it is in `before`.
 */
function acrossBlocks(server: Working, target: PMNode, mode: EditMode): Operation[] | undefined {
  const changed = changedRange(server.doc, target);
  if (!changed) return undefined;
  // Blocks of different types (a heading joined by the paragraph after it) differ to their very end: the change
  // then ends at the end of their text.
  const intoText = (doc: PMNode, pos: number) => {
    const $pos = doc.resolve(pos);
    return !$pos.parent.isTextblock && $pos.nodeBefore?.isTextblock ? pos - 1 : pos;
  };
  const endA = intoText(server.doc, changed.endA);
  const endB = intoText(target, changed.endB);
  const $first = server.doc.resolve(changed.start);
  const $last = server.doc.resolve(endA);
  const $newFirst = target.resolve(changed.start);
  const $newLast = target.resolve(endB);
  if (![$first, $last, $newFirst, $newLast].every(($pos) => $pos.parent.isTextblock)) return undefined;
  if ($first.sameParent($last) && $newFirst.sameParent($newLast)) return undefined;
  if (!$first.parent.sameMarkup($newFirst.parent)) return undefined;
  const steps = sequence(server, mode);
  if (!$first.sameParent($last)) {
    const quote = spanQuote(steps.doc, steps.refs, $first.after(), $last.end());
    if (!steps.add(quote && { type: 'delete', ...quote })) return undefined;
  }
  if (!$newFirst.sameParent($newLast)) {
    const blocks = insertedBlocks(target, changed.start, endB);
    const anchor = blocks && anchorQuote(steps.doc, steps.refs, $first.start(), $first.end());
    if (!blocks || !anchor) return undefined;
    const insert: Insert = { type: 'insert', markdown: markdownOf(blocks, steps.refs), after: anchor.find };
    if (anchor.occurrence !== undefined) insert.occurrence = anchor.occurrence;
    if (!steps.add(insert)) return undefined;
  }
  if (!$first.parent.content.eq($newFirst.parent.content)) {
    const doc = steps.doc;
    const wanted = doc.replace($first.start(), $first.end(), new Slice($newFirst.parent.content, 0, 0));
    if (!steps.add(operationFor(doc, wanted, steps.refs))) return undefined;
  }
  return steps.operations;
}

/** Where two documents' top-level blocks differ: blocks start..end of `a` are blocks start..newEnd of `b`. */
function topRange(a: PMNode, b: PMNode) {
  let start = 0;
  while (start < a.childCount && start < b.childCount && a.child(start).eq(b.child(start))) start++;
  let end = a.childCount;
  let newEnd = b.childCount;
  while (end > start && newEnd > start && a.child(end - 1).eq(b.child(newEnd - 1))) {
    end--;
    newEnd--;
  }
  return { start, end, newEnd };
}

const positionOf = (doc: PMNode, index: number) => {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += doc.child(i).nodeSize;
  return pos;
};

/**
 * The changed top-level blocks (a list, a block quote, with the paragraphs in them) deleted by a quote of their whole
 * text, and their new version inserted in their place: after the block before them, or at the start or end.
 */
function acrossTopBlocks(server: Working, target: PMNode, mode: EditMode): Operation[] | undefined {
  const { start, end, newEnd } = topRange(server.doc, target);
  const steps = sequence(server, mode);
  if (end > start) {
    const quote = spanQuote(
      steps.doc,
      steps.refs,
      positionOf(server.doc, start),
      positionOf(server.doc, end),
    );
    if (!steps.add(quote && { type: 'delete', ...quote })) return undefined;
  }
  if (newEnd > start) {
    const blocks: PMNode[] = [];
    for (let i = start; i < newEnd; i++) blocks.push(target.child(i));
    const insert: Insert = { type: 'insert', markdown: markdownOf(blocks, steps.refs) };
    const previous = start > 0 ? server.doc.child(start - 1) : undefined;
    const from = positionOf(server.doc, start - 1);
    const anchor = previous && anchorQuote(steps.doc, steps.refs, from, from + previous.nodeSize);
    if (start === 0) insert.before = 'start';
    else if (anchor) {
      insert.after = anchor.find;
      if (anchor.occurrence !== undefined) insert.occurrence = anchor.occurrence;
    } else if (end === server.doc.childCount) insert.after = 'end';
    else return undefined;
    if (!steps.add(insert)) return undefined;
  }
  return steps.operations;
}

/**
 * A local change carried onto the server's document as it now is (a 409's `current`): the page's changed top-level
 * blocks put in place of the same blocks in `current`, when the other edit changed other top-level blocks only.
 * Undefined when both changed the same ones.
 */
export function rebaseChange(before: PMNode, local: PMNode, current: PMNode): PMNode | undefined {
  const ours = topRange(before, local);
  const theirs = topRange(before, current);
  const blocks = (doc: PMNode, from: number, to = doc.childCount) => {
    const out: PMNode[] = [];
    for (let i = from; i < to; i++) out.push(doc.child(i));
    return out;
  };
  let children: PMNode[];
  if (ours.end <= theirs.start) children = [...blocks(local, 0, ours.newEnd), ...blocks(current, ours.end)];
  else if (theirs.end <= ours.start) {
    const shift = theirs.newEnd - theirs.end;
    children = [...blocks(current, 0, ours.start + shift), ...blocks(local, ours.start)];
  } else return undefined;
  return local.type.create(null, children);
}
