// Writes a document as Folio markdown, recording where each character of text lands so quotes map back to positions.
import { Fragment, type Mark, type Node as PMNode } from 'prosemirror-model';
import { BLOCK_MARK } from './critic-markup.js';
import { linkDestination } from './links.js';
import { parseInlineMarkdown } from './markdown.js';
import { blockSuggestion, marks, nodes, type SuggestionKind } from './schema.js';

/** One character of text (or one leaf: a rule, an image, a line break) and where it was written. */
export interface TextUnit {
  /** Offsets in the markdown, end exclusive; an escaped character spans its backslash too. */
  md: number;
  mdEnd: number;
  /** Document positions, end exclusive. */
  from: number;
  to: number;
}

export interface SerializedDocument {
  markdown: string;
  /** In document order, which is also markdown order. Built on first use: a whole document's units are many. */
  readonly units: TextUnit[];
  /**
   * The document range a [start, end) span of the markdown stands for (from the first unit ending after start to
   * the last unit starting before end), or null when it holds no text. Reads only the units of the blocks it needs.
   */
  rangeOf(start: number, end: number): { from: number; to: number } | null;
}

/** Open suggestions by thread id and by ref: the writer names refs, the verification reads them back. */
export interface WriteContext {
  refOf(thread: string): number | null;
  suggestionRefs: ReadonlyMap<number, string>;
  /** Names the refs above; blocks written under the same signature are reused from a cache. */
  signature?: string;
}

interface Frag {
  text: string;
  units: TextUnit[];
}

const EMPTY: Frag = { text: '', units: [] };

// Top-level blocks a document shares with an earlier version (ProseMirror keeps unchanged nodes) are written
// once: an edit of many operations serializes the document once per operation to match quotes. Only the text is
// kept; a block's units (one per character) are written again when a quote needs them.
const blockCache = new WeakMap<PMNode, { signature: string; text: string }>();
const unitCache = new WeakMap<PMNode, { signature: string | undefined; units: TextUnit[] }>();

// Blocks equal in content (a document read again from its stored JSON has new nodes but the same blocks) are
// found by their JSON, least recently used first out, up to a bound on the characters kept.
const CONTENT_CACHE_CHARS = 32_000_000;
const CONTENT_BLOCK_MIN_CHARS = 64;
const contentCache = new Map<string, string>();
let contentCacheChars = 0;

function cachedByContent(key: string): string | undefined {
  const text = contentCache.get(key);
  if (text !== undefined) {
    contentCache.delete(key);
    contentCache.set(key, text);
  }
  return text;
}

function cacheByContent(key: string, text: string) {
  const size = key.length + text.length;
  if (size > CONTENT_CACHE_CHARS / 4 || contentCache.has(key)) return;
  contentCache.set(key, text);
  contentCacheChars += size;
  for (const [oldKey, oldText] of contentCache) {
    if (contentCacheChars <= CONTENT_CACHE_CHARS) break;
    contentCache.delete(oldKey);
    contentCacheChars -= oldKey.length + oldText.length;
  }
}

// The stored JSON a top-level block was read from (see toWorking): writing it is cheaper than writing the node's own
// JSON, and equal JSON reads as equal nodes, so it names the block's content as well.
const sourceJson = new WeakMap<PMNode, object>();

/**
 * Records the stored JSON each top-level block of a document was just read from. The caller keeps the nodes only for
 * a synchronous call, so the JSON cannot change while they are in use.
 */
export function rememberSources(doc: PMNode, content: unknown): void {
  if (!Array.isArray(content) || content.length !== doc.childCount) return;
  doc.forEach((child, _offset, index) => {
    const json: unknown = content[index];
    if (typeof json === 'object' && json !== null) sourceJson.set(child, json);
  });
}

function blockText(child: PMNode, ctx: WriteContext): string {
  const signature = ctx.signature;
  if (signature === undefined) return topFrag(child, ctx).text;
  const hit = blockCache.get(child);
  if (hit && hit.signature === signature) return hit.text;
  const json = JSON.stringify(sourceJson.get(child) ?? child);
  const key = json.length >= CONTENT_BLOCK_MIN_CHARS ? `${signature}\u0000${json}` : null;
  let text = key === null ? undefined : cachedByContent(key);
  if (text === undefined) {
    text = topFrag(child, ctx).text;
    if (key !== null) cacheByContent(key, text);
  }
  blockCache.set(child, { signature, text });
  return text;
}

