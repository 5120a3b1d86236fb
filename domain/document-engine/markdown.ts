// Reads Folio markdown (CommonMark, GFM strikethrough, the convention HTML tags, CriticMarkup) into ProseMirror nodes.
import type { Token } from 'markdown-it';
import { Mark, type Attrs, type NodeType, type Node as PMNode } from 'prosemirror-model';
import { BLOCK_MARK, type CriticMeta } from './critic-markup.js';
import { invalidMarkdown } from './errors.js';
import { markdownIt } from './markdown-it.js';
import { normalizeDoc } from './normalize.js';
import { isColor, marks, nodes, schema, suggestionMarkType, type BlockSuggestion } from './schema.js';

export interface ParseOptions {
  /**
   * Open suggestions by ref. CriticMarkup naming one of them is read back into that suggestion's marks, which is
   * what makes "read, then set_document the same markdown" change nothing. Without it CriticMarkup is refused.
   */
  suggestionRefs?: ReadonlyMap<number, string>;
}

/** Reads a whole document; the result is normalized. Throws invalid_markdown for what cannot be read. */
/** CommonMark § 2.3: U+0000 is replaced with U+FFFD (and PostgreSQL could not store it anyway). */
const withoutNul = (markdown: string) =>
  markdown.includes('\u0000') ? markdown.replaceAll('\u0000', '\uFFFD') : markdown;

export function parseMarkdown(markdown: string, options: ParseOptions = {}): PMNode {
  if (typeof markdown !== 'string') throw invalidMarkdown('markdown must be a string.');
  const tokens = markdownIt.parse(withoutNul(markdown), {});
  const doc = new BlockReader(options).read(tokens);
  return normalizeDoc(doc, new Set(options.suggestionRefs?.values() ?? []));
}

/** Reads inline markdown (a replace's `with`): block syntax stays text, as it would inside a paragraph. */
export function parseInlineMarkdown(markdown: string, options: ParseOptions = {}): PMNode[] {
  if (typeof markdown !== 'string') throw invalidMarkdown('Inline markdown must be a string.');
  const tokens = markdownIt.parseInline(withoutNul(markdown), {});
  const inline = tokens[0]?.children ?? [];
  const read = new InlineReader(options, false).read(inline);
  return read.nodes;
}

type Frame = { type: NodeType; attrs: Attrs | null; content: PMNode[] };

class BlockReader {
  private readonly stack: Frame[] = [{ type: nodes.doc, attrs: null, content: [] }];
  // A paragraph holding only {++¶++}{>>sN<<} marks the block after it (a fence or rule cannot hold the marker).
  private pendingMarker: BlockSuggestion | null = null;

  constructor(private readonly options: ParseOptions) {}

  read(tokens: Token[]): PMNode {
    for (const token of tokens) this.readToken(token);
    if (this.pendingMarker)
      throw invalidMarkdown(
        'A block suggestion marker on its own line must come right before a code block or rule.',
      );
    const root = this.stack[0]!;
    return nodes.doc.create(null, root.content);
  }

  private get top(): Frame {
    return this.stack[this.stack.length - 1]!;
  }

  private open(type: NodeType, attrs: Attrs | null = null) {
    this.stack.push({ type, attrs, content: [] });
  }

  private close() {
    const frame = this.stack.pop()!;
    // An item or quote written with nothing in it is kept as such (normalize.ts drops one an edit empties).
    const writtenEmpty =
      (frame.type === nodes.list_item || frame.type === nodes.blockquote) && frame.content.length === 0;
    this.add(frame.type.create(writtenEmpty ? { written_empty: true } : frame.attrs, frame.content));
  }

  private add(node: PMNode) {
    let block = node;
    if (this.pendingMarker) {
      if (!('suggestion' in block.attrs) || block.attrs.suggestion) {
        throw invalidMarkdown(
          'A block suggestion marker on its own line must come right before a code block or rule.',
        );
      }
      block = block.type.create(
        { ...block.attrs, suggestion: this.pendingMarker },
        block.content,
        block.marks,
      );
      this.pendingMarker = null;
    }
    this.top.content.push(block);
  }

