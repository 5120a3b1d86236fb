// Delivery signatures: HMAC-SHA256 over "<t>.<raw body>", verified the way a receiver must (raw bytes, constant time).
import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  parseSignatureHeader,
  signatureHeader,
  signPayload,
  verifySignature,
} from '../../../domain/webhooks/signature.js';

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

const secret = 'whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const body = Buffer.from('{"id":"whevt_1","type":"email.received"}');

describe('webhook signatures', () => {
  it('signs "<t>.<body>" with HMAC-SHA256 as hex, as the spec defines', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body.toString()}`).digest('hex');
    expect(signPayload(secret, 1700000000, body)).toBe(expected);
    expect(signatureHeader([secret], 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('signs with both secrets during a rotation, and either verifies', () => {
    const header = signatureHeader([secret, 'whsec_old'], 1700000000, body);
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
    expect(verifySignature(header, body, secret, { nowSeconds: 1700000000 })).toBe(true);
    expect(verifySignature(header, body, 'whsec_old', { nowSeconds: 1700000000 })).toBe(true);
    expect(verifySignature(header, body, 'whsec_other', { nowSeconds: 1700000000 })).toBe(false);
  });

  it('fails once the body is re-serialised, a byte changes, or the timestamp is stale', () => {
    const header = signatureHeader([secret], 1700000000, body);
    const reserialised = JSON.stringify(JSON.parse(body.toString()), null, 1);
    expect(verifySignature(header, reserialised, secret, { nowSeconds: 1700000000 })).toBe(false);
    expect(
      verifySignature(header, Buffer.concat([body, Buffer.from(' ')]), secret, { nowSeconds: 1700000000 }),
    ).toBe(false);
    expect(verifySignature(header, body, secret, { nowSeconds: 1700000000 + 301 })).toBe(false);
  });

  it('compares in constant time, every v1 value even after one matched, so the time taken tells nothing', () => {
    const header = signatureHeader([secret, 'whsec_old', 'whsec_older'], 1700000000, body);
    compared.calls = 0;
    expect(verifySignature(header, body, secret, { nowSeconds: 1700000000 })).toBe(true);
    expect(compared.calls).toBe(3);
    compared.calls = 0;
    expect(verifySignature(header, body, 'whsec_other', { nowSeconds: 1700000000 })).toBe(false);
    expect(compared.calls).toBe(3);
  });

  it('refuses malformed headers', () => {
    for (const header of ['', 't=1', 'v1=abc', `t=x,v1=${'a'.repeat(64)}`, `t=1,v1=${'g'.repeat(64)}`]) {
      expect(parseSignatureHeader(header), header).toBeUndefined();
    }
  });
});
