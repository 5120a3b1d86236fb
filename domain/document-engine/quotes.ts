// Finds a quote in a document: first in its markdown, then in its text without markup, and maps it to positions.
import type { Node as PMNode } from 'prosemirror-model';
import { targetAmbiguous, targetNotFound, type QuoteCandidate } from './errors.js';
import type { SerializedDocument } from './markdown-writer.js';
import { nodes } from './schema.js';
import { steps } from './steps.js';

export type Occurrence = number | 'first' | 'last';

export interface QuoteQuery {
  find: string;
  occurrence?: Occurrence;
  /** Text right before the quote. */
  before?: string;
  /** Text right after the quote. */
  after?: string;
}

export interface QuoteMatch {
  /** Document positions of the matched text, end exclusive. */
  from: number;
  to: number;
  /** Which reading matched: the markdown, or the text without markup. */
  reading: 'markdown' | 'text';
}

/** One way of reading the document: a string, and which document units each span of it stands for. */
interface Reading {
  name: 'markdown' | 'text';
  haystack: string;
  needle: string;
  before?: string;
  after?: string;
  /** The document range a [start, end) span of the haystack stands for, or null when it holds no text. */
  rangeOf(start: number, end: number): { from: number; to: number } | null;
}

const SNIPPET_CONTEXT = 30;
/** At most this many candidates are listed in target_ambiguous (the first ones); the body says truncated past it. */
export const MAX_CANDIDATES = 50;

/**
 * Resolves a quote to one document range. Throws target_not_found or target_ambiguous (retryable, with the
 * operation index when given). Occurrence counts among the matches left after before/after narrowing.
 */
export function matchQuote(
  doc: PMNode,
  serialized: SerializedDocument,
  query: QuoteQuery,
  operation?: number,
): QuoteMatch {
  // The text reading is built only when the markdown holds no match: it reads the whole document a character at a time.
  const readings = [() => markdownReading(serialized, query), () => textReading(doc, query)];
  let markdownCount: number | undefined;
  for (const read of readings) {
    const reading = read();
    const found = findAll(reading);
    if (found.length === 0) continue;
    // Rule 1: an occurrence past the markdown's matches is looked for in the text reading, which may hold more
    // (markup splits a quote in the markdown, not in the text).
    if (
      reading.name === 'markdown' &&
      typeof query.occurrence === 'number' &&
      query.occurrence > found.length
    ) {
      markdownCount = found.length;
      continue;
    }
    const pick = pickOccurrence(found.length, query.occurrence, operation);
    if (pick === null) {
      const candidates: QuoteCandidate[] = found.slice(0, MAX_CANDIDATES).map((match, i) => ({
        occurrence: i + 1,
        snippet: snippet(reading.haystack, match.start, match.end),
      }));
      throw targetAmbiguous(candidates, operation, found.length);
    }
    const match = found[pick]!;
    return { from: match.range.from, to: match.range.to, reading: reading.name };
  }
  if (markdownCount !== undefined) pickOccurrence(markdownCount, query.occurrence, operation);
  throw targetNotFound(
    operation,
    `The quoted text ${JSON.stringify(clip(query.find))} is not in the document${query.before || query.after ? ' with that before/after' : ''}.`,
  );
}

/** Every match of a reading (left to right, not overlapping) that stands for some text and fits before/after. */
function findAll(reading: Reading) {
  const found: Array<{ start: number; end: number; range: { from: number; to: number } }> = [];
  const { haystack, needle } = reading;
  if (!needle) return found;
  const fits = contextCheck(haystack, reading.before, reading.after);
  let at = haystack.indexOf(needle);
  while (at >= 0) {
    steps.count++;
    const end = at + needle.length;
    const range = reading.rangeOf(at, end);
    if (range && fits(at, end)) found.push({ start: at, end, range });
    at = haystack.indexOf(needle, range ? end : at + 1);
  }
  return found;
}

// How far around a match its before/after is looked for: whitespace between the two is forgiven within it.
const CONTEXT_SLACK = 200;

/**
 * Whether a match fits the quote's before and after. "Right before" is exact, but whitespace between the two is
 * forgiven: an agent often quotes "Intro:" for "Intro: ". Each match is compared directly until that has cost as
 * much as reading the haystack once; past that (a quote matched many times with a long before or after), where
 * before and after occur is found once for the whole haystack, so the check stays linear.
 */