  private readToken(token: Token) {
    switch (token.type) {
      case 'paragraph_open':
        this.noteTightness(token);
        return this.open(nodes.paragraph);
      case 'heading_open':
        return this.open(nodes.heading, { level: Number(token.tag.slice(1)) });
      case 'blockquote_open':
        return this.open(nodes.blockquote);
      case 'bullet_list_open':
        return this.open(nodes.bullet_list, { bullet: token.markup, tight: true });
      case 'ordered_list_open':
        return this.open(nodes.ordered_list, {
          order: Number(token.attrGet('start') ?? 1),
          delimiter: token.markup,
          tight: true,
        });
      case 'list_item_open':
        return this.open(nodes.list_item);
      case 'paragraph_close': {
        const frame = this.stack.pop()!;
        const suggestion = (frame.attrs?.suggestion as BlockSuggestion | undefined) ?? null;
        if (suggestion && frame.content.length === 0) {
          if (this.pendingMarker) throw invalidMarkdown('Two block suggestion markers in a row.');
          this.pendingMarker = suggestion;
          return;
        }
        return this.add(nodes.paragraph.create(frame.attrs, frame.content));
      }
      case 'heading_close':
      case 'blockquote_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'list_item_close':
        return this.close();
      case 'inline': {
        const read = new InlineReader(this.options, true).read(token.children ?? []);
        const frame = this.top;
        frame.content = read.nodes;
        if (read.blockMarker) frame.attrs = { ...(frame.attrs ?? {}), suggestion: read.blockMarker };
        return;
      }
      case 'fence':
      case 'code_block': {
        // The info string as CommonMark reads it: backslash escapes and entities resolved, its first word the language.
        const info = token.type === 'fence' ? markdownIt.utils.unescapeAll(token.info).trim() : '';
        const language = info.split(/\s+/)[0] ?? '';
        const text = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
        return this.add(nodes.code_block.create({ language }, text ? schema.text(text) : null));
      }
      case 'hr':
        return this.add(nodes.horizontal_rule.create());
      case 'html_block':
        return this.readHtmlBlock(token.content);
      default:
        throw invalidMarkdown(`Unexpected markdown construct (${token.type}).`);
    }
  }

  // markdown-it hides the paragraphs of a tight list's items; one paragraph right in an item that is not hidden
  // makes its list loose.
  private noteTightness(token: Token) {
    const item = this.stack[this.stack.length - 1];
    const list = this.stack[this.stack.length - 2];
    if (item?.type !== nodes.list_item || !list?.attrs || token.hidden) return;
    list.attrs = { ...list.attrs, tight: false };
  }

  // A line that starts with a tag is an HTML block to CommonMark; when its tags are the convention's inline tags it is
  // really a paragraph, so it is read as one. Anything else (a div, a comment) cannot be read.
  private readHtmlBlock(content: string) {
    const inline = markdownIt.parseInline(content.trim(), {})[0]?.children ?? [];
    const read = new InlineReader(this.options, false).read(inline);
    if (read.nodes.length > 0) this.add(nodes.paragraph.create(null, read.nodes));
  }
}

type OpenEntry = { key: string; mark: Mark | null };

/**
 * How deep inline marks may nest (`**a **a … a** a**`, `<u><u>…`). Every text carries every open mark, and emphasis
 * nested in its own kind keeps one mark per level, so n levels cost n² marks: 200 levels took 1.8 s, 1,000 minutes.
 */
export const MAX_INLINE_NESTING = 32;

const HTML_TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^>]*)?)\s*(\/?)>$/s;
const DATA_COLOR = /\sdata-color\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

class InlineReader {
  private readonly open: OpenEntry[] = [];
  /** Per link being read: how many nodes were out when it opened, so a link that read nothing becomes empty_link. */
  private readonly linkStarts: number[] = [];
  private readonly out: PMNode[] = [];
  private blockMarker: BlockSuggestion | null = null;
  /** The marks of `open`, kept until the next push or pop. */
  private openMarks: readonly Mark[] | null = null;

  constructor(
    private readonly options: ParseOptions,
    private readonly blockMarkerAllowed: boolean,
  ) {}

  read(tokens: Token[]): { nodes: PMNode[]; blockMarker: BlockSuggestion | null } {
    for (const token of tokens) this.readToken(token);
    return { nodes: this.out, blockMarker: this.blockMarker };
  }

  private get marks(): readonly Mark[] {
    if (this.openMarks) return this.openMarks;
    let set: readonly Mark[] = Mark.none;
    for (const entry of this.open) if (entry.mark) set = entry.mark.addToSet(set);
    this.openMarks = set;
    return set;
  }

  private push(key: string, mark: Mark | null) {
    if (this.open.length >= MAX_INLINE_NESTING)
      throw invalidMarkdown(
        `Emphasis, links and inline HTML nest at most ${MAX_INLINE_NESTING} levels deep.`,
      );
    this.openMarks = null;
    // Emphasis inside emphasis of the same kind (`*(*foo*)*`) is one level deeper.
    const type = mark?.type;
    if (type === marks.em || type === marks.strong) {
      const depth = this.open.filter((entry) => entry.mark?.type === type).length + 1;
      this.open.push({ key, mark: type.create({ depth }) });
      return;
    }
    this.open.push({ key, mark });
  }

  private pop(key: string) {
    for (let i = this.open.length - 1; i >= 0; i--) {
      if (this.open[i]!.key === key) {
        this.open.splice(i, 1);
        this.openMarks = null;
        return;
      }
    }
  }

  private text(text: string, extra: Mark | null = null) {
    if (!text) return;
    const set = extra ? extra.addToSet(this.marks) : this.marks;
    this.out.push(schema.text(text, set));
  }

