// Mail in and reading it back: GET /v1/emails/{uuid} for members of the mailbox only (spec/webhooks.md § Authentication
// 3 and 4), the response shape of docs/webhooks.md, threading, labels, and the raw message encrypted at rest.
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../domain/accounts/credentials.js';
import { EARLIER_REPLY } from '../../../domain/email/messages.js';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { call, makeUser, makeWorkspace, tokenFor } from '../../support/api.js';
import { deliver, emlMessage, makeAdmin, makeMailbox } from '../../support/mail.js';

async function storedEmail(result: Awaited<ReturnType<typeof deliver>>): Promise<string> {
  if (result.outcome !== 'stored') throw new Error(`not stored: ${JSON.stringify(result)}`);
  return result.uuid;
}

describe('GET /v1/emails/{uuid}', () => {
  it('answers a member of the mailbox with the documented shape', async () => {
    const workspace = await makeWorkspace();
    const member = await makeUser({ workspace });
    const mailbox = await makeMailbox(workspace.uuid, [member.uuid]);
    const uuid = await storedEmail(
      await deliver(
        mailbox.uuid,
        emlMessage({
          subject: 'Quarterly numbers',
          to: 'Team <team@mail.folio.test>, bob@mail.folio.test',
          cc: 'Carol <carol@cc.example>',
          messageId: '<q3@sender.example>',
          html: '<p>Hello <b>team</b></p>',
          attachment: {
            filename: 'numbers.csv',
            contentType: 'text/csv',
            content: Buffer.from('a,b\n1,2\n'),
          },
        }),
      ),
    );
    const response = await call('GET', `/v1/emails/${uuid}`, { token: member.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'email',
      uuid,
      mailbox_uuid: mailbox.uuid,
      thread: { uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      message_id: '<q3@sender.example>',
      in_reply_to: null,
      references: [],
      from: { name: 'Alice Sender', address: 'alice@sender.example' },
      to: [
        { name: 'Team', address: 'team@mail.folio.test' },
        { name: null, address: 'bob@mail.folio.test' },
      ],
      cc: [{ name: 'Carol', address: 'carol@cc.example' }],
      subject: 'Quarterly numbers',
      date: '2026-11-03T09:00:00.000Z',
      received_at: expect.stringMatching(/Z$/),
      labels: ['inbox'],
      size_bytes: expect.any(Number),
      text: expect.stringContaining('Hello team'),
      html: '<p>Hello <b>team</b></p>',
      attachments: [
        {
          filename: 'numbers.csv',
          content_type: 'text/csv',
          size_bytes: 8,
          content_id: null,
          disposition: 'attachment',
        },
      ],
    });
  });

  it('hides the email from a workspace admin who is not a member (404, as if it did not exist)', async () => {
    const workspace = await makeWorkspace();
    const member = await makeUser({ workspace });
    const admin = await makeAdmin(workspace);
    const mailbox = await makeMailbox(workspace.uuid, [member.uuid]);
    const uuid = await storedEmail(await deliver(mailbox.uuid, emlMessage()));
    const response = await call('GET', `/v1/emails/${uuid}`, { token: admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found', error_description: expect.any(String) });
  });

  it('refuses a workspace API key with 403 forbidden', async () => {
    const workspace = await makeWorkspace();
    const member = await makeUser({ workspace });
    const mailbox = await makeMailbox(workspace.uuid, [member.uuid]);
    const uuid = await storedEmail(await deliver(mailbox.uuid, emlMessage()));
    const { api_key } = await issueApiKey(db(), workspace.uuid);
    const response = await call('GET', `/v1/emails/${uuid}`, { token: api_key });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: 'forbidden' });
  });

  it('needs the email.read scope, and answers 404 for an unknown or malformed id', async () => {
    const workspace = await makeWorkspace();
    const member = await makeUser({ workspace });
    const mailbox = await makeMailbox(workspace.uuid, [member.uuid]);
    const uuid = await storedEmail(await deliver(mailbox.uuid, emlMessage()));
    const narrow = await tokenFor(member, ['drive.read']);
    const refused = await call('GET', `/v1/emails/${uuid}`, { token: narrow });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'insufficient_scope', scope: 'email.read' });
    expect(
      (await call('GET', '/v1/emails/00000000-0000-4000-8000-000000000000', { token: member.token })).status,
    ).toBe(404);
    expect((await call('GET', '/v1/emails/not-a-uuid', { token: member.token })).status).toBe(404);
  });

  it('stops answering a member who is removed, and starts answering one who is added', async () => {
    const { addMailboxMember, removeMailboxMember } = await import('../../../domain/email/mailboxes.js');
    const workspace = await makeWorkspace();
    const first = await makeUser({ workspace });
    const second = await makeUser({ workspace });
    const mailbox = await makeMailbox(workspace.uuid, [first.uuid]);
    const uuid = await storedEmail(await deliver(mailbox.uuid, emlMessage()));
    expect((await call('GET', `/v1/emails/${uuid}`, { token: second.token })).status).toBe(404);
    await db().transaction((tx) => addMailboxMember(tx, mailbox.uuid, second.uuid));
    expect((await call('GET', `/v1/emails/${uuid}`, { token: second.token })).status).toBe(200);
    await db().transaction((tx) => removeMailboxMember(tx, mailbox.uuid, first.uuid));
    expect((await call('GET', `/v1/emails/${uuid}`, { token: first.token })).status).toBe(404);
  });

  it('threads replies by In-Reply-To and References, in either order of arrival', async () => {
    const workspace = await makeWorkspace();
    const member = await makeUser({ workspace });
    const mailbox = await makeMailbox(workspace.uuid, [member.uuid]);
    const root = await storedEmail(
      await deliver(mailbox.uuid, emlMessage({ messageId: '<root@x.example>' })),
    );
    const reply = await storedEmail(
      await deliver(mailbox.uuid, emlMessage({ messageId: '<r1@x.example>', inReplyTo: '<root@x.example>' })),
    );
    const other = await storedEmail(
      await deliver(mailbox.uuid, emlMessage({ messageId: '<other@x.example>' })),
    );
    // The reply to a message not yet here starts a thread that the message joins when it arrives.
    const early = await storedEmail(
      await deliver(
        mailbox.uuid,
        emlMessage({ messageId: '<r2@y.example>', references: ['<late@y.example>'] }),
      ),
    );
    const late = await storedEmail(
      await deliver(mailbox.uuid, emlMessage({ messageId: '<late@y.example>' })),
    );
    // The same by In-Reply-To alone.
    const earlyReply = await storedEmail(
      await deliver(mailbox.uuid, emlMessage({ messageId: '<r3@z.example>', inReplyTo: '<late@z.example>' })),
    );
    const lateRoot = await storedEmail(
      await deliver(mailbox.uuid, emlMessage({ messageId: '<late@z.example>' })),
    );
    const thread = async (uuid: string) =>
      (await call('GET', `/v1/emails/${uuid}`, { token: member.token })).body.thread.uuid;
    expect(await thread(reply)).toBe(await thread(root));
    expect(await thread(other)).not.toBe(await thread(root));
    expect(await thread(late)).toBe(await thread(early));
    expect(await thread(lateRoot)).toBe(await thread(earlyReply));
    expect(await thread(lateRoot)).not.toBe(await thread(late));
  });

  it('finds earlier replies through indexes, not by reading the whole mailbox', async () => {
    // A mailbox of 5,000 messages, each replying to and referencing one of its own: the planner then has statistics
    // that make reading the mailbox the dear plan, as it is for a real one.
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const [thread] = await db()('email_threads').insert({ mailbox_uuid: mailbox.uuid }).returning('uuid');
    await db().raw(
      `insert into emails (uuid, workspace_uuid, mailbox_uuid, thread_uuid, kind, labels, message_id, in_reply_to,
         "references", storage_key, wrapped_key, size_bytes, chunk_size_bytes)
       select gen_random_uuid(), ?, ?, ?, 'delivered', '{}', '<m' || n || '@x.example>', '<p' || n || '@x.example>',
         array['<r' || n || '@x.example>'], 'k' || n, '\\x00', 1, 1
       from generate_series(1, 5000) n`,
      [workspace.uuid, mailbox.uuid, thread.uuid],
    );
    await db().raw('analyze emails');
    const { rows } = (await db().raw(`explain ${EARLIER_REPLY}`, {
      mailboxUuid: mailbox.uuid,
      messageId: '<p17@x.example>',
    })) as { rows: { 'QUERY PLAN': string }[] };
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(/emails_mailbox_in_reply_to/);
    expect(plan).toMatch(/emails_references/);
  });

  it('keeps the raw message encrypted in object storage', async () => {
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const uuid = await storedEmail(
      await deliver(mailbox.uuid, emlMessage({ subject: 'A very recognisable subject line' })),
    );
    const row = await db()('emails').where({ uuid }).first();
    const stream = await storage().getObject(bucket(), row.storage_key);
    const pieces: Buffer[] = [];
    for await (const piece of stream) pieces.push(piece as Buffer);
    const stored = Buffer.concat(pieces);
    expect(stored.length).toBe(Number(row.size_bytes) + 28);
    expect(stored.includes(Buffer.from('recognisable'))).toBe(false);
    expect(row.wrapped_key).toHaveLength(61);
  });
});