function contextCheck(
  haystack: string,
  before: string | undefined,
  after: string | undefined,
): (start: number, end: number) => boolean {
  if (!before && !after) return () => true;
  let spent = 0;
  let index: ContextIndex | null = null;
  return (start, end) => {
    if (!index) {
      const cost = (before?.length ?? 0) + (after?.length ?? 0) + 2 * CONTEXT_SLACK;
      steps.count += cost;
      spent += cost;
      if (spent <= haystack.length)
        return fitsBefore(haystack, start, before) && fitsAfter(haystack, end, after);
      index = new ContextIndex(haystack, before, after);
    }
    return index.fitsBefore(start) && index.fitsAfter(end);
  };
}

export function fitsBefore(haystack: string, start: number, before: string | undefined): boolean {
  if (!before) return true;
  const preceding = haystack.slice(Math.max(0, start - before.length - CONTEXT_SLACK), start);
  return preceding.endsWith(before) || preceding.trimEnd().endsWith(before.trimEnd());
}

export function fitsAfter(haystack: string, end: number, after: string | undefined): boolean {
  if (!after) return true;
  const following = haystack.slice(end, end + after.length + CONTEXT_SLACK);
  return following.startsWith(after) || following.trimStart().startsWith(after.trimStart());
}

/** fitsBefore and fitsAfter answered from where before and after occur in the haystack, found in linear time. */
export class ContextIndex {
  private readonly spaceBefore: Int32Array;
  private readonly spaceAfter: Int32Array;
  private readonly trimmedBefore: string;
  private readonly trimmedAfter: string;
  private readonly beforeAt: Uint8Array | null;
  private readonly trimmedBeforeAt: Uint8Array | null;
  private readonly afterAt: Uint8Array | null;
  private readonly trimmedAfterAt: Uint8Array | null;

  constructor(
    private readonly haystack: string,
    private readonly before: string | undefined,
    private readonly after: string | undefined,
  ) {
    const n = haystack.length;
    // The whitespace run ending at each position (spaceBefore) and starting at it (spaceAfter).
    this.spaceBefore = new Int32Array(n + 1);
    this.spaceAfter = new Int32Array(n + 1);
    for (let i = 0; i < n; i++)
      this.spaceBefore[i + 1] = WHITESPACE_CHAR.test(haystack[i]!) ? this.spaceBefore[i]! + 1 : 0;
    for (let i = n - 1; i >= 0; i--)
      this.spaceAfter[i] = WHITESPACE_CHAR.test(haystack[i]!) ? this.spaceAfter[i + 1]! + 1 : 0;
    steps.count += 2 * n;
    this.trimmedBefore = before?.trimEnd() ?? '';
    this.trimmedAfter = after?.trimStart() ?? '';
    this.beforeAt = before ? occurrences(haystack, before) : null;
    this.trimmedBeforeAt = before
      ? this.trimmedBefore === before
        ? this.beforeAt
        : occurrences(haystack, this.trimmedBefore)
      : null;
    this.afterAt = after ? occurrences(haystack, after) : null;
    this.trimmedAfterAt = after
      ? this.trimmedAfter === after
        ? this.afterAt
        : occurrences(haystack, this.trimmedAfter)
      : null;
  }

  fitsBefore(start: number): boolean {
    const before = this.before;
    if (!before) return true;
    if (start >= before.length && this.beforeAt![start - before.length]) return true;
    // The window fitsBefore reads, with its trailing whitespace cut off.
    const windowStart = Math.max(0, start - before.length - CONTEXT_SLACK);
    const cut = start - Math.min(this.spaceBefore[start]!, start - windowStart);
    const trimmed = this.trimmedBefore;
    return (
      trimmed === '' ||
      (cut - windowStart >= trimmed.length && this.trimmedBeforeAt![cut - trimmed.length] === 1)
    );
  }

  fitsAfter(end: number): boolean {
    const after = this.after;
    if (!after) return true;
    if (this.afterAt![end]) return true;
    const windowEnd = Math.min(this.haystack.length, end + after.length + CONTEXT_SLACK);
    const cut = end + Math.min(this.spaceAfter[end]!, windowEnd - end);
    const trimmed = this.trimmedAfter;
    return trimmed === '' || (windowEnd - cut >= trimmed.length && this.trimmedAfterAt![cut] === 1);
  }
}

const WHITESPACE_CHAR = /\s/;

