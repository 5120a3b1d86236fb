// Pure pieces of mail in and events out: filter rules, the spam flag, the event body, event ids, signing secrets.
import { describe, expect, it } from 'vitest';
import { applyRules, type MailboxRule } from '../../../domain/email/mailboxes.js';
import { parseEmail } from '../../../domain/email/parse.js';
import { eventBody } from '../../../domain/webhooks/deliveries.js';
import { eventUuidOf } from '../../../domain/webhooks/events.js';
import { newSecret, secretText, signingSecrets, wrapSecret } from '../../../domain/webhooks/secrets.js';

const rule = (
  field: MailboxRule['field'],
  contains: string,
  action: 'delete' | 'label',
  label: string | null = null,
): MailboxRule => ({
  uuid: `${field}-${contains}`,
  mailbox_uuid: 'm',
  field,
  contains,
  action,
  label,
  created_at: new Date(),
});

describe('mailbox rules', () => {
  it('deletes on the first matching delete rule, case-insensitively, and collects labels otherwise', () => {
    const rules = [
      rule('subject', 'Invoice', 'label', 'finance'),
      rule('from', 'NEWSLETTER@', 'delete'),
      rule('to', 'sales@', 'label', 'sales'),
    ];
    expect(applyRules(rules, { from: ['newsletter@shop.example'], to: [], subject: 'invoice' })).toEqual({
      deletedBy: 'from-NEWSLETTER@',
      labels: [],
    });
    expect(
      applyRules(rules, { from: ['a@b.example'], to: ['sales@folio.test'], subject: 'Your INVOICE' }),
    ).toEqual({ deletedBy: null, labels: ['finance', 'sales'] });
    expect(applyRules(rules, { from: ['a@b.example'], to: [], subject: null })).toEqual({
      deletedBy: null,
      labels: [],
    });
  });
});

describe('parseEmail', () => {
  it('reads X-Spam-Flag: YES as an upstream spam verdict, and nothing else', async () => {
    const message = (flag: string) =>
      Buffer.from(`From: a@b.example\r\nTo: c@d.example\r\nSubject: s\r\n${flag}\r\n\r\nbody\r\n`);
    expect((await parseEmail(message('X-Spam-Flag: YES'))).spamFlagged).toBe(true);
    expect((await parseEmail(message('X-Spam-Flag: yes'))).spamFlagged).toBe(true);
    expect((await parseEmail(message('X-Spam-Flag: NO'))).spamFlagged).toBe(false);
    expect((await parseEmail(message('X-Other: 1'))).spamFlagged).toBe(false);
  });
});

describe('event ids and body', () => {
  it('accepts whevt_<uuid> or a bare uuid and nothing else', () => {
    const uuid = '0b6f4a3e-52a8-4b8e-9a33-1f6c1c0f9d10';
    expect(eventUuidOf(`whevt_${uuid}`)).toBe(uuid);
    expect(eventUuidOf(uuid.toUpperCase())).toBe(uuid);
    expect(eventUuidOf('whevt_nope')).toBeUndefined();
  });

  it('carries identifiers only, created_at with an explicit offset, in a fixed field order', () => {
    const body = eventBody({
      uuid: '0b6f4a3e-52a8-4b8e-9a33-1f6c1c0f9d10',
      type: 'email.received',
      workspace_uuid: '11111111-1111-4111-8111-111111111111',
      email_uuid: '22222222-2222-4222-8222-222222222222',
      created_at: new Date('2026-11-03T09:00:00.123Z'),
    });
    expect(body.toString()).toBe(
      '{"id":"whevt_0b6f4a3e-52a8-4b8e-9a33-1f6c1c0f9d10","type":"email.received","workspace_uuid":"11111111-1111-4111-8111-111111111111",' +
        '"created_at":"2026-11-03T09:00:00.123+00:00","data":{"email_uuid":"22222222-2222-4222-8222-222222222222"}}',
    );
  });
});

describe('signing secrets', () => {
  it('signs with the current secret, and the previous one only until it expires', () => {
    const masterKey = Buffer.alloc(32, 9);
    const uuid = '33333333-3333-4333-8333-333333333333';
    const current = newSecret();
    const previous = newSecret();
    const row = {
      uuid,
      secret_wrapped: wrapSecret(masterKey, uuid, current),
      previous_secret_wrapped: wrapSecret(masterKey, uuid, previous),
      previous_secret_expires_at: new Date('2026-01-02T00:00:00Z'),
    };
    expect(signingSecrets(masterKey, row, new Date('2026-01-01T00:00:00Z'))).toEqual([
      secretText(current),
      secretText(previous),
    ]);
    expect(signingSecrets(masterKey, row, new Date('2026-01-03T00:00:00Z'))).toEqual([secretText(current)]);
    expect(() =>
      signingSecrets(masterKey, { ...row, uuid: '44444444-4444-4444-8444-444444444444' }, new Date()),
    ).toThrow();
  });
});
