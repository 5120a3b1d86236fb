// The pieces of public links that need no server: the rate limiter's arithmetic, client address keys, the page's
// escaping and the logged path (the token is a secret).
import { describe, expect, it } from 'vitest';
import { RateLimiter, clientAddressKey } from '../../../api/middleware/rate-limit.js';
import { loggedPath } from '../../../api/middleware/request-context.js';
// The router declares /s/<token> a secret segment as it loads (platform/secret-paths.ts), as the app imports it.
import '../../../api/routes/drive/public-links.js';
import { renderSharedFolder, sharedItemUrls } from '../../../api/presenters/drive-public-links.js';
import type { ItemRow } from '../../../domain/drive/rows.js';

describe('RateLimiter', () => {
  it('lets `limit` requests through at once, then refuses with the seconds until one more may go', () => {
    const limiter = new RateLimiter(3, 60_000);
    const t = 1_000_000;
    expect([limiter.take('a', t), limiter.take('a', t), limiter.take('a', t)]).toEqual([0, 0, 0]);
    expect(limiter.take('a', t)).toBe(20); // one token every 20 s
    expect(limiter.take('b', t)).toBe(0); // keys are independent
    expect(limiter.take('a', t + 5_000)).toBe(15);
    expect(limiter.take('a', t + 20_000)).toBe(0);
    expect(limiter.take('a', t + 20_000)).toBe(20);
  });

  it('refills to the limit and no further, and a refused request costs nothing', () => {
    const limiter = new RateLimiter(2, 1_000);
    for (let n = 0; n < 10; n++) limiter.take('a', 0);
    expect(limiter.take('a', 500)).toBe(0);
    expect(limiter.take('a', 10_000_000)).toBe(0);
    expect(limiter.take('a', 10_000_000)).toBe(0);
    expect(limiter.take('a', 10_000_000)).toBe(1);
  });

  it('keeps at most maxKeys keys, forgetting the least recently seen', () => {
    const limiter = new RateLimiter(1, 60_000, 2);
    limiter.take('a', 0);
    limiter.take('b', 0);
    limiter.take('c', 0);
    expect(limiter.take('c', 0)).toBeGreaterThan(0);
    expect(limiter.take('a', 0)).toBe(0); // forgotten: a full bucket again
  });
});

describe('clientAddressKey', () => {
  it('keys IPv4 by address, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(clientAddressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientAddressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientAddressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:bbbb::9')).toBe(clientAddressKey('2001:db8:1:2:aaaa::1'));
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(clientAddressKey('2001:db8:1:2::1'));
  });
});

describe('loggedPath', () => {
  it('leaves a public link token out of the request log', () => {
    expect(loggedPath('/s/abcdefghijklmnopqrstuvwxyz012345')).toBe('/s/<token>');
    expect(loggedPath('/s/abcdefghijklmnopqrstuvwxyz012345/6b0f4c36-0d8b-4f3e-9a55-0c9f1a2b3c4d')).toBe(
      '/s/<token>/6b0f4c36-0d8b-4f3e-9a55-0c9f1a2b3c4d',
    );
    expect(loggedPath('/v1/drive/files')).toBe('/v1/drive/files');
  });
});

describe('renderSharedFolder', () => {
  it('escapes every name and address it writes', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const folder = {
      uuid: 'f',
      name: `"><img src=x onerror=alert(1)>`,
      kind: 'folder',
      parent_uuid: null,
    } as unknown as ItemRow;
    const html = renderSharedFolder(
      {
        folder,
        parentUuid: null,
        truncated: true,
        entries: [
          {
            uuid: 'e',
            kind: 'file',
            name: `<x>&'"`,
            content_type: 'text/plain',
            file_size_bytes: '1500',
            updated_at: at,
          },
        ],
      },
      sharedItemUrls('http://h/"x', { token: 't', itemUuid: 'f' }),
    );
    expect(html).not.toMatch(/<img|<x>/);
    expect(html).toContain('&lt;x&gt;&amp;&#39;&quot;');
    expect(html).toContain('href="http://h/&quot;x/s/t/e"');
    expect(html).toContain('1.5 KB');
    expect(html).toContain('Only the first 1 items are listed.');
  });
});
