// Link and image targets as markdown-it reads them back, so a stored href always survives a round trip.
import { LRUCache } from 'lru-cache';
import { markdownIt } from './markdown-it.js';

// Reading a link is slow (URL parsing, punycode) and a document repeats its links on every normalization.
const MAX_CACHED_HREF = 2_048;
/** What markdownLinkSafe answered per href; false stands for null (a cache holds no null). */
const safeLinks = new LRUCache<string, string | false>({ max: 10_000 });

/** The href as markdown-it would store it, or null when markdown-it would not make it a link (javascript: etc.). */
export function markdownLinkSafe(href: unknown): string | null {
  if (typeof href !== 'string') return null;
  const known = safeLinks.get(href);
  if (known !== undefined) return known === false ? null : known;
  const normalized = markdownIt.normalizeLink(href.trim());
  const safe = markdownIt.validateLink(normalized) ? normalized : null;
  if (href.length <= MAX_CACHED_HREF) safeLinks.set(href, safe ?? false);
  return safe;
}

/** The destination as written inside ( ): characters markdown would read as syntax are escaped. */
function linkDestination(href: string): string {
  if (href === '') return '<>';
  return href.replace(/[\\&()<>]/g, (ch) => `\\${ch}`);
}

/** What goes inside ( ) after a link's or image's text: the destination, then the title in quotes if it has one. */
export function linkTarget(href: string, title: string | null): string {
  const destination = linkDestination(href);
  // Inside "…" a backslash escapes any ASCII punctuation: " and \ would end or escape, & could start an entity.
  return title === null ? destination : `${destination} "${title.replace(/["\\&]/g, (ch) => `\\${ch}`)}"`;
}