/** A top-level block written alone, positions from 0; its units are kept for the quotes that need them again. */
function topFrag(child: PMNode, ctx: WriteContext): Frag {
  const frag = blockFrag(child, 0, ctx, false);
  unitCache.set(child, { signature: ctx.signature, units: frag.units });
  return frag;
}

function blockUnits(child: PMNode, ctx: WriteContext): TextUnit[] {
  const hit = unitCache.get(child);
  if (hit && hit.signature !== undefined && hit.signature === ctx.signature) return hit.units;
  return topFrag(child, ctx).units;
}

export function serializeDoc(doc: PMNode, ctx: WriteContext): SerializedDocument {
  const blocks: PMNode[] = [];
  const positions: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const texts: string[] = [];
  let length = 0;
  doc.forEach((child, offset) => {
    if (blocks.length > 0) length += 2;
    const text = blockText(child, ctx);
    blocks.push(child);
    positions.push(offset);
    starts.push(length);
    texts.push(text);
    length += text.length;
    ends.push(length);
  });
  const markdown = texts.join('\n\n');

  // The units of block i, moved to where the block sits in the document and the markdown.
  const moved: Array<TextUnit[] | undefined> = [];
  const unitsOf = (i: number): TextUnit[] => {
    let units = moved[i];
    if (!units) {
      const shift = starts[i]!;
      const pos = positions[i]!;
      units = blockUnits(blocks[i]!, ctx).map((unit) => ({ md: unit.md + shift, mdEnd: unit.mdEnd + shift, from: unit.from + pos, to: unit.to + pos }));
      moved[i] = units;
    }
    return units;
  };
  let all: TextUnit[] | null = null;

  return {
    markdown,
    get units() {
      if (!all) {
        all = [];
        for (let i = 0; i < blocks.length; i++) for (const unit of unitsOf(i)) all.push(unit);
      }
      return all;
    },
    rangeOf(start, end) {
      // The first block that may hold a unit ending after start: every unit of a block ends by the block's end.
      let lo = 0;
      let hi = blocks.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ends[mid]! <= start) lo = mid + 1;
        else hi = mid;
      }
      let first: TextUnit | undefined;
      let b = lo;
      for (; b < blocks.length && !first; b++) first = unitsOf(b).find((unit) => unit.mdEnd > start);
      if (!first || first.md >= end) return null;
      let last: TextUnit = first;
      b--;
      let k = unitsOf(b).indexOf(first);
      for (; b < blocks.length; b++, k = 0) {
        const units = unitsOf(b);
        for (; k < units.length && units[k]!.md < end; k++) last = units[k]!;
        if (k < units.length) break;
      }
      return { from: first.from, to: last.to };
    },
  };
}

/** Inline content alone (a suggestion's text for the API), without line context. */
export function serializeInline(content: readonly PMNode[], ctx: WriteContext): string {
  const paragraph = nodes.paragraph.create(null, Fragment.fromArray([...content]));
  return inlineFrag(paragraph, 1, ctx, false).text;
}

/** Joins fragments; `separator` is one string for every gap, or one per gap; `positions` moves each one's units. */
function join(frags: Frag[], separator: string | string[], positions?: number[]): Frag {
  let text = '';
  const units: TextUnit[] = [];
  frags.forEach((frag, i) => {
    if (i > 0) text += typeof separator === 'string' ? separator : separator[i - 1]!;
    const shift = text.length;
    const moved = positions?.[i] ?? 0;
    for (const unit of frag.units) {
      units.push({ md: unit.md + shift, mdEnd: unit.mdEnd + shift, from: unit.from + moved, to: unit.to + moved });
    }
    text += frag.text;
  });
  return { text, units };
}

const plain = (text: string): Frag => ({ text, units: [] });

