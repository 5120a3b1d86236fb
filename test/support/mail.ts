// Factories for mail and webhook tests: mailboxes, messages as RFC 5322 text, storing them the way `folio email
// deliver|import|draft` does, admin users, and destinations created through the domain as the admin API does.
import { randomUUID } from 'node:crypto';
import { issueAccessToken } from '../../domain/accounts/credentials.js';
import { SCOPES, type Scope } from '../../domain/accounts/scopes.js';
import { createUser } from '../../domain/accounts/workspaces.js';
import { createMailbox } from '../../domain/email/mailboxes.js';
import { storeEmail, type EmailKind, type StoreResult } from '../../domain/email/messages.js';
import { createDestination } from '../../domain/webhooks/destinations.js';
import { targetPolicyFrom } from '../../domain/webhooks/target.js';
import { config } from '../../platform/config.js';
import { db } from '../../platform/database.js';
import { S3ObjectStore } from '../../platform/object-store.js';
import { bucket, storage } from '../../platform/storage.js';
import { workflowClient } from '../../workflows/client.js';
import { makeWorkspace, type TestUser, type TestWorkspace } from './api.js';

export async function makeAdmin(workspace?: TestWorkspace, scopes: Scope[] = [...SCOPES]): Promise<TestUser> {
  const ws = workspace ?? (await makeWorkspace());
  const email = `admin-${randomUUID()}@example.test`;
  const user = await createUser(db(), { workspaceUuid: ws.uuid, email, admin: true });
  const { access_token } = await issueAccessToken(db(), {
    workspaceUuid: ws.uuid,
    userUuid: user.uuid,
    scopes,
    expiresInMs: 3_600_000,
  });
  return { uuid: user.uuid, workspaceUuid: ws.uuid, email, token: access_token };
}

export async function makeMailbox(
  workspaceUuid: string,
  members: string[] = [],
): Promise<{ uuid: string; address: string }> {
  const address = `box-${randomUUID().slice(0, 8)}@mail.folio.test`;
  const mailbox = await db().transaction((tx) => createMailbox(tx, { workspaceUuid, address, members }));
  return { uuid: mailbox.uuid, address };
}

export interface MessageParts {
  from?: string;
  to?: string;
  cc?: string;
  subject?: string;
  text?: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  attachment?: { filename: string; contentType: string; content: Buffer };
}

/** An RFC 5322 message: multipart/alternative when it has HTML, multipart/mixed around that when it has an attachment. */
export function emlMessage(parts: MessageParts = {}): Buffer {
  const lines = [
    `From: ${parts.from ?? 'Alice Sender <alice@sender.example>'}`,
    `To: ${parts.to ?? 'Team <team@mail.folio.test>'}`,
    ...(parts.cc ? [`Cc: ${parts.cc}`] : []),
    `Subject: ${parts.subject ?? 'Quarterly numbers'}`,
    `Date: Tue, 03 Nov 2026 10:00:00 +0100`,
    `Message-ID: ${parts.messageId ?? `<${randomUUID()}@sender.example>`}`,
    ...(parts.inReplyTo ? [`In-Reply-To: ${parts.inReplyTo}`] : []),
    ...(parts.references ? [`References: ${parts.references.join(' ')}`] : []),
    ...Object.entries(parts.headers ?? {}).map(([key, value]) => `${key}: ${value}`),
    'MIME-Version: 1.0',
  ];
  const text = parts.text ?? 'Hello team, the numbers are attached.';
  let body: string[];
  if (!parts.html && !parts.attachment) {
    body = ['Content-Type: text/plain; charset=utf-8', '', text];
  } else {
    const alt = `alt-${randomUUID()}`;
    const alternative = [
      `Content-Type: multipart/alternative; boundary="${alt}"`,
      '',
      `--${alt}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
      ...(parts.html ? [`--${alt}`, 'Content-Type: text/html; charset=utf-8', '', parts.html] : []),
      `--${alt}--`,
    ];
    if (!parts.attachment) {
      body = alternative;
    } else {
      const mixed = `mixed-${randomUUID()}`;
      body = [
        `Content-Type: multipart/mixed; boundary="${mixed}"`,
        '',
        `--${mixed}`,
        ...alternative,
        `--${mixed}`,
        `Content-Type: ${parts.attachment.contentType}; name="${parts.attachment.filename}"`,
        `Content-Disposition: attachment; filename="${parts.attachment.filename}"`,
        'Content-Transfer-Encoding: base64',
        '',
        parts.attachment.content.toString('base64'),
        `--${mixed}--`,
      ];
    }
  }
  return Buffer.from([...lines, ...body, ''].join('\r\n'));
}

/** Stores a message as `folio email deliver|import|draft` does (the outbox starts its deliveries after commit). */
export async function deliver(
  mailboxUuid: string,
  raw: Buffer,
  options: { kind?: EmailKind; spam?: boolean } = {},
): Promise<StoreResult> {
  const settings = config();
  return storeEmail(
    {
      db: db(),
      store: new S3ObjectStore(storage(), bucket()),
      masterKey: settings.masterKey,
      maxBytes: settings.smtp.maxBytes,
      runInTransaction: workflowClient().runInTransaction(db()),
    },
    { mailboxUuid, raw, kind: options.kind ?? 'delivered', markedSpam: options.spam },
  );
}

/** A destination created as the admin API creates one; answers its uuid and signing secret. */
export async function makeDestination(
  workspaceUuid: string,
  url: string,
  mailboxes: string[],
): Promise<{ uuid: string; secret: string }> {
  const deps = { masterKey: config().masterKey, policy: targetPolicyFrom(config().webhook) };
  const { destination, signingSecret } = await db().transaction((tx) =>
    createDestination(tx, deps, { workspaceUuid, url, mailboxes }),
  );
  return { uuid: destination.uuid, secret: signingSecret };
}

/** The attempts recorded for a destination, oldest first. */
export async function attemptsOf(destinationUuid: string) {
  return db()('webhook_attempts')
    .where({ destination_uuid: destinationUuid })
    .orderBy([{ column: 'started_at' }, { column: 'attempt' }]);
}

export async function destinationRow(destinationUuid: string) {
  return db()('webhook_destinations').where({ uuid: destinationUuid }).first();
}
