// Link and image targets as markdown-it reads them back, so a stored href always survives a round trip.
import { markdownIt } from './markdown-it.js';

/** The href as markdown-it would store it, or null when markdown-it would not make it a link (javascript: etc.). */
export function markdownLinkSafe(href: unknown): string | null {
  if (typeof href !== 'string') return null;
  const normalized = markdownIt.normalizeLink(href.trim());
  return markdownIt.validateLink(normalized) ? normalized : null;
}

/** The destination as written inside ( ): characters markdown would read as syntax are escaped. */
export function linkDestination(href: string): string {
  if (href === '') return '<>';
  return href.replace(/[\\&()<>]/g, (ch) => `\\${ch}`);
}