/** Prefixes every line (first line `first`, the rest `rest`); blank lines get the prefix without trailing spaces. */
function indent(frag: Frag, first: string, rest: string): Frag {
  const lines = frag.text.split('\n');
  const oldStarts: number[] = [];
  const newStarts: number[] = [];
  const prefixLengths: number[] = [];
  let oldPos = 0;
  let text = '';
  lines.forEach((line, i) => {
    if (i > 0) text += '\n';
    const prefix = i === 0 ? first : rest;
    const written = line === '' ? prefix.trimEnd() : prefix;
    oldStarts.push(oldPos);
    newStarts.push(text.length);
    prefixLengths.push(written.length);
    text += written + line;
    oldPos += line.length + 1;
  });
  const map = (offset: number) => {
    let lo = 0;
    let hi = oldStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (oldStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return newStarts[lo]! + prefixLengths[lo]! + (offset - oldStarts[lo]!);
  };
  return { text, units: frag.units.map((unit) => ({ ...unit, md: map(unit.md), mdEnd: map(unit.mdEnd) })) };
}

function blocksFrag(parent: PMNode, contentStart: number, ctx: WriteContext, separator: string, inBulletItem: boolean): Frag {
  const frags: Frag[] = [];
  const separators: string[] = [];
  let previous: PMNode | null = null;
  parent.forEach((child, offset) => {
    if (previous) separators.push(tightAfter(parent, previous, child) ? '\n' : separator);
    frags.push(blockFrag(child, contentStart + offset, ctx, inBulletItem && offset === 0));
    previous = child;
  });
  return join(frags, separators);
}

// In a list item, a nested list right after the item's text reads best without a blank line; only a list that
// may interrupt a paragraph (bullets, or numbers from 1) can follow it that way.
const tightAfter = (parent: PMNode, previous: PMNode, next: PMNode) =>
  parent.type === nodes.list_item &&
  previous.type === nodes.paragraph &&
  (next.type === nodes.bullet_list || (next.type === nodes.ordered_list && next.attrs.order === 1));

const SIGNS: Record<SuggestionKind, string> = { insert: '++', delete: '--', format: '==' };

const note = (ref: number | null) => (ref === null ? '' : `{>>s${ref}<<}`);

function blockMarker(node: PMNode, ctx: WriteContext): string {
  const marker = blockSuggestion(node);
  if (!marker) return '';
  const sign = SIGNS[marker.kind];
  return `{${sign}${BLOCK_MARK}${sign}}${note(ctx.refOf(marker.thread))}`;
}

function blockFrag(node: PMNode, pos: number, ctx: WriteContext, firstInBulletItem: boolean): Frag {
  const marker = blockMarker(node, ctx);
  switch (node.type) {
    case nodes.paragraph: {
      const inline = inlineFrag(node, pos + 1, ctx, false);
      // "[`]:`](url)" would open the paragraph as a link reference definition: code spans cannot escape "]".
      const guard = !marker && looksLikeDefinition(inline.text) ? '<span></span>' : '';
      return join([plain(marker + guard), inline], '');
    }
    case nodes.heading:
      return join([plain(`${'#'.repeat(node.attrs.level as number)} ${marker}`), inlineFrag(node, pos + 1, ctx, true)], '');
    case nodes.code_block:
      // A fence cannot hold CriticMarkup, so its marker stands alone on the line before.
      return marker ? join([plain(marker), codeFrag(node, pos)], '\n\n') : codeFrag(node, pos);
    case nodes.horizontal_rule: {
      // "- ---" would read as a rule instead of an item holding one.
      const rule = firstInBulletItem ? '***' : '---';
      const frag: Frag = { text: rule, units: [{ md: 0, mdEnd: rule.length, from: pos, to: pos + 1 }] };
      return marker ? join([plain(marker), frag], '\n\n') : frag;
    }
    case nodes.blockquote:
      return indent(blocksFrag(node, pos + 1, ctx, '\n\n', false), '> ', '> ');
    case nodes.bullet_list:
    case nodes.ordered_list: {
      const items: Frag[] = [];
      const ordered = node.type === nodes.ordered_list;
      node.forEach((item, offset, index) => {
        const bullet = ordered ? `${(node.attrs.order as number) + index}. ` : '- ';
        const body = blocksFrag(item, pos + 1 + offset + 1, ctx, '\n\n', !ordered);
        items.push(indent(body, bullet, ' '.repeat(bullet.length)));
      });
      return join(items, '\n');
    }
    default:
      return EMPTY;
  }
}

function looksLikeDefinition(text: string): boolean {
  if (!text.startsWith('[')) return false;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ']') return text[i + 1] === ':';
  }
  return false;
}

