// Writes a document as Folio markdown, recording where each character of text lands so quotes map back to positions.
// Blocks are written here; their inline content by markdown-inline-writer.ts; blocks already written come from
// markdown-write-cache.ts.
import type { Node as PMNode } from 'prosemirror-model';
import { BLOCK_MARK } from './critic-markup.js';
import { inlineFrag, note, SIGNS } from './markdown-inline-writer.js';
import {
  EMPTY,
  firstEndingAfter,
  join,
  longestRun,
  plain,
  type Frag,
  type TextUnit,
  type WriteContext,
} from './markdown-units.js';
import { cachedBlockText, cachedBlockUnits, keepBlockUnits } from './markdown-write-cache.js';
import { tightPair } from './normalize.js';
import { blockSuggestion, nodes } from './schema.js';

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

function blockText(child: PMNode, ctx: WriteContext): string {
  const signature = ctx.signature;
  if (signature === undefined) return topFrag(child, ctx).text;
  return cachedBlockText(child, signature, () => topFrag(child, ctx).text);
}

/** A top-level block written alone, positions from 0; its units are kept for the quotes that need them again. */
function topFrag(child: PMNode, ctx: WriteContext): Frag {
  const frag = blockFrag(child, 0, ctx);
  keepBlockUnits(child, ctx.signature, frag.units);
  return frag;
}

const blockUnits = (child: PMNode, ctx: WriteContext): TextUnit[] =>
  cachedBlockUnits(child, ctx.signature) ?? topFrag(child, ctx).units;

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
      units = blockUnits(blocks[i]!, ctx).map((unit) => ({
        md: unit.md + shift,
        mdEnd: unit.mdEnd + shift,
        from: unit.from + pos,
        to: unit.to + pos,
      }));
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
      let k = 0;
      for (; b < blocks.length && !first; b++) {
        k = firstEndingAfter(unitsOf(b), start);
        first = unitsOf(b)[k];
      }
      if (!first || first.md >= end) return null;
      let last: TextUnit = first;
      b--;
      for (; b < blocks.length; b++, k = 0) {
        const units = unitsOf(b);
        for (; k < units.length && units[k]!.md < end; k++) last = units[k]!;
        if (k < units.length) break;
      }
      return { from: first.from, to: last.to };
    },
  };
}

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

function blocksFrag(
  parent: PMNode,
  contentStart: number,
  ctx: WriteContext,
  separator: string,
  firstRule: string,
): Frag {
  const frags: Frag[] = [];
  const separators: string[] = [];
  let previous: PMNode | null = null;
  parent.forEach((child, offset) => {
    const tight = previous !== null && separator === '\n' && tightPair(previous, child);
    if (previous) separators.push(tight ? '\n' : '\n\n');
    // A rule right under a paragraph must not be "---", which would make the paragraph a heading.
    frags.push(
      blockFrag(child, contentStart + offset, ctx, offset === 0 ? firstRule : tight ? '***' : '---'),
    );
    previous = child;
  });
  return join(frags, separators);
}

function blockMarker(node: PMNode, ctx: WriteContext): string {
  const marker = blockSuggestion(node);
  if (!marker) return '';
  const sign = SIGNS[marker.kind];
  return `{${sign}${BLOCK_MARK}${sign}}${note(ctx.refOf(marker.thread))}`;
}

/** `rule` is how a horizontal rule is written at this place ("***" where "---" would read otherwise). */
function blockFrag(node: PMNode, pos: number, ctx: WriteContext, rule = '---'): Frag {
  const marker = blockMarker(node, ctx);
  switch (node.type) {
    case nodes.paragraph: {
      const inline = inlineFrag(node, pos + 1, ctx, false);
      // "[`]:`](url)" would open the paragraph as a link reference definition: code spans cannot escape "]".
      const guard = !marker && looksLikeDefinition(inline.text) ? '<span></span>' : '';
      return join([plain(marker + guard), inline], '');
    }
    case nodes.heading:
      return join(
        [plain(`${'#'.repeat(node.attrs.level as number)} ${marker}`), inlineFrag(node, pos + 1, ctx, true)],
        '',
      );
    case nodes.code_block:
      // A fence cannot hold CriticMarkup, so its marker stands alone on the line before.
      return marker ? join([plain(marker), codeFrag(node, pos)], '\n\n') : codeFrag(node, pos);
    case nodes.horizontal_rule: {
      const frag: Frag = { text: rule, units: [{ md: 0, mdEnd: rule.length, from: pos, to: pos + 1 }] };
      return marker ? join([plain(marker), frag], '\n\n') : frag;
    }
    case nodes.blockquote:
      return indent(blocksFrag(node, pos + 1, ctx, '\n\n', '---'), '> ', '> ');
    case nodes.bullet_list:
    case nodes.ordered_list: {
      const items: Frag[] = [];
      const ordered = node.type === nodes.ordered_list;
      const tight = node.attrs.tight !== false;
      const bulletChar = ordered ? '' : (node.attrs.bullet as string);
      // "- ---" and "* ***" would read as a rule instead of an item holding one.
      const firstRule = bulletChar === '-' ? '***' : '---';
      // A loose list needs one blank line to read as loose: one inside an item is enough, else one between items.
      let blankInside = false;
      node.forEach((item) => (blankInside ||= item.childCount > 1));
      node.forEach((item, offset, index) => {
        const bullet = ordered
          ? `${(node.attrs.order as number) + index}${node.attrs.delimiter as string} `
          : `${bulletChar} `;
        const body = blocksFrag(item, pos + 1 + offset + 1, ctx, tight ? '\n' : '\n\n', firstRule);
        const pad = ' '.repeat(bullet.length);
        // "- - -" (an item holding a list holding a list with an empty item) would read as a rule: the item's
        // content starts on the next line instead.
        const firstLine = bullet + body.text.split('\n', 1)[0]!;
        if (THEMATIC_BREAK.test(firstLine))
          items.push(join([plain(bullet.trimEnd()), indent(body, pad, pad)], '\n'));
        else items.push(indent(body, bullet, pad));
      });
      return join(items, tight || blankInside ? '\n' : '\n\n');
    }
    default:
      return EMPTY;
  }
}

const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;

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
  // The info string reads backslash escapes and entities, so a backslash or & in the language is escaped.
  const head = `${fence}${(node.attrs.language as string).replace(/[\\&]/g, (ch) => `\\${ch}`)}\n`;
  if (text === '') return plain(`${head}${fence}`);
  const units: TextUnit[] = [];
  for (let i = 0; i < text.length; i++)
    units.push({ md: head.length + i, mdEnd: head.length + i + 1, from: pos + 1 + i, to: pos + 2 + i });
  return { text: `${head}${text}\n${fence}`, units };
}
