// Writes inline content (the text of a paragraph, a heading, a list item) as Folio markdown: marks, the convention's
// HTML tags, CriticMarkup of suggestions and escapes, with a unit per character of text.
import { Fragment, type Mark, type Node as PMNode } from 'prosemirror-model';
import { linkTarget } from './links.js';
import { parseInlineMarkdown } from './markdown.js';
import { longestRun, type Frag, type TextUnit, type WriteContext } from './markdown-units.js';
import { marks, nodes, type SuggestionKind } from './schema.js';

export const SIGNS: Record<SuggestionKind, string> = { insert: '++', delete: '--', format: '==' };

/** The {>>sN<<} that names a suggestion after its CriticMarkup; nothing for a thread without a ref. */
export const note = (ref: number | null) => (ref === null ? '' : `{>>s${ref}<<}`);

/** Inline content alone (a suggestion's text for the API), without line context. */
export function serializeInline(content: readonly PMNode[], ctx: WriteContext): string {
  const paragraph = nodes.paragraph.create(null, Fragment.fromArray([...content]));
  return inlineFrag(paragraph, 1, { ...ctx, fragment: true }, false).text;
}

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
    case marks.link: {
      const target = linkTarget(mark.attrs.href as string, mark.attrs.title as string | null);
      return { id: `link:${target}`, rank: 1, open: '[', close: `](${target})` };
    }
    case marks.underline:
      return { id: 'u', rank: 2, open: '<u>', close: '</u>' };
    case marks.text_color:
      return {
        id: `color:${mark.attrs.color as string}`,
        rank: 3,
        open: `<span data-color="${mark.attrs.color as string}">`,
        close: '</span>',
      };
    case marks.highlight:
      return {
        id: `mark:${mark.attrs.color as string}`,
        rank: 4,
        open: `<mark data-color="${mark.attrs.color as string}">`,
        close: '</mark>',
      };
    case marks.strong:
      return {
        id: `strong:${mark.attrs.depth as number}`,
        rank: 5,
        open: delimiters.strong[0]!,
        close: delimiters.strong[1]!,
      };
    case marks.em:
      return {
        id: `em:${mark.attrs.depth as number}`,
        rank: 6,
        open: delimiters.em[0]!,
        close: delimiters.em[1]!,
      };
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
      if (runIds[j + 1]!.has(key) || runIds[j]!.has(insertKey) || insertRun !== `${insertKey}:${j + 1}`)
        continue;
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
          wrappers.push({
            id: replacement.id,
            rank: 0,
            open: '{~~',
            close: `~~}${ref}`,
            split: replacement.split,
          });
        }
        continue;
      }
      const sign = SIGNS[key.slice(0, key.indexOf(':')) as SuggestionKind];
      wrappers.push({ id: runId, rank: 0, open: `{${sign}`, close: `${sign}}${ref}` });
    }
    return wrappers;
  });
}