function codeFrag(node: PMNode, pos: number): Frag {
  const text = node.textContent;
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  const head = `${fence}${node.attrs.language as string}\n`;
  if (text === '') return plain(`${head}${fence}`);
  const units: TextUnit[] = [];
  for (let i = 0; i < text.length; i++) units.push({ md: head.length + i, mdEnd: head.length + i + 1, from: pos + 1 + i, to: pos + 2 + i });
  return { text: `${head}${text}\n${fence}`, units };
}

function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

// --- Inline content -------------------------------------------------------------------------------------------

/** A piece of syntax wrapped around a run of inline content. */
interface Wrapper {
  id: string;
  rank: number;
  open: string;
  close: string;
  /** For {~~old~>new~~}: the index of the first item of the new text. */
  split?: number;
}

interface Item {
  node: PMNode;
  pos: number;
  /** Where the item starts in the block's flattened text. */
  at: number;
  wrappers: Wrapper[];
  code: boolean;
}

const DELIMITERS = (html: boolean) => ({
  strong: html ? ['<strong>', '</strong>'] : ['**', '**'],
  em: html ? ['<em>', '</em>'] : ['*', '*'],
  s: html ? ['<s>', '</s>'] : ['~~', '~~'],
});

function formatWrapper(mark: Mark, html: boolean): Wrapper | null {
  const delimiters = DELIMITERS(html);
  switch (mark.type) {
    case marks.link:
      return { id: `link:${mark.attrs.href as string}`, rank: 1, open: '[', close: `](${linkDestination(mark.attrs.href as string)})` };
    case marks.underline:
      return { id: 'u', rank: 2, open: '<u>', close: '</u>' };
    case marks.text_color:
      return { id: `color:${mark.attrs.color as string}`, rank: 3, open: `<span data-color="${mark.attrs.color as string}">`, close: '</span>' };
    case marks.highlight:
      return { id: `mark:${mark.attrs.color as string}`, rank: 4, open: `<mark data-color="${mark.attrs.color as string}">`, close: '</mark>' };
    case marks.strong:
      return { id: 'strong', rank: 5, open: delimiters.strong[0]!, close: delimiters.strong[1]! };
    case marks.em:
      return { id: 'em', rank: 6, open: delimiters.em[0]!, close: delimiters.em[1]! };
    case marks.strikethrough:
      return { id: 's', rank: 7, open: delimiters.s[0]!, close: delimiters.s[1]! };
    default:
      return null;
  }
}

const SUGGESTION_TYPES: Array<[SuggestionKind, string]> = [
  ['insert', 'suggest_insert'],
  ['delete', 'suggest_delete'],
  ['format', 'suggest_format'],
];

/**
 * CriticMarkup wrappers: one per run of a suggestion's marks; a run of removed text followed at once by a run of
 * added text of the same suggestion becomes one {~~old~>new~~}.
 */
function suggestionWrappers(children: readonly PMNode[], ctx: WriteContext): Wrapper[][] {
  const runIds: Array<Map<string, string>> = children.map(() => new Map());
  children.forEach((child, i) => {
    for (const [kind, typeName] of SUGGESTION_TYPES) {
      for (const mark of child.marks) {
        if (mark.type.name !== typeName) continue;
        const key = `${kind}:${mark.attrs.thread as string}`;
        runIds[i]!.set(key, runIds[i - 1]?.get(key) ?? `${key}:${i}`);
      }
    }
  });
  const replacements = new Map<string, { id: string; split: number }>();
  for (let j = 0; j + 1 < children.length; j++) {
    for (const [key, runId] of runIds[j]!) {
      if (!key.startsWith('delete:')) continue;
      const thread = key.slice('delete:'.length);
      const insertKey = `insert:${thread}`;
      const insertRun = runIds[j + 1]!.get(insertKey);
      if (runIds[j + 1]!.has(key) || runIds[j]!.has(insertKey) || insertRun !== `${insertKey}:${j + 1}`) continue;
      const replacement = { id: `replace:${thread}:${runId}`, split: j + 1 };
      replacements.set(runId, replacement);
      replacements.set(insertRun, replacement);
    }
  }
  return runIds.map((runs) => {
    const wrappers: Wrapper[] = [];
    for (const [key, runId] of runs) {
      const thread = key.slice(key.indexOf(':') + 1);
      const ref = note(ctx.refOf(thread));
      const replacement = replacements.get(runId);
      if (replacement) {
        if (!wrappers.some((wrapper) => wrapper.id === replacement.id)) {
          wrappers.push({ id: replacement.id, rank: 0, open: '{~~', close: `~~}${ref}`, split: replacement.split });
        }
        continue;
      }
      const sign = SIGNS[key.slice(0, key.indexOf(':')) as SuggestionKind];
      wrappers.push({ id: runId, rank: 0, open: `{${sign}`, close: `${sign}}${ref}` });
    }
    return wrappers;
  });
}

