// Admin app sessions as the operator CLI prints them (`folio admin sessions list`).
import type { SessionListing } from '../../domain/admin/sessions.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentAdminSession(session: SessionListing) {
  return {
    object: 'admin_session',
    uuid: session.uuid,
    workspace_uuid: session.workspace_uuid,
    user_uuid: session.user_uuid,
    email: session.email,
    user_agent: session.user_agent,
    ip: session.ip,
    created_at: session.created_at.toISOString(),
    last_seen_at: session.last_seen_at.toISOString(),
    expires_at: session.expires_at.toISOString(),
    ended_at: iso(session.ended_at),
    end_reason: session.end_reason,
  };
}
