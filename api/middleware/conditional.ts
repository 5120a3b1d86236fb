// Conditional requests on Drive items, an extension (docs/extensions.md § Conditional writes): If-Match on writes,
// checked by the domain on the item it locked; ETag on answers; If-None-Match (304) on reads and thumbnails.
import type { Context, Middleware } from 'koa';
import { invalidIfMatch, preconditionFailed } from '../../domain/drive/errors.js';
import type { ItemGuard, VisibleItem } from '../../domain/drive/rows.js';
import { itemEtag, itemJson, type PresentedItem } from '../presenters/drive.js';

interface EntityTag {
  weak: boolean;
  /** With its quotes: `"…"`. */
  opaque: string;
}

/** An If-Match or If-None-Match value: `*`, or the entity tags listed. */
export type EntityTagCondition = '*' | EntityTag[];

declare module 'koa' {
  interface DefaultState {
    ifMatch?: EntityTagCondition;
  }
}

/**
 * `*` or a comma-separated list of entity tags (RFC 9110 § 8.8.3, § 13.1.1: `W/` marks a weak one, and the quoted
 * part may hold a comma, so the list is scanned, not split); undefined when the value is anything else.
 */
export function parseEntityTags(header: string): EntityTagCondition | undefined {
  if (/^[ \t]*\*[ \t]*$/.test(header)) return '*';
  const element = /[ \t]*(?:(W\/)?("[\x21\x23-\x7E\x80-\xFF]*"))?[ \t]*(,|$)/y;
  const tags: EntityTag[] = [];
  while (element.lastIndex < header.length) {
    const match = element.exec(header);
    if (!match) return undefined;
    if (match[2]) tags.push({ weak: Boolean(match[1]), opaque: match[2] });
    if (!match[3]) break;
  }
  return tags.length ? tags : undefined;
}

/**
 * Reads If-Match before the write starts: malformed is 400 invalid_if_match (ignoring it would let a blind write
 * through); absent or empty leaves the write unconditional.
 */
export function ifMatchHeader(): Middleware {
  return (ctx, next) => {
    const header = ctx.get('If-Match');
    if (header) {
      const condition = parseEntityTags(header);
      if (!condition) throw invalidIfMatch();
      ctx.state.ifMatch = condition;
    }
    return next();
  };
}

/**
 * The request's If-Match as a guard the domain runs on the item once it holds the item's row lock, so the check and
 * the write are one step. It passes for `*`, or a strong tag equal to the item's ETag as this caller sees it
 * (`present`) or to one of `alsoAccepted` (a weak tag never matches: RFC 9110's strong comparison). Otherwise 412
 * precondition_failed with the item as it now stands and its ETag. No guard without If-Match.
 */
export function ifMatchGuard(
  state: { ifMatch?: EntityTagCondition },
  present: (item: VisibleItem) => PresentedItem,
  alsoAccepted: (item: VisibleItem) => string[] = () => [],
): ItemGuard | undefined {
  const condition = state.ifMatch;
  if (!condition) return undefined;
  return (item) => {
    if (condition === '*') return;
    const current = present(item);
    const etag = itemEtag(current);
    const accepted = [etag, ...alsoAccepted(item)];
    if (condition.some((tag) => !tag.weak && accepted.includes(tag.opaque))) return;
    throw preconditionFailed(current, etag);
  };
}

/**
 * Whether If-None-Match names `etag` (weak comparison, as RFC 9110 has it for this header) or is `*`. A malformed
 * value names nothing: the full answer is always a correct one.
 */
export function noneMatch(header: string, etag: string): boolean {
  const condition = header ? parseEntityTags(header) : undefined;
  if (!condition) return false;
  return condition === '*' || condition.some((tag) => tag.opaque === etag);
}

/** The item's JSON text as the body, typed as Koa types an object it serialises itself. */
function sendJson(ctx: Context, json: string): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}

/** Answers an item with its ETag (a write's answer, `status` 200 or 201). */
export function answerItem(ctx: Context, item: PresentedItem, status = 200): void {
  const { json, etag } = itemJson(item);
  ctx.status = status;
  ctx.set('ETag', etag);
  sendJson(ctx, json);
}

/** Answers a read of an item with its ETag, or 304 with no body when If-None-Match names it. */
export function answerItemRead(ctx: Context, item: PresentedItem): void {
  const { json, etag } = itemJson(item);
  ctx.set('ETag', etag);
  if (noneMatch(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  sendJson(ctx, json);
}
