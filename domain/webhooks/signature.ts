// Delivery signatures (spec/webhooks.md § Authentication): HMAC-SHA256 over "<t>.<raw body>", hex, in
// `X-Service-Signature: t=<unix seconds>,v1=<hex>`. During a secret rotation both secrets sign: `v1=` appears twice.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signing secret's UTF-8 text is the HMAC key, exactly as the admin app shows it (docs/webhooks.md). */
export function signPayload(secret: string, timestamp: number, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function signatureHeader(secrets: string[], timestamp: number, body: Buffer | string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`)].join(
    ',',
  );
}

export interface ParsedSignature {
  timestamp: number;
  signatures: string[];
}

export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2) as [string, string | undefined];
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  return timestamp === undefined || !signatures.length ? undefined : { timestamp, signatures };
}

/**
 * What a receiver does: recompute over the raw bytes and compare in constant time against each v1 value; a timestamp
 * further than `toleranceSeconds` from `nowSeconds` is refused, so a captured request cannot be replayed later.
 */
export function verifySignature(
  header: string,
  body: Buffer | string,
  secret: string,
  options: { nowSeconds: number; toleranceSeconds?: number },
): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  if (Math.abs(options.nowSeconds - parsed.timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signPayload(secret, parsed.timestamp, body), 'hex');
  let matched = false;
  for (const signature of parsed.signatures)
    matched = timingSafeEqual(expected, Buffer.from(signature, 'hex')) || matched;
  return matched;
}
