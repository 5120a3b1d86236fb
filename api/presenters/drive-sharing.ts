// The exact sharing objects of spec/drive.md: drive_sharing, drive_access and drive_public_link.
import type { GrantRow, PublicLinkRow, SharingSettings } from '../../domain/drive/sharing.js';

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
