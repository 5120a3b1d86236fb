// @folio/client's verifyWebhook against headers made by the service's own signer (domain/webhooks/signature.ts).
import { describe, expect, it, vi } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../../clients/typescript/src/index.js';
import { signatureHeader } from '../../../domain/webhooks/signature.js';

// Every comparison is watched: it must go through crypto.timingSafeEqual (constant time), never ===.
const compared = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (original) => {
  const crypto = await original<typeof import('node:crypto')>();
  return {
    ...crypto,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.calls++;
      return crypto.timingSafeEqual(a, b);
    },
  };
});

const secret = 'whsec_current-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const previous = 'whsec_previous-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const event = {
  id: 'whevt_0b7c6d54-8f3e-4a57-9a1f-6c2d1e0f9a88',
  type: 'email.received',
  workspace_uuid: 'b9f0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
  created_at: '2026-11-24T22:00:00.000+00:00',
  data: { email_uuid: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' },
};
const raw = JSON.stringify(event);
const now = 1_795_000_000;

describe('verifyWebhook', () => {
  it('accepts a delivery signed with the secret and answers its body', () => {
    const header = signatureHeader([secret], now, raw);
    expect(verifyWebhook(raw, header, secret, { nowSeconds: now + 10 })).toEqual(event);
    expect(verifyWebhook(Buffer.from(raw), header, secret, { nowSeconds: now - 10 })).toEqual(event);
  });

  it('refuses a tampered body, a re-serialised body, another secret and a tampered signature', () => {
    const header = signatureHeader([secret], now, raw);
    const refused = (body: string, h: string, key: string) => () =>
      verifyWebhook(body, h, key, { nowSeconds: now });
    expect(refused(raw.replace('c1d2', 'c1d3'), header, secret)).toThrow(
      new WebhookVerificationError('no signature matches'),
    );
    expect(refused(JSON.stringify(event, null, 1), header, secret)).toThrow('no signature matches');
    expect(refused(raw, header, 'whsec_other')).toThrow('no signature matches');
    const flipped = header.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    expect(refused(raw, flipped, secret)).toThrow('no signature matches');
    expect(refused(raw, `t=${now}`, secret)).toThrow('malformed X-Service-Signature header');
    expect(() => verifyWebhook(raw, undefined, secret)).toThrow('no X-Service-Signature header');
  });

  it('refuses a delivery older or newer than the tolerance (a replay), 300 s unless told', () => {
    const header = signatureHeader([secret], now, raw);
    expect(verifyWebhook(raw, header, secret, { nowSeconds: now + 300 })).toEqual(event);
    expect(() => verifyWebhook(raw, header, secret, { nowSeconds: now + 301 })).toThrow(
      'timestamp outside the tolerance',
    );
    expect(() => verifyWebhook(raw, header, secret, { nowSeconds: now - 301 })).toThrow(
      'timestamp outside the tolerance',
    );
    expect(() => verifyWebhook(raw, header, secret, { nowSeconds: now + 31, toleranceSeconds: 30 })).toThrow(
      'timestamp outside the tolerance',
    );
    expect(verifyWebhook(raw, header, secret, { nowSeconds: now + 30, toleranceSeconds: 30 })).toEqual(event);
  });

  it('during a rotation accepts either v1 of the header, with the new secret or the old one, or both held', () => {
    const header = signatureHeader([secret, previous], now, raw);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhook(raw, header, secret, { nowSeconds: now })).toEqual(event);
    expect(verifyWebhook(raw, header, previous, { nowSeconds: now })).toEqual(event);
    expect(verifyWebhook(raw, header, ['whsec_other', previous], { nowSeconds: now })).toEqual(event);
    // A receiver that holds both secrets accepts a delivery signed by the old one alone.
    expect(
      verifyWebhook(raw, signatureHeader([previous], now, raw), [secret, previous], { nowSeconds: now }),
    ).toEqual(event);
  });

  it('compares every candidate in constant time, even after one matched', () => {
    const header = signatureHeader([secret, previous], now, raw);
    compared.calls = 0;
    verifyWebhook(raw, header, [secret, previous], { nowSeconds: now });
    expect(compared.calls).toBe(4);
  });
});