function inlineFrag(block: PMNode, contentStart: number, ctx: WriteContext, heading: boolean): Frag {
  // Comments are not written, so they must not split the text either: the markdown is the same with or without them.
  const children: PMNode[] = [];
  const visible: PMNode[] = [];
  block.forEach((child) => {
    const commented = child.marks.some((mark) => mark.type === marks.comment);
    visible.push(commented ? child.mark(child.marks.filter((mark) => mark.type !== marks.comment)) : child);
  });
  Fragment.fromArray(visible).forEach((child) => children.push(child));
  const needsCheck = children.some((child) => child.marks.some((mark) => mark.type === marks.strong || mark.type === marks.em || mark.type === marks.strikethrough));
  const frag = writeInline(children, contentStart, ctx, heading, false);
  if (!needsCheck || readsBack(frag.text, children, ctx)) return frag;
  // ** * ~~ depend on the characters around them; where they would not read back, the equivalent tags do.
  return writeInline(children, contentStart, ctx, heading, true);
}

function readsBack(text: string, children: readonly PMNode[], ctx: WriteContext): boolean {
  try {
    const expected = Fragment.fromArray([...children]);
    const actual = Fragment.fromArray(parseInlineMarkdown(text, { suggestionRefs: ctx.suggestionRefs }));
    return actual.eq(expected);
  } catch {
    return false;
  }
}

function writeInline(children: readonly PMNode[], contentStart: number, ctx: WriteContext, heading: boolean, html: boolean): Frag {
  const critic = suggestionWrappers(children, ctx);
  const items: Item[] = [];
  let flat = '';
  let pos = contentStart;
  children.forEach((node, i) => {
    const wrappers = [...critic[i]!];
    for (const mark of node.marks) {
      const wrapper = formatWrapper(mark, html);
      if (wrapper) wrappers.push(wrapper);
    }
    items.push({ node, pos, at: flat.length, wrappers, code: marks.code.isInSet(node.marks) !== undefined });
    flat += node.isText ? node.text! : node.type === nodes.hard_break ? '\n' : '\uFFFC';
    pos += node.nodeSize;
  });
  const ids = items.map((item) => new Set(item.wrappers.map((wrapper) => wrapper.id)));
  const extent = (id: string, from: number) => {
    let j = from;
    while (j < items.length && ids[j]!.has(id)) j++;
    return j - from;
  };
  const escapes = lineStartEscapes(flat, heading);

  let out = '';
  const units: TextUnit[] = [];
  const stack: Wrapper[] = [];

  let i = 0;
  while (i < items.length) {
    const item = items[i]!;
    let keep = 0;
    while (keep < stack.length && ids[i]!.has(stack[keep]!.id)) keep++;
    let split = false;
    for (let s = 0; s < keep; s++) {
      if (stack[s]!.split === i) {
        keep = s + 1;
        split = true;
        break;
      }
    }
    while (stack.length > keep) out += stack.pop()!.close;
    if (split) out += '~>';
    const open = new Set(stack.map((wrapper) => wrapper.id));
    const toOpen = item.wrappers
      .filter((wrapper) => !open.has(wrapper.id))
      .sort((a, b) => extent(b.id, i) - extent(a.id, i) || a.rank - b.rank);
    for (const wrapper of toOpen) {
      out += wrapper.open;
      if (wrapper.split !== undefined && i >= wrapper.split) out += '~>';
      stack.push(wrapper);
    }

    if (item.code && item.node.isText) {
      // A code span is written whole: its fence depends on every backtick inside it.
      let j = i;
      const splitsAt = (k: number) => items[k]!.wrappers.some((wrapper) => wrapper.split === k);
      while (j < items.length && items[j]!.code && items[j]!.node.isText && sameIds(ids[j]!, ids[i]!) && (j === i || !splitsAt(j))) j++;
      out = writeCode(items.slice(i, j), out, units);
      i = j;
      continue;
    }

    const node = item.node;
    if (node.isText) {
      const text = node.text!;
      for (let k = 0; k < text.length; k++) {
        const at = item.at + k;
        const written = escapeChar(flat, at, out[out.length - 1] ?? '\n', escapes, k === text.length - 1 && i + 1 < items.length);
        units.push({ md: out.length, mdEnd: out.length + written.length, from: item.pos + k, to: item.pos + k + 1 });
        out += written;
      }
    } else {
      const written = node.type === nodes.hard_break ? '\\\n' : `![${escapeAlt(node.attrs.alt as string)}](${linkDestination(node.attrs.src as string)})`;
      units.push({ md: out.length, mdEnd: out.length + written.length, from: item.pos, to: item.pos + 1 });
      out += written;
    }
    i++;
  }
  while (stack.length > 0) out += stack.pop()!.close;
  return { text: out, units };
}

