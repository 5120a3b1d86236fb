// The per-process credential cache: what it serves, and that a revocation or a lost session makes it forget at once.
import { describe, expect, it } from 'vitest';
import { CredentialCache } from '../../../api/middleware/credential-cache.js';
import type { Credential } from '../../../domain/accounts/credentials.js';
import type { ProcessSessionEvents } from '../../../platform/process-session.js';

/** A session whose revocations and resets the test delivers, as the real one does when PostgreSQL notifies it. */
function fakeSession() {
  const subscribers: ProcessSessionEvents[] = [];
  const session = {
    live: true,
    subscribe: (events: ProcessSessionEvents) => void subscribers.push(events),
    revoke: (hashHex: string) => subscribers.forEach((events) => events.onCredentialRevoked(hashHex)),
    reset: () => subscribers.forEach((events) => events.onReset()),
  };
  return session;
}

const user = (expiresInMs = 3_600_000): Credential => ({
  kind: 'user',
  tokenUuid: 't',
  workspaceUuid: 'w',
  userUuid: 'u',
  scopes: ['drive.read'],
  expiresAt: new Date(Date.now() + expiresInMs),
});

/** A lookup that counts its calls and answers what the database holds now. */
function lookup(answer: () => Credential | undefined) {
  const counter = { calls: 0, resolve: async () => (counter.calls++, answer()) };
  return counter;
}

describe('CredentialCache', () => {
  it('serves a resolved credential again without a lookup', async () => {
    const cache = new CredentialCache(fakeSession());
    const db = lookup(() => user());
    await cache.get('aa', db.resolve);
    expect(await cache.get('aa', db.resolve)).toMatchObject({ kind: 'user', userUuid: 'u' });
    expect(db.calls).toBe(1);
  });

  it('forgets a credential as soon as its revocation is heard', async () => {
    const session = fakeSession();
    const cache = new CredentialCache(session);
    let revoked = false;
    const db = lookup(() => (revoked ? undefined : user()));
    expect(await cache.get('aa', db.resolve)).toBeDefined();
    revoked = true;
    session.revoke('aa');
    expect(await cache.get('aa', db.resolve)).toBeUndefined();
  });

  it('does not cache what a lookup read before a revocation it overlapped', async () => {
    const session = fakeSession();
    const cache = new CredentialCache(session);
    const stale = lookup(() => user());
    // The row is read as live, then the revocation is heard before the lookup returns.
    await cache.get('aa', async () => {
      const credential = await stale.resolve();
      session.revoke('aa');
      return credential;
    });
    const now = lookup(() => undefined);
    expect(await cache.get('aa', now.resolve)).toBeUndefined();
    expect(now.calls).toBe(1);
  });

  it('forgets everything when the session resets, and caches nothing while it is down', async () => {
    const session = fakeSession();
    const cache = new CredentialCache(session);
    const db = lookup(() => user());
    await cache.get('aa', db.resolve);
    session.reset();
    session.live = false;
    await cache.get('aa', db.resolve);
    await cache.get('aa', db.resolve);
    expect(db.calls).toBe(3);
  });

  it('never serves a token past its expiry, nor caches one about to expire for longer', async () => {
    const cache = new CredentialCache(fakeSession());
    const db = lookup(() => user(-1));
    await cache.get('aa', db.resolve);
    await cache.get('aa', db.resolve);
    expect(db.calls).toBe(2);
  });

  it('never caches an unknown secret, so a token issued a moment later works at once', async () => {
    const cache = new CredentialCache(fakeSession());
    let issued = false;
    const db = lookup(() => (issued ? user() : undefined));
    expect(await cache.get('aa', db.resolve)).toBeUndefined();
    issued = true;
    expect(await cache.get('aa', db.resolve)).toBeDefined();
  });
});
