// A brief per-process memory of resolved credentials, keyed by the secret's hash, so most requests skip the lookup.
// Revocation is honoured at once: every revoke (or delete) NOTIFYs all API processes at its commit
// (db/migrations/017_credential_revocations.ts) and the entry goes; `revokeAccessToken` returns only once every API
// process has heard it (platform/process-session.ts everyApiProcessHeard), so a request sent after a revocation finds
// no entry for it, and serving an entry costs a request nothing. While the session is down nothing is cached.
import { LRUCache } from 'lru-cache';
import { CREDENTIAL_CACHE_TTL_MS, type Credential } from '../../domain/accounts/credentials.js';
import type { ProcessSession } from '../../platform/process-session.js';

const CREDENTIAL_CACHE_ENTRIES = 10_000;

export class CredentialCache {
  private readonly entries = new LRUCache<string, Credential>({
    max: CREDENTIAL_CACHE_ENTRIES,
    ttl: CREDENTIAL_CACHE_TTL_MS,
  });
  /** Bumped by every revocation and reset: a lookup that began before one must not cache what it read. */
  private generation = 0;

  constructor(private readonly session: Pick<ProcessSession, 'live' | 'subscribe'>) {
    session.subscribe({
      onCredentialRevoked: (hashHex) => {
        this.generation++;
        this.entries.delete(hashHex);
      },
      onReset: () => {
        this.generation++;
        this.entries.clear();
      },
    });
  }

  /** The cached credential of this hash, or the one `resolve` reads (cached when nothing was revoked meanwhile). */
  async get(
    hashHex: string,
    resolve: () => Promise<Credential | undefined>,
  ): Promise<Credential | undefined> {
    if (!this.session.live) return resolve();
    const cached = this.entries.get(hashHex);
    if (cached && (cached.kind !== 'user' || cached.expiresAt.getTime() > Date.now())) return cached;
    const generation = this.generation;
    const credential = await resolve();
    if (credential && generation === this.generation && this.session.live) {
      const ttl =
        credential.kind === 'user'
          ? Math.min(CREDENTIAL_CACHE_TTL_MS, credential.expiresAt.getTime() - Date.now())
          : CREDENTIAL_CACHE_TTL_MS;
      if (ttl > 0) this.entries.set(hashHex, credential, { ttl });
    }
    return credential;
  }
}