  private readToken(token: Token) {
    switch (token.type) {
      case 'text':
      case 'text_special':
        return this.text(token.content);
      case 'softbreak':
        return this.text('\n');
      case 'hardbreak':
        return void this.out.push(nodes.hard_break.create(null, null, this.marks));
      case 'code_inline':
        return this.text(token.content, marks.code.create());
      case 'em_open':
        return this.push('em', marks.em.create());
      case 'strong_open':
        return this.push('strong', marks.strong.create());
      case 's_open':
        return this.push('s', marks.strikethrough.create());
      case 'link_open':
        this.linkStarts.push(this.out.length);
        return this.push(
          'link',
          marks.link.create({ href: token.attrGet('href') ?? '', title: titleOf(token) }),
        );
      case 'em_close':
        return this.pop('em');
      case 'strong_close':
        return this.pop('strong');
      case 's_close':
        return this.pop('s');
      case 'link_close': {
        const link = this.open.findLast((entry) => entry.key === 'link')?.mark;
        this.pop('link');
        if (link && this.linkStarts.pop() === this.out.length) {
          this.out.push(
            nodes.empty_link.create({ href: link.attrs.href, title: link.attrs.title }, null, this.marks),
          );
        }
        return;
      }
      case 'image': {
        const alt = (token.children ?? []).map((child) => child.content).join('');
        return void this.out.push(
          nodes.image.create(
            { src: token.attrGet('src') ?? '', alt, title: titleOf(token) },
            null,
            this.marks,
          ),
        );
      }
      case 'html_inline':
        return this.readHtml(token.content);
      case 'critic_open': {
        const meta = token.meta as unknown as CriticMeta;
        return this.push(
          'critic',
          suggestionMarkType(meta.kind).create({ thread: this.suggestionThread(meta) }),
        );
      }
      case 'critic_close':
        return this.pop('critic');
      case 'critic_block': {
        const meta = token.meta as unknown as CriticMeta;
        const thread = this.suggestionThread(meta);
        if (!this.blockMarkerAllowed || this.out.length > 0 || this.blockMarker) {
          throw invalidMarkdown(
            `{${sign(meta.kind)}${BLOCK_MARK}${sign(meta.kind)}} marks a block and belongs at the start of one.`,
          );
        }
        this.blockMarker = { kind: meta.kind, thread };
        return;
      }
      case 'critic_note':
        throw invalidMarkdown(
          'Comments are not written in the text: {>>…<<} may only name a suggestion right after its CriticMarkup. Post comments to the comments endpoint.',
        );
      default:
        return this.text(token.content);
    }
  }

  private suggestionThread(meta: CriticMeta): string {
    const refs = this.options.suggestionRefs;
    if (!refs) {
      throw invalidMarkdown(
        'CriticMarkup marks existing suggestions; to propose a change, send it to the suggestions endpoint.',
      );
    }
    if (meta.ref === null) {
      throw invalidMarkdown(
        `Every CriticMarkup suggestion must be followed by {>>sN<<} naming an open suggestion.`,
      );
    }
    const thread = refs.get(meta.ref);
    if (!thread) throw invalidMarkdown(`s${meta.ref} is not an open suggestion on this document.`);
    return thread;
  }

  private readHtml(content: string) {
    const tag = HTML_TAG.exec(content.trim());
    if (!tag)
      throw invalidMarkdown(
        `HTML ${content.slice(0, 40)} cannot be read; only <u>, <span data-color>, <mark data-color> and <br> are.`,
      );
    const closing = tag[1] === '/';
    const name = tag[2]!.toLowerCase();
    const attrs = tag[3] ?? '';
    const key = `html:${name}`;
    if (name === 'br') return void this.out.push(nodes.hard_break.create(null, null, this.marks));
    const markFor = HTML_MARKS[name];
    if (!markFor)
      throw invalidMarkdown(
        `HTML <${name}> is not part of Folio markdown; use <u>, <span data-color>, <mark data-color> or markdown.`,
      );
    if (closing) return this.pop(key);
    this.push(key, markFor(attrs));
  }
}

/** A link's or image's title; line endings read as spaces (a title cannot hold a blank line). */
const titleOf = (token: Token): string | null => {
  const title = token.attrGet('title');
  return typeof title === 'string' ? title.replace(/\r\n?|\n/g, ' ') : null;
};

const colorOf = (attrs: string): string | null => {
  const match = DATA_COLOR.exec(attrs);
  const value = match ? (match[1] ?? match[2] ?? match[3] ?? '') : '';
  return isColor(value.toLowerCase()) ? value.toLowerCase() : null;
};

// Tags read as marks. Unknown colors give no mark: the convention drops them.
const HTML_MARKS: Record<string, (attrs: string) => Mark | null> = {
  u: () => marks.underline.create(),
  ins: () => marks.underline.create(),
  strong: () => marks.strong.create(),
  b: () => marks.strong.create(),
  em: () => marks.em.create(),
  i: () => marks.em.create(),
  s: () => marks.strikethrough.create(),
  del: () => marks.strikethrough.create(),
  strike: () => marks.strikethrough.create(),
  span: (attrs) => {
    const color = colorOf(attrs);
    return color ? marks.text_color.create({ color }) : null;
  },
  mark: (attrs) => {
    const color = colorOf(attrs);
    return color ? marks.highlight.create({ color }) : null;
  },
};

const sign = (kind: string) => (kind === 'insert' ? '++' : kind === 'delete' ? '--' : '==');
