// The one configured markdown-it instance: CommonMark, inline HTML (for the convention tags), GFM strikethrough, CriticMarkup.
import MarkdownItConstructor, { type MarkdownIt } from 'markdown-it';
import { criticMarkupPlugin } from './critic-markup.js';

export const markdownIt: MarkdownIt = new MarkdownItConstructor('commonmark', { html: true })
  .enable('strikethrough')
  .use(criticMarkupPlugin);
