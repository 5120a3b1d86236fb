// Public links from the visitor's side: `GET /s/<token>` finds what a link shares, anonymously and read-only. A
// link serves its item, and under a folder everything inside it, while the link exists and the item is neither in
// the trash (on its own or through an ancestor) nor permanently deleted. Every refusal is the same 404, so a visitor
// learns nothing about why. Making and removing links: sharing.ts. Decisions: docs/drive-sharing.md § Public links.
import type { Knex } from 'knex';
import { notFound } from '../errors.js';
import { isUuid } from '../uuid.js';
import { ancestorUuids } from './items.js';
import type { ItemRow } from './rows.js';
import { publicLinkTokenHash } from './sealed-tokens.js';

/** A token as `folio share link` makes them: 24 random bytes in base64url. Anything else is not looked up. */
export const isPublicLinkToken = (text: string) => /^[A-Za-z0-9_-]{32}$/.test(text);

/** The one answer to every link that serves nothing: unknown, removed, trashed, not uploaded yet, outside it. */
export const linkNotFound = () => notFound('This link does not exist or no longer shares anything.');

/** A link as the visitor's side needs it. */
export interface PublicLinkTarget {
  uuid: string;
  token: string;
  itemUuid: string;
}

/** One entry of a shared folder's listing. */
export type SharedEntry = Pick<
  ItemRow,
  'uuid' | 'kind' | 'name' | 'content_type' | 'file_size_bytes' | 'updated_at'
>;

export interface SharedFolderListing {
  folder: ItemRow;
  /** The folder's parent while it is inside the shared folder (the visitor may go up to it), else null. */
  parentUuid: string | null;
  /** Folders first, then files, each by name. */
  entries: SharedEntry[];
  /** True when the folder holds more than `limit` live items and the rest were left out. */
  truncated: boolean;
}

/**
 * The link whose token this is, looked up by the token's hash (the only form of it that can be searched: the token is
 * stored sealed, sealed-tokens.ts); undefined for any other string. The visitor's token is the link's, since its hash matched.
 */
export async function findPublicLink(knex: Knex, token: string): Promise<PublicLinkTarget | undefined> {
  if (!isPublicLinkToken(token)) return undefined;
  const row = (await knex('drive_public_links')
    .where({ token_hash: publicLinkTokenHash(token) })
    .first('uuid', 'item_uuid')) as { uuid: string; item_uuid: string } | undefined;
  return row ? { uuid: row.uuid, token, itemUuid: row.item_uuid } : undefined;
}

/**
 * What a visitor of the link reaches: its item, or (`itemUuid`) a file or folder anywhere below the shared folder.
 * The item must be live as every reader sees it: not in the trash through itself or an ancestor, not being deleted,
 * and uploaded. Otherwise 404 linkNotFound.
 */
export async function findSharedItem(
  knex: Knex,
  link: PublicLinkTarget,
  itemUuid?: string,
): Promise<ItemRow> {
  const uuid = itemUuid ?? link.itemUuid;
  if (!isUuid(uuid)) throw linkNotFound();
  const item = (await knex('drive_items')
    .select('*', knex.raw('drive_item_trashed(uuid) as trashed'))
    .where({ uuid })
    .whereNull('deleted_at')
    .whereRaw(`upload_status is distinct from 'uploading'`)
    .first()) as ItemRow | undefined;
  // drive_item_trashed covers the shared folder too: it is one of the item's ancestors.
  if (!item || item.trashed) throw linkNotFound();
  if (item.uuid !== link.itemUuid) {
    const above = await ancestorUuids(knex, item.parent_uuid);
    // A shared file shares nothing below it; an item moved out of the shared folder is out of reach at once.
    if (!above.includes(link.itemUuid)) throw linkNotFound();
    // Also refused: an ancestor between the item and the shared folder that a permanent delete is removing.
    if (await knex('drive_items').whereIn('uuid', above).whereNotNull('deleted_at').first('uuid'))
      throw linkNotFound();
  }
  return item;
}

/** The live items of a shared folder (found by findSharedItem), at most `limit` of them. */
export async function listSharedFolder(
  knex: Knex,
  link: PublicLinkTarget,
  folder: ItemRow,
  limit: number,
): Promise<SharedFolderListing> {
  const rows = (await knex('drive_items')
    .select('uuid', 'kind', 'name', 'content_type', 'file_size_bytes', 'updated_at')
    .where({ parent_uuid: folder.uuid })
    .whereNull('deleted_at')
    .whereRaw(`upload_status is distinct from 'uploading'`)
    // Under a live folder a live row is live; a trashed row may be coming back with a restore still running.
    .where((q) => q.where('trashed', false).orWhereRaw('not drive_item_trashed(uuid)'))
    .orderByRaw(`kind = 'file', name, uuid`)
    .limit(limit + 1)) as SharedEntry[];
  return {
    folder,
    parentUuid: folder.uuid === link.itemUuid ? null : folder.parent_uuid,
    entries: rows.slice(0, limit),
    truncated: rows.length > limit,
  };
}
