// The email object of GET /v1/emails/{uuid} (docs/webhooks.md § Reading the email), and the mailbox objects of the
// operator CLI, built field by field.
import type { Mailbox, MailboxRule } from '../../domain/email/mailboxes.js';
import type { ReadableEmail, StoreResult } from '../../domain/email/messages.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentEmail({ row, text, html }: ReadableEmail) {
  return {
    object: 'email',
    uuid: row.uuid,
    mailbox_uuid: row.mailbox_uuid,
    thread: { uuid: row.thread_uuid },
    message_id: row.message_id,
    in_reply_to: row.in_reply_to,
    references: row.references,
    from: row.from_address ? { name: row.from_address.name, address: row.from_address.address } : null,
    to: row.to_addresses.map((entry) => ({ name: entry.name, address: entry.address })),
    cc: row.cc_addresses.map((entry) => ({ name: entry.name, address: entry.address })),
    subject: row.subject,
    date: iso(row.sent_at),
    received_at: iso(row.received_at),
    labels: row.labels,
    size_bytes: Number(row.size_bytes),
    text,
    html,
    attachments: row.attachments.map((attachment) => ({
      filename: attachment.filename,
      content_type: attachment.content_type,
      size_bytes: attachment.size_bytes,
      content_id: attachment.content_id,
      disposition: attachment.disposition,
    })),
  };
}

export function presentMailbox(mailbox: Mailbox) {
  return {
    object: 'mailbox',
    uuid: mailbox.uuid,
    workspace_uuid: mailbox.workspace_uuid,
    address: mailbox.address,
    members: mailbox.members,
    created_at: mailbox.created_at.toISOString(),
  };
}

export function presentMailboxRule(rule: MailboxRule) {
  return {
    object: 'mailbox_rule',
    uuid: rule.uuid,
    mailbox_uuid: rule.mailbox_uuid,
    field: rule.field,
    contains: rule.contains,
    action: rule.action,
    label: rule.label,
    created_at: rule.created_at.toISOString(),
  };
}

/** What `folio email deliver|import|draft` and the SMTP ingress learn of a stored message. */
export function presentStoreResult(result: StoreResult) {
  return result.outcome === 'stored'
    ? {
        uuid: result.uuid,
        outcome: result.outcome,
        labels: result.labels,
        spam: result.spam,
        event_id: result.event_id,
      }
    : { uuid: null, outcome: result.outcome, rule_uuid: result.rule_uuid };
}