/** Where `pattern` starts in `text`, overlapping occurrences included (Knuth–Morris–Pratt: linear in both). */
function occurrences(text: string, pattern: string): Uint8Array {
  const at = new Uint8Array(text.length + 1);
  const m = pattern.length;
  if (m === 0) return at;
  const border = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && pattern.charCodeAt(i) !== pattern.charCodeAt(k)) k = border[k - 1]!;
    if (pattern.charCodeAt(i) === pattern.charCodeAt(k)) k++;
    border[i] = k;
  }
  for (let i = 0, k = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    while (k > 0 && code !== pattern.charCodeAt(k)) k = border[k - 1]!;
    if (code === pattern.charCodeAt(k)) k++;
    if (k === m) {
      at[i - m + 1] = 1;
      k = border[k - 1]!;
    }
  }
  steps.count += text.length + m;
  return at;
}

function pickOccurrence(
  count: number,
  occurrence: Occurrence | undefined,
  operation?: number,
): number | null {
  if (occurrence === 'first') return 0;
  if (occurrence === 'last') return count - 1;
  if (occurrence === undefined) return count === 1 ? 0 : null;
  if (occurrence > count) {
    throw targetNotFound(
      operation,
      `occurrence ${occurrence} was asked for, but the quote appears ${count} time${count === 1 ? '' : 's'}.`,
    );
  }
  return occurrence - 1;
}

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}…` : text);

function snippet(haystack: string, start: number, end: number): string {
  const from = Math.max(0, start - SNIPPET_CONTEXT);
  const to = Math.min(haystack.length, end + SNIPPET_CONTEXT);
  return `${from > 0 ? '…' : ''}${haystack.slice(from, to)}${to < haystack.length ? '…' : ''}`;
}

function markdownReading(serialized: SerializedDocument, query: QuoteQuery): Reading {
  return {
    name: 'markdown',
    haystack: serialized.markdown,
    needle: query.find,
    before: query.before,
    after: query.after,
    rangeOf: (start, end) => serialized.rangeOf(start, end),
  };
}

const collapse = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The text as it reads: text blocks one per line, line breaks as newlines, every run of whitespace (block
 * boundaries included) read as one space, so a quote copied from rendered text matches however it wraps.
 * Built in one pass, compact: the string, and per character of it the document span it stands for in two typed
 * arrays (-1 where it stands for no text: a space that is only block boundaries). Exported for the tests.
 */
export function textReading(doc: PMNode, query: QuoteQuery): Reading {
  // A haystack character stands for at least one document position, so the document's size bounds its length.
  const spanFrom = new Int32Array(doc.content.size + 1);
  const spanTo = new Int32Array(doc.content.size + 1);
  const parts: string[] = [];
  let length = 0;
  // The whitespace run being read: whether there is one, and the span of the text in it (-1 while none).
  let inSpace = false;
  let spaceFrom = -1;
  let spaceTo = -1;
  const space = (from: number, to: number) => {
    inSpace = true;
    if (from < 0) return;
    if (spaceFrom < 0) spaceFrom = from;
    spaceTo = to;
  };
  const endSpace = () => {
    if (!inSpace) return;
    parts.push(' ');
    spanFrom[length] = spaceFrom;
    spanTo[length] = spaceTo;
    length++;
    inSpace = false;
    spaceFrom = -1;
    spaceTo = -1;
  };
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    // A block boundary is whitespace once some character was read: an empty first block adds none.
    if (length > 0 || inSpace) space(-1, -1);
    node.forEach((child, offset) => {
      const start = pos + 1 + offset;
      if (child.type === nodes.hard_break) {
        space(start, start + 1);
        return;
      }
      if (!child.isText) return;
      const text = child.text!;
      steps.count += text.length;
      WHITESPACE.lastIndex = 0;
      let at = 0;
      for (let run = WHITESPACE.exec(text); ; run = WHITESPACE.exec(text)) {
        const wordEnd = run ? run.index : text.length;
        if (wordEnd > at) {
          endSpace();
          parts.push(text.slice(at, wordEnd));
          for (let i = at; i < wordEnd; i++, length++) {
            spanFrom[length] = start + i;
            spanTo[length] = start + i + 1;
          }
        }
        if (!run) break;
        space(start + run.index, start + run.index + run[0].length);
        at = run.index + run[0].length;
      }
    });
    return false;
  });
  endSpace();
  return {
    name: 'text',
    haystack: parts.join(''),
    needle: collapse(query.find),
    before: query.before === undefined ? undefined : collapse(query.before),
    after: query.after === undefined ? undefined : collapse(query.after),
    rangeOf: (start, end) => {
      let first = start;
      while (first < end && spanFrom[first]! < 0) first++;
      if (first === end) return null;
      let last = end - 1;
      while (spanFrom[last]! < 0) last--;
      return { from: spanFrom[first]!, to: spanTo[last]! };
    },
  };
}

const WHITESPACE = /\s+/g;