export function inlineFrag(block: PMNode, contentStart: number, ctx: WriteContext, heading: boolean): Frag {
  // Comments are not written, so they must not split the text either: the markdown is the same with or without them.
  const children: PMNode[] = [];
  const visible: PMNode[] = [];
  block.forEach((child) => {
    const commented = child.marks.some((mark) => mark.type === marks.comment);
    visible.push(commented ? child.mark(child.marks.filter((mark) => mark.type !== marks.comment)) : child);
  });
  Fragment.fromArray(visible).forEach((child) => children.push(child));
  const needsCheck = children.some((child) =>
    child.marks.some(
      (mark) => mark.type === marks.strong || mark.type === marks.em || mark.type === marks.strikethrough,
    ),
  );
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

function writeInline(
  children: readonly PMNode[],
  contentStart: number,
  ctx: WriteContext,
  heading: boolean,
  html: boolean,
): Frag {
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
  // The last character written, kept aside: reading it from `out` would flatten the string built so far, once per
  // character, which is quadratic in a long paragraph.
  let last = '\n';
  const write = (text: string) => {
    out += text;
    if (text) last = text[text.length - 1]!;
  };
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
    while (stack.length > keep) write(stack.pop()!.close);
    if (split) write('~>');
    const open = new Set(stack.map((wrapper) => wrapper.id));
    const toOpen = item.wrappers
      .filter((wrapper) => !open.has(wrapper.id))
      .sort((a, b) => extent(b.id, i) - extent(a.id, i) || a.rank - b.rank);
    for (const wrapper of toOpen) {
      write(wrapper.open);
      if (wrapper.split !== undefined && i >= wrapper.split) write('~>');
      stack.push(wrapper);
    }

    if (item.code && item.node.isText) {
      // A code span is written whole: its fence depends on every backtick inside it.
      let j = i;
      const splitsAt = (k: number) => items[k]!.wrappers.some((wrapper) => wrapper.split === k);
      while (
        j < items.length &&
        items[j]!.code &&
        items[j]!.node.isText &&
        sameIds(ids[j]!, ids[i]!) &&
        (j === i || !splitsAt(j))
      )
        j++;
      out = writeCode(items.slice(i, j), out, units);
      last = '`';
      i = j;
      continue;
    }

    const node = item.node;
    if (node.isText) {
      const text = node.text!;
      for (let k = 0; k < text.length; k++) {
        const at = item.at + k;
        const written = escapeChar(
          flat,
          at,
          last,
          escapes,
          k === text.length - 1 && i + 1 < items.length,
          !ctx.fragment,
          k === text.length - 1 && stack.length > 0,
        );
        units.push({
          md: out.length,
          mdEnd: out.length + written.length,
          from: item.pos + k,
          to: item.pos + k + 1,
        });
        write(written);
      }
    } else {
      const written =
        node.type === nodes.hard_break
          ? '\\\n'
          : node.type === nodes.empty_link
            ? `[](${linkTarget(node.attrs.href as string, node.attrs.title as string | null)})`
            : `![${escapeAlt(node.attrs.alt as string)}](${linkTarget(node.attrs.src as string, node.attrs.title as string | null)})`;
      units.push({ md: out.length, mdEnd: out.length + written.length, from: item.pos, to: item.pos + 1 });
      write(written);
    }
    i++;
  }
  while (stack.length > 0) write(stack.pop()!.close);
  return { text: out, units };
}

const sameIds = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((id) => b.has(id));

function writeCode(run: Item[], before: string, units: TextUnit[]): string {
  const content = run.map((item) => item.node.text!).join('');
  const fence = '`'.repeat(longestRun(content, '`') + 1);
  // One space comes off each end when both ends are spaces and the span is not all spaces; a backtick at an end
  // would join the fence.
  const pad =
    content.startsWith('`') ||
    content.endsWith('`') ||
    (content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content))
      ? ' '
      : '';
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

function escapeChar(
  flat: string,
  at: number,
  lastOut: string,
  escapes: Set<number>,
  lastInNode: boolean,
  blockEdges: boolean,
  closerFollows: boolean,
): string {
  const ch = flat[at]!;
  if (escapes.has(at)) return `\\${ch}`;
  // Reading trims Unicode whitespace (a no-break space) off a block's edges; as a character reference it stays.
  if (blockEdges && (at === 0 || at === flat.length - 1) && /\s/.test(ch))
    return ch === '\u00A0' ? '&nbsp;' : `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`;
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
      // A closer written next (~~}, ~~) would join a trailing ~ into a longer run: at a line's start, a code fence.
      return flat[at - 1] === '~' || flat[at + 1] === '~' || lastOut === '~' || lastInNode || closerFollows
        ? '\\~'
        : ch;
    case '<':
      // A tag, or an autolink such as <a@b.c>, may start at any "<" not followed by a space.
      return /^\s?$/.test(flat[at + 1] ?? '') && !lastInNode ? ch : '\\<';
    case '&':
      return /^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(flat.slice(at, at + 40))
        ? '\\&'
        : ch;
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
