// Receiver-side check of a Folio webhook delivery (spec/webhooks.md § Authentication, docs/webhooks.md): HMAC-SHA256
// of "<t>.<raw body>" keyed with the signing secret's UTF-8 text, hex, in `X-Service-Signature: t=<s>,v1=<hex>`.
// During a secret rotation the service signs with both secrets (two v1=); any one matching is enough.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class WebhookVerificationError extends Error {}

export interface VerifyWebhookOptions {
  /** Largest distance between the header's t and this clock (default 300 s): older deliveries are replays. */
  toleranceSeconds?: number;
  /** The receiver's clock in Unix seconds (default: now). */
  nowSeconds?: number;
}

/** A delivery's body (spec/webhooks.md § Delivery request). */
export interface WebhookEvent {
  id: string;
  type: string;
  workspace_uuid: string;
  created_at: string;
  data: { email_uuid: string; [field: string]: unknown };
  [field: string]: unknown;
}

/**
 * Checks a delivery and answers its parsed body; throws WebhookVerificationError otherwise. `rawBody` must be the
 * bytes as received (re-serialised JSON does not match). `secret` may list several secrets, for a receiver that
 * holds the old and the new one while it switches over. Every candidate is compared in constant time, and all of
 * them are compared even after one matched, so timing says nothing about which.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | string[] | undefined,
  secret: string | string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) throw new WebhookVerificationError('no X-Service-Signature header');
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of value.split(',')) {
    const [key, field] = part.trim().split('=', 2) as [string, string | undefined];
    if (key === 't' && field && /^\d{1,12}$/.test(field)) timestamp = Number(field);
    else if (key === 'v1' && field && /^[0-9a-f]{64}$/.test(field))
      signatures.push(Buffer.from(field, 'hex'));
  }
  if (timestamp === undefined || !signatures.length)
    throw new WebhookVerificationError('malformed X-Service-Signature header');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('timestamp outside the tolerance');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
  let matched = false;
  for (const key of Array.isArray(secret) ? secret : [secret]) {
    const expected = createHmac('sha256', key).update(`${timestamp}.`).update(body).digest();
    for (const signature of signatures) matched = timingSafeEqual(expected, signature) || matched;
  }
  if (!matched) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(Buffer.from(body).toString('utf8')) as WebhookEvent;
}
