// Storing an inbound, imported or draft message (raw bytes encrypted in object storage; metadata, thread and labels in
// PostgreSQL) and reading one back for a member of its mailbox. Delivered mail that is neither spam nor deleted by a
// rule records email.received in the same transaction, so the event exists only once the email is final.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ObjectStore } from '../drive/content-objects.js';
import type { Caller } from '../caller.js';
import { notFound } from '../errors.js';
import type { RunInTransaction } from '../unit-of-work.js';
import { isUuid } from '../uuid.js';
import { recordEmailReceived } from '../webhooks/events.js';
import { messageTooLarge } from './errors.js';
import { applyRules, mailboxForArrival } from './mailboxes.js';
import { parseEmail, type AttachmentMeta, type EmailAddress, type ParsedEmail } from './parse.js';
import { putRawMessage, readRawMessage, removeRawMessage } from './raw-store.js';

/** delivered: arrived over SMTP or `folio email deliver`; imported: copied in, never fires; draft: saved, never fires. */
export type EmailKind = 'delivered' | 'imported' | 'draft';

export interface EmailStoreDeps {
  db: Knex;
  store: ObjectStore;
  masterKey: Buffer;
  maxBytes: number;
  runInTransaction: RunInTransaction;
}

export type StoreResult =
  | { outcome: 'stored'; uuid: string; labels: string[]; spam: boolean; event_id: string | null }
  | { outcome: 'deleted_by_rule'; uuid: null; rule_uuid: string };

export async function storeEmail(
  deps: EmailStoreDeps,
  input: { mailboxUuid: string; raw: Buffer; kind: EmailKind; markedSpam?: boolean },
): Promise<StoreResult> {
  if (input.raw.length > deps.maxBytes) throw messageTooLarge(deps.maxBytes);
  const mailbox = await mailboxForArrival(deps.db, input.mailboxUuid);
  const parsed = await parseEmail(input.raw);
  const delivered = input.kind === 'delivered';
  const spam = delivered && (Boolean(input.markedSpam) || parsed.spamFlagged);
  // Rules sort mail as it arrives; an import copies mail as it was, and a draft was never received.
  const verdict = delivered
    ? applyRules(mailbox.rules, {
        from: parsed.from ? [parsed.from.address, parsed.from.name ?? ''] : [],
        to: [...parsed.to, ...parsed.cc].flatMap((entry) => [entry.address, entry.name ?? '']),
        subject: parsed.subject,
      })
    : { deletedBy: null, labels: [] };
  if (verdict.deletedBy) return { outcome: 'deleted_by_rule', uuid: null, rule_uuid: verdict.deletedBy };

  const labels = input.kind === 'draft' ? ['draft'] : spam ? ['spam'] : ['inbox', ...verdict.labels];
  const emailUuid = randomUUID();
  // The bytes go first, outside the transaction: a crash leaves at most an object no row names (never a row without
  // its object), and a failed commit removes it below.
  const stored = await putRawMessage(
    deps.store,
    deps.masterKey,
    { workspaceUuid: mailbox.workspace_uuid, mailboxUuid: mailbox.uuid, emailUuid },
    input.raw,
  );
  try {
    return await deps.runInTransaction(async (unit) => {
      const threadUuid = await threadOf(unit.tx, mailbox.uuid, parsed);
      await unit.tx('emails').insert({
        uuid: emailUuid,
        workspace_uuid: mailbox.workspace_uuid,
        mailbox_uuid: mailbox.uuid,
        thread_uuid: threadUuid,
        kind: input.kind,
        spam,
        labels,
        message_id: parsed.messageId,
        in_reply_to: parsed.inReplyTo,
        references: parsed.references,
        subject: parsed.subject,
        from_address: parsed.from ? JSON.stringify(parsed.from) : null,
        to_addresses: JSON.stringify(parsed.to),
        cc_addresses: JSON.stringify(parsed.cc),
        attachments: JSON.stringify(parsed.attachments),
        sent_at: parsed.date,
        storage_key: stored.storageKey,
        wrapped_key: stored.wrappedKey,
        size_bytes: stored.sizeBytes,
        chunk_size_bytes: stored.chunkSizeBytes,
      });
      const eventId =
        delivered && !spam
          ? await recordEmailReceived(unit, {
              workspaceUuid: mailbox.workspace_uuid,
              mailboxUuid: mailbox.uuid,
              emailUuid,
            })
          : null;
      return { outcome: 'stored' as const, uuid: emailUuid, labels, spam, event_id: eventId };
    });
  } catch (error) {
    await removeRawMessage(deps.store, stored.storageKey).catch(() => undefined);
    throw error;
  }
}

