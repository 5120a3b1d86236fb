// A document's markdown as HTML for export (an extension, docs/extensions.md § Export): markdown-it's renderer, with
// no raw HTML passed through. The convention's tags (<u>, <span data-color>, <mark data-color>) are rebuilt from a
// closed list; any other HTML is written as text. CriticMarkup becomes <ins>, <del> and <mark class="suggestion">.
import MarkdownItConstructor, { type MarkdownIt, type Token } from 'markdown-it';
import { criticMarkupPlugin, type CriticMeta } from './critic-markup.js';
import { isColor } from './schema.js';

export interface HtmlOptions {
  /** Where a link to `attachment:<uuid>` points in the export. */
  attachmentUrl: (attachmentUuid: string) => string;
}

const SUGGESTION_TAG: Record<CriticMeta['kind'], string> = { insert: 'ins', delete: 'del', format: 'mark' };

/**
 * The convention's inline tags, and the only HTML an export keeps, written anew and never copied: an opening tag from
 * the closed list, or the closing tag of the last one still open (so the page stays balanced whatever the input).
 */
function conventionTag(raw: string, open: string[]): string | undefined {
  if (raw === '<u>') return (open.push('u'), raw);
  const colored = /^<(span|mark) data-color="([a-z]+)">$/.exec(raw);
  if (colored && isColor(colored[2]))
    return (open.push(colored[1]!), `<${colored[1]} data-color="${colored[2]}">`);
  const closing = /^<\/(u|span|mark)>$/.exec(raw);
  if (closing && open[open.length - 1] === closing[1]) return `</${open.pop()}>`;
  return undefined;
}

const ATTACHMENT = /^attachment:([0-9a-f-]{36})$/i;

interface RenderEnv {
  options: HtmlOptions;
  /** The tags of the suggestion spans open around the current token (critic_close carries no kind). */
  suggestionTags: string[];
  /** The convention tags open around the current token. */
  conventionTags: string[];
}

/** markdown-it hands the render call's env to every rule untyped. */
const envOf = (env: unknown) => env as RenderEnv;

function exportRenderer(): MarkdownIt {
  const md = new MarkdownItConstructor('commonmark', { html: true })
    .enable('strikethrough')
    .use(criticMarkupPlugin);
  const rules = md.renderer.rules;
  const escape = md.utils.escapeHtml;
  rules.html_inline = (tokens, index, _options, env) =>
    conventionTag(tokens[index]!.content, envOf(env).conventionTags) ?? escape(tokens[index]!.content);
  rules.html_block = (tokens, index) => `<p>${escape(tokens[index]!.content.trimEnd())}</p>\n`;
  const refAttr = (meta: CriticMeta) => (meta.ref === null ? '' : ` data-ref="s${meta.ref}"`);
  rules.critic_open = (tokens, index, _options, env) => {
    const meta = tokens[index]!.meta as unknown as CriticMeta;
    const tag = SUGGESTION_TAG[meta.kind];
    envOf(env).suggestionTags.push(tag);
    return `<${tag} class="suggestion"${refAttr(meta)}>`;
  };
  rules.critic_close = (_tokens, _index, _options, env) => `</${envOf(env).suggestionTags.pop()}>`;
  rules.critic_block = (tokens, index) => {
    const meta = tokens[index]!.meta as unknown as CriticMeta;
    const tag = SUGGESTION_TAG[meta.kind];
    return `<${tag} class="suggestion suggestion-block"${refAttr(meta)}>¶</${tag}>`;
  };
  // The ref is already on the span it follows.
  rules.critic_note = () => '';
  const linkTarget = (token: Token, attribute: string, env: RenderEnv) => {
    const match = ATTACHMENT.exec(String(token.attrGet(attribute) ?? ''));
    if (match) token.attrSet(attribute, env.options.attachmentUrl(match[1]!.toLowerCase()));
  };
  const renderToken = md.renderer.renderToken.bind(md.renderer);
  rules.link_open = (tokens, index, options, env) => {
    linkTarget(tokens[index]!, 'href', envOf(env));
    return renderToken(tokens, index, options);
  };
  const image = rules.image!;
  rules.image = (tokens, index, options, env, self) => {
    linkTarget(tokens[index]!, 'src', envOf(env));
    return image(tokens, index, options, env, self);
  };
  return md;
}

const renderer = exportRenderer();

/** The HTML body of a document's markdown. */
export function markdownToHtml(markdown: string, options: HtmlOptions): string {
  const env: RenderEnv = { options, suggestionTags: [], conventionTags: [] };
  return renderer.render(markdown, env as unknown as Record<string, unknown>);
}