const sameIds = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((id) => b.has(id));

function writeCode(run: Item[], before: string, units: TextUnit[]): string {
  const content = run.map((item) => item.node.text!).join('');
  const fence = '`'.repeat(longestRun(content, '`') + 1);
  // One space comes off each end when both ends are spaces and the span is not all spaces; a backtick at an end
  // would join the fence.
  const pad = content.startsWith('`') || content.endsWith('`') || (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content)) ? ' ' : '';
  let out = before + fence + pad;
  for (const item of run) {
    const text = item.node.text!;
    for (let k = 0; k < text.length; k++) {
      units.push({ md: out.length, mdEnd: out.length + 1, from: item.pos + k, to: item.pos + k + 1 });
      out += text[k];
    }
  }
  return out + pad + fence;
}

const escapeAlt = (alt: string) => alt.replace(/[\\`*_[\]{}<>&!]/g, (ch) => `\\${ch}`);

const WORD = /[\p{L}\p{N}]/u;

/** Indexes of characters that would start block syntax at the start of a line (a block's start, or after a break). */
function lineStartEscapes(flat: string, heading: boolean): Set<number> {
  const escapes = new Set<number>();
  for (let start = 0; start <= flat.length; start = flat.indexOf('\n', start) + 1) {
    const rest = flat.slice(start);
    const ordered = /^(\d{1,9})[.)](?=[ \t\n]|$)/.exec(rest);
    if (ordered) escapes.add(start + ordered[1]!.length);
    else if (/^[#>+=-]/.test(rest)) escapes.add(start);
    if (flat.indexOf('\n', start) < 0) break;
  }
  if (heading) {
    // "Title #" would lose its closing #s.
    const closing = /(^|\s)(#+)$/.exec(flat);
    if (closing) escapes.add(flat.length - closing[2]!.length);
  }
  return escapes;
}

function escapeChar(flat: string, at: number, lastOut: string, escapes: Set<number>, lastInNode: boolean): string {
  const ch = flat[at]!;
  if (escapes.has(at)) return `\\${ch}`;
  switch (ch) {
    case '\\':
    case '*':
    case '`':
    case '[':
    case ']':
    case '{':
      return `\\${ch}`;
    case '_':
      // Inside a word (letters written on both sides of it) _ cannot open or close emphasis.
      return WORD.test(lastOut) && WORD.test(flat[at + 1] ?? '') && !lastInNode ? ch : '\\_';
    case '~':
      return flat[at - 1] === '~' || flat[at + 1] === '~' || lastOut === '~' || lastInNode ? '\\~' : ch;
    case '<':
      // A tag, or an autolink such as <a@b.c>, may start at any "<" not followed by a space.
      return /^\s?$/.test(flat[at + 1] ?? '') && !lastInNode ? ch : '\\<';
    case '&':
      return /^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(flat.slice(at, at + 40)) ? '\\&' : ch;
    case '}':
      return '+-~=<'.includes(lastOut) ? '\\}' : ch;
    case '>':
      return lastOut === '~' ? '\\>' : ch;
    case '!':
      return lastInNode ? '\\!' : ch;
    case '¶':
      return '&para;';
    default:
      return ch;
  }
}