/**
 * The first message already here that replies to `messageId`, by In-Reply-To or References: each branch on its own
 * index (emails_mailbox_in_reply_to, and the GIN index on "references", which serves `@>` but not `= any`), so an
 * arriving message does not read its whole mailbox.
 */
export const EARLIER_REPLY = `select thread_uuid from (
    select thread_uuid, received_at from emails where mailbox_uuid = :mailboxUuid and in_reply_to = :messageId
    union all
    select thread_uuid, received_at from emails
     where mailbox_uuid = :mailboxUuid and "references" @> array[:messageId]::text[]
  ) replies order by received_at limit 1`;

/**
 * The thread of a message: that of a message it replies to or references, else that of a message already here that
 * replies to it (a reply can arrive first), else a new one. Two messages of a new thread arriving in the same instant
 * may start two threads; the next message that references both joins the older.
 */
async function threadOf(tx: Knex.Transaction, mailboxUuid: string, parsed: ParsedEmail): Promise<string> {
  const parents = [...new Set([...parsed.references, ...(parsed.inReplyTo ? [parsed.inReplyTo] : [])])];
  if (parents.length) {
    const parent = await tx('emails')
      .where({ mailbox_uuid: mailboxUuid })
      .whereIn('message_id', parents)
      .orderBy('received_at')
      .first('thread_uuid');
    if (parent) return parent.thread_uuid;
  }
  if (parsed.messageId) {
    const { rows } = (await tx.raw(EARLIER_REPLY, {
      mailboxUuid,
      messageId: parsed.messageId,
    })) as { rows: { thread_uuid: string }[] };
    if (rows[0]) return rows[0].thread_uuid;
  }
  const [thread] = await tx('email_threads').insert({ mailbox_uuid: mailboxUuid }).returning('uuid');
  return thread.uuid;
}

interface EmailRow {
  uuid: string;
  workspace_uuid: string;
  mailbox_uuid: string;
  thread_uuid: string;
  kind: EmailKind;
  spam: boolean;
  labels: string[];
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  subject: string | null;
  from_address: EmailAddress | null;
  to_addresses: EmailAddress[];
  cc_addresses: EmailAddress[];
  attachments: AttachmentMeta[];
  sent_at: Date | null;
  received_at: Date;
  size_bytes: string;
}

export interface ReadableEmail {
  row: EmailRow;
  text: string | null;
  html: string | null;
}

/**
 * An email for a member of its mailbox. Anyone else, a workspace admin included, gets 404 as if it did not exist:
 * administering a workspace lets you subscribe a mailbox, not read it (spec/webhooks.md § Authentication 4).
 */
export async function readEmail(
  knex: Knex,
  store: ObjectStore,
  masterKey: Buffer,
  caller: Caller,
  uuid: string,
): Promise<ReadableEmail> {
  if (!isUuid(uuid)) throw notFound();
  const row = await knex('emails as e')
    .join('mailbox_members as m', 'm.mailbox_uuid', 'e.mailbox_uuid')
    .where({ 'e.uuid': uuid, 'e.workspace_uuid': caller.workspaceUuid, 'm.user_uuid': caller.userUuid })
    .first('e.*');
  if (!row) throw notFound();
  const parsed = await parseEmail(await readRawMessage(store, masterKey, row));
  return { row, text: parsed.text, html: parsed.html };
}
