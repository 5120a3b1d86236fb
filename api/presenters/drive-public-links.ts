// What a public link's visitor gets (GET /s/<token>): a shared folder's listing as an HTML page or as JSON, a shared
// file's plaintext as a download, and a plain page for a refusal. docs/drive-sharing.md § Public links.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { answeredTime } from '../../domain/answer-times.js';
import type { ChunkLayout } from '../../domain/drive/crypto.js';
import type { SharedEntry, SharedFolderListing } from '../../domain/drive/public-links.js';
import type { ItemRow } from '../../domain/drive/rows.js';
import { publicLinkUrl } from '../../domain/drive/sharing.js';
import { attachmentDisposition } from './documents.js';

/** Builds the addresses inside one link: the link itself for its own item, `<link>/<uuid>` below it. */
export function sharedItemUrls(publicUrl: string, link: { token: string; itemUuid: string }) {
  const root = publicLinkUrl(publicUrl, link.token);
  return (uuid: string) => (uuid === link.itemUuid ? root : `${root}/${uuid}`);
}

type UrlOf = ReturnType<typeof sharedItemUrls>;

// The page's only style, allowed by its hash: the policy has no 'unsafe-inline' and allows no script at all.
const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#222}' +
  'table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #ddd}' +
  'td.n{text-align:right;white-space:nowrap}a{color:#0b57d0}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The headers of every answer under /s/: no script, no framing, no referrer (the url is the secret), no caching. */
export const PUBLIC_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
};

/** A download also runs sandboxed, should a browser render it anyway despite `attachment`. */
export const PUBLIC_DOWNLOAD_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

const sizeOf = (entry: SharedEntry) => Number(entry.file_size_bytes ?? 0);

function readableSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** The JSON form of a shared folder (Accept: application/json). */
export function presentSharedFolder(listing: SharedFolderListing, urlOf: UrlOf) {
  const { folder, entries } = listing;
  return {
    object: 'drive_public_folder',
    uuid: folder.uuid,
    name: folder.name,
    url: urlOf(folder.uuid),
    parent_url: listing.parentUuid ? urlOf(listing.parentUuid) : null,
    folders: entries
      .filter((entry) => entry.kind === 'folder')
      .map((entry) => ({
        uuid: entry.uuid,
        name: entry.name,
        url: urlOf(entry.uuid),
        updated_at: answeredTime(entry.updated_at),
      })),
    files: entries
      .filter((entry) => entry.kind === 'file')
      .map((entry) => ({
        uuid: entry.uuid,
        name: entry.name,
        content_type: entry.content_type,
        size_bytes: sizeOf(entry),
        url: urlOf(entry.uuid),
        updated_at: answeredTime(entry.updated_at),
      })),
    truncated: listing.truncated,
  };
}

function page(title: string, body: string): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">' +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>\n<body><main>\n${body}\n</main></body></html>\n`
  );
}

/** The HTML form of a shared folder: every name escaped, folders to browse and files to download, by name. */
export function renderSharedFolder(listing: SharedFolderListing, urlOf: UrlOf): string {
  const rows = listing.entries.map((entry) => {
    const isFolder = entry.kind === 'folder';
    const label = escapeHtml(entry.name) + (isFolder ? '/' : '');
    const attributes = isFolder ? '' : ' download';
    return (
      `<tr><td><a href="${escapeHtml(urlOf(entry.uuid))}"${attributes}>${label}</a></td>` +
      `<td class="n">${isFolder ? '' : readableSize(sizeOf(entry))}</td><td class="n">${answeredTime(entry.updated_at).slice(0, 10)}</td></tr>`
    );
  });
  const parts = [`<h1>${escapeHtml(listing.folder.name)}</h1>`];
  if (listing.parentUuid)
    parts.push(`<p><a href="${escapeHtml(urlOf(listing.parentUuid))}">Up one folder</a></p>`);
  if (rows.length)
    parts.push(
      `<table><thead><tr><th>Name</th><th>Size</th><th>Modified</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`,
    );
  else parts.push('<p>This folder is empty.</p>');
  if (listing.truncated) parts.push(`<p>Only the first ${listing.entries.length} items are listed.</p>`);
  return page(listing.folder.name, parts.join('\n'));
}

/** The page a browser gets for a refusal (404, 429): the status only, nothing about the link. */
export function renderRefusal(status: number, message: string): string {
  return page(`${status}`, `<h1>${status}</h1>\n<p>${escapeHtml(message)}</p>`);
}

/** A download's Content-Disposition: always `attachment`, with an ASCII fallback name and the exact UTF-8 name. */
export const sharedFileDisposition = (file: ItemRow) =>
  attachmentDisposition({ filename: file.name, inline: false });

/**
 * A shared file's plaintext as a stream of known length. A chunk failing authentication cuts the body short (its
 * Content-Length unmet), after `onFailure` is told, exactly as the API's own download does.
 */
export function presentSharedDownload(
  download: { layout: ChunkLayout; plaintext: AsyncIterable<Buffer> },
  onFailure: (error: unknown) => void,
): { body: Readable; length: number } {
  async function* body() {
    try {
      yield* download.plaintext;
    } catch (error) {
      onFailure(error);
      throw error;
    }
  }
  return { body: Readable.from(body(), { objectMode: false }), length: download.layout.plaintextSizeBytes };
}
