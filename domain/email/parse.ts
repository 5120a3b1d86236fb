// Reading an RFC 5322 message with mailparser: the headers Folio stores (threading, addresses, subject, date, spam
// flag), the attachments' metadata, and the bodies the email read route answers with.
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';

export interface EmailAddress {
  name: string | null;
  address: string;
}

export interface AttachmentMeta {
  filename: string | null;
  content_type: string;
  size_bytes: number;
  content_id: string | null;
  disposition: 'attachment' | 'inline';
}

export interface ParsedEmail {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  subject: string | null;
  from: EmailAddress | null;
  to: EmailAddress[];
  cc: EmailAddress[];
  date: Date | null;
  /** An upstream filter's verdict: `X-Spam-Flag: YES` (SpamAssassin, rspamd and most gateways write it). */
  spamFlagged: boolean;
  text: string | null;
  html: string | null;
  attachments: AttachmentMeta[];
}

function addresses(field: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const flat = objects.flatMap((object) =>
    object.value.flatMap((entry) => (entry.group ? entry.group : [entry])),
  );
  return flat
    .filter((entry) => entry.address)
    .map((entry) => ({ name: entry.name || null, address: entry.address!.toLowerCase() }));
}

const messageIds = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? value.split(/\s+/) : []).map((id) => id.trim()).filter(Boolean);

const headerText = (parsed: ParsedMail, name: string): string | undefined => {
  const value = parsed.headers.get(name);
  return typeof value === 'string' ? value : undefined;
};

export async function parseEmail(raw: Buffer): Promise<ParsedEmail> {
  // cid: links stay as they are (the attachments list names their content ids); no HTML is invented from text.
  const parsed = await simpleParser(raw, { keepCidLinks: true, skipTextToHtml: true, skipImageLinks: true });
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null;
  return {
    messageId: parsed.messageId?.trim() || null,
    inReplyTo: messageIds(parsed.inReplyTo)[0] ?? null,
    references: messageIds(parsed.references),
    subject: parsed.subject ?? null,
    from: addresses(parsed.from)[0] ?? null,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    date,
    spamFlagged: /^\s*yes\b/i.test(headerText(parsed, 'x-spam-flag') ?? ''),
    text: parsed.text ?? null,
    html: parsed.html || null,
    attachments: parsed.attachments.map((attachment) => ({
      filename: attachment.filename ?? null,
      content_type: attachment.contentType,
      size_bytes: attachment.size,
      content_id: attachment.contentId ?? null,
      disposition: attachment.contentDisposition === 'inline' ? 'inline' : 'attachment',
    })),
  };
}
