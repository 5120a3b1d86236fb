// No secret of a URL reaches the API's log (docs/operations.md § Secrets in logs): an admin sign-in link opened and
// redeemed, and a public link fetched as /s/<token> and /S/<token> (a 404: routes match in their own case only), leave only
// /admin/sign-in/<token> and /s/<token> in the request lines. The scan of the whole run's logs is test/support/log-scan.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdminClient, signInLinkPath } from '../../support/admin-browser.js';
import { makeUser } from '../../support/api.js';
import { CLI_TIMEOUT_MS, folio } from '../../support/cli.js';
import { simpleUpload } from '../../support/drive-files.js';
import { makeAdmin } from '../../support/mail.js';
import { until } from '../../support/webhook-receivers.js';

/** Every line the API processes of this run logged so far. */
function apiLogLines(): string[] {
  const root = process.env.FOLIO_TEST_ROOT!;
  return readdirSync(root)
    .filter((name) => /^api\b.*\.log$/.test(name))
    .flatMap((name) => readFileSync(join(root, name), 'utf8').split('\n'));
}

/** The request lines with these request ids, once all of them are written. */
async function requestLines(requestIds: string[]): Promise<Record<string, unknown>[]> {
  return until('the request lines in the API log', () => {
    const lines = apiLogLines()
      .filter((line) => requestIds.some((id) => line.includes(id)))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request');
    return lines.length >= requestIds.length && lines;
  });
}

describe('secrets in request paths', () => {
  it('logs an admin sign-in link opened in any case, and redeemed, without its secret', async () => {
    const admin = await makeAdmin();
    const link = await signInLinkPath(admin.email);
    const secret = link.split('/').pop()!;
    expect(secret).toMatch(/^folio_sl_/);
    const browser = new AdminClient();
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    expect((await browser.request('GET', link, undefined, { 'x-request-id': ids[0]! })).status).toBe(200);
    // Routes match in their own case only: the capitalised path is no sign-in link, so the admin app sends a visitor
    // without a session to its sign-in page, as for any other of its paths; the path is still logged redacted.
    const capitalised = await browser.request('GET', link.replace('/sign-in/', '/SIGN-IN/'), undefined, {
      'x-request-id': ids[1]!,
    });
    expect(capitalised.status).toBe(303);
    const page = await browser.get(link);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    const redeemed = await browser.request('POST', link, csrf ? { _csrf: csrf } : {}, {
      'x-request-id': ids[2]!,
    });
    expect(redeemed.status).toBe(303);

    const lines = await requestLines(ids);
    expect(lines.map((line) => line.path).sort()).toEqual([
      '/admin/SIGN-IN/<token>',
      '/admin/sign-in/<token>',
      '/admin/sign-in/<token>',
    ]);
    expect(apiLogLines().filter((line) => line.includes(secret))).toEqual([]);
    expect(apiLogLines().filter((line) => line.includes(secret.slice('folio_sl_'.length)))).toEqual([]);
  });

  it(
    'serves a public link as /s/<token>, refuses /S/<token> with 404, and logs neither token',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const owner = await makeUser();
      const file = await simpleUpload(owner, 'shared.txt', randomBytes(64));
      const { url } = await folio('share', 'link', '--file', file.uuid);
      const { origin, pathname } = new URL(url);
      const token = pathname.split('/').pop()!;
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const paths = [`/s/${token}`, `/S/${token}`, `/s/${token}/${randomUUID()}`];
      const statuses = [];
      for (const [n, path] of paths.entries())
        statuses.push((await fetch(origin + path, { headers: { 'x-request-id': ids[n]! } })).status);
      // The file itself; /S/ is no route (routes match in their own case only); nothing lies below a file.
      expect(statuses).toEqual([200, 404, 404]);

      const lines = await requestLines(ids);
      expect(lines.map((line) => String(line.path).replace(/[0-9a-f-]{36}$/, '<uuid>')).sort()).toEqual([
        '/S/<token>',
        '/s/<token>',
        '/s/<token>/<uuid>',
      ]);
      expect(apiLogLines().filter((line) => line.includes(token))).toEqual([]);
    },
  );
});
