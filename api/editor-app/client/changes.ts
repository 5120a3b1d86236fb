// The editor page's doc → operations mapping (docs/editor.md § How changes map to operations), kept free of the DOM so
// that test/unit/editor/ can run it over the CommonMark spec's examples in Node. The page's script (editor.ts) holds
// the view; this module decides what a local change sends.
import { Node as PMNode, type Mark, type Schema } from 'prosemirror-model';
import { parseMarkdown } from '../../../domain/document-engine/markdown.js';
import { inlineFrag } from '../../../domain/document-engine/markdown-inline-writer.js';
import type { WriteContext } from '../../../domain/document-engine/markdown-units.js';
import { matchQuote } from '../../../domain/document-engine/quotes.js';
import { isAnchorMark, schema as engineSchema } from '../../../domain/document-engine/schema.js';
import { serializeWorking, type SuggestionAnchor } from '../../../domain/document-engine/state.js';

export interface Operation {
  type: 'replace';
  find: string;
  with: string;
  occurrence?: number;
}

/** Open suggestions by the ref the markdown names them with (`s3` → 3), as the content's threads give them. */
export type SuggestionRefs = ReadonlyMap<number, string>;

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

/** The server's document as the engine matches quotes in it, and the range a quote with an occurrence reads as there. */
function quoteMatcher(serverDoc: PMNode, refs: SuggestionRefs) {
  // The server matches the quote as the engine does (quotes.ts: its markdown first, then its text without markup);
  // the page asks the same function which range a quote reads as.
  const doc = PMNode.fromJSON(engineSchema, serverDoc.toJSON());
  const threads: SuggestionAnchor[] = [...refs].map(([ref, id]) => ({
    id,
    kind: 'suggestion',
    ref,
    status: 'open',
    resolution: null,
    format: null,
    blockType: null,
  }));
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
): Operation | undefined {
  const start = before.content.findDiffStart(after.content);
  if (start === null) return undefined;
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
): Operation | undefined {
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
  const operation: Operation = {
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
): Operation | undefined {
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
  const operation: Operation = { type: 'replace', find: quote.find, with: replacement };
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
  operation: Operation,
  before: PMNode,
  beforeRefs: SuggestionRefs,
  current: PMNode,
  currentRefs: SuggestionRefs,
): Operation | undefined {
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
  const rebased: Operation = { type: 'replace', find: quote.find, with: operation.with };
  if (quote.occurrence !== undefined) rebased.occurrence = quote.occurrence;
  return rebased;
}
