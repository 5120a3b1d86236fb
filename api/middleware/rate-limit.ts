// Rate limits kept in this API process's memory: a token bucket per key (a client address, a public link).
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Lets `limit` requests per key through in any `windowMs` burst, refilling at limit/windowMs. A refused request
 * costs nothing. The least recently seen keys are forgotten past `maxKeys`, so memory stays bounded whatever
 * keys a client invents (a forgotten key starts again with a full bucket).
 */
export class RateLimiter {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    maxKeys = 100_000,
  ) {
    this.buckets = new LRUCache({ max: maxKeys });
  }

  /** Takes one request for the key: 0 when it may go ahead, else the whole seconds until it may. */
  take(key: string, now = Date.now()): number {
    const perMs = this.limit / this.windowMs;
    const held = this.buckets.get(key);
    const tokens = held ? Math.min(this.limit, held.tokens + (now - held.at) * perMs) : this.limit;
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return 0;
    }
    this.buckets.set(key, { tokens, at: now });
    return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  }
}

/**
 * The key of a client address: the address itself for IPv4, its /64 for IPv6, because one host commonly holds a
 * whole /64 and would otherwise get a fresh bucket per address.
 */
export function clientAddressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address); // An IPv4-mapped IPv6 address counts as its IPv4 address.
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
