// The exact sharing and changes-feed objects of spec/drive.md: drive_sharing, drive_access,
// drive_public_link, and the changes page with its entries.
import type { FeedEntry, FeedPage } from '../../domain/drive/feed.js';
import type { GrantRow, PublicLinkRow, SharingSettings } from '../../domain/drive/sharing.js';
import { presentItem } from './drive.js';

export function presentAccess(grant: GrantRow) {
  return {
    object: 'drive_access',
    uuid: grant.uuid,
    principal_type: grant.principal_type,
    principal_user_uuid: grant.principal_user_uuid,
    principal_workspace_uuid: grant.principal_workspace_uuid,
    principal_email: grant.principal_type === 'user' ? grant.principal_email : null,
    role: grant.role,
    status: grant.status,
    created_at: grant.created_at.toISOString(),
    updated_at: grant.updated_at.toISOString(),
  };
}

export function presentPublicLink(link: PublicLinkRow) {
  return {
    object: 'drive_public_link',
    uuid: link.uuid,
    resource_type: link.resource_type,
    resource_uuid: link.item_uuid,
    token: link.token,
    url: link.url,
    status: link.status,
    created_at: link.created_at.toISOString(),
    updated_at: link.updated_at.toISOString(),
  };
}

export function presentSharing(settings: SharingSettings) {
  return {
    object: 'drive_sharing',
    resource_type: settings.item.kind,
    resource_uuid: settings.item.uuid,
    accesses: settings.accesses.map(presentAccess),
    public_link: settings.publicLink ? presentPublicLink(settings.publicLink) : null,
  };
}

/** A change entry: the full resource on create and update; on delete, no resource but where the item lived. */
export function presentChange(entry: FeedEntry, callerUuid: string) {
  if (entry.type === 'delete') {
    return { type: entry.type, resource_type: entry.resourceType, uuid: entry.uuid, parent_uuid: entry.parentUuid };
  }
  return { type: entry.type, resource_type: entry.resourceType, uuid: entry.uuid, resource: presentItem(entry.item, callerUuid) };
}

export function presentChangesPage(page: FeedPage, syncToken: string, callerUuid: string) {
  return {
    object: 'list',
    url: '/v1/drive/changes',
    as_of: page.asOf.toISOString(),
    sync_token: syncToken,
    has_more: page.hasMore,
    changes: page.entries.map((entry) => presentChange(entry, callerUuid)),
  };
}
