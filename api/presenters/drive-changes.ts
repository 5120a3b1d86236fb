// The exact changes-feed objects of spec/drive.md § Changes: the page and its entries.
import type { FeedEntry, FeedPage } from '../../domain/drive/changes-feed.js';
import { ownersOnce, presentItem } from './drive.js';

/** A change entry: the full resource on create and update; on delete, no resource but where the item lived. */
function presentChange(entry: FeedEntry, callerUuid: string, ownerOf: ReturnType<typeof ownersOnce>) {
  if (entry.type === 'delete') {
    return {
      type: entry.type,
      resource_type: entry.resourceType,
      uuid: entry.uuid,
      parent_uuid: entry.parentUuid,
    };
  }
  return {
    type: entry.type,
    resource_type: entry.resourceType,
    uuid: entry.uuid,
    resource: presentItem(entry.item, callerUuid, ownerOf(entry.item)),
  };
}

export function presentChangesPage(page: FeedPage, syncToken: string, callerUuid: string) {
  const ownerOf = ownersOnce(callerUuid);
  return {
    object: 'list',
    url: '/v1/drive/changes',
    as_of: page.asOf.toISOString(),
    sync_token: syncToken,
    has_more: page.hasMore,
    changes: page.entries.map((entry) => presentChange(entry, callerUuid, ownerOf)),
  };
}
