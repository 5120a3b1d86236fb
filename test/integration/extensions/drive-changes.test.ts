// Drive changes extras, an extension (docs/extensions.md § Drive changes extras): `sync_token=latest` (an empty page
// at the head) and the long-poll GET /v1/drive/changes/wait, woken by the change log's notifications. Interleavings
// are forced through the API's gauge of parked waiters (folio_drive_change_waits), never by sleeping.
import http from 'node:http';
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { call, firstApiUrl, makeColleague, makeFolder, makeUser, type TestUser } from '../../support/api.js';
import { until } from '../../support/webhook-receivers.js';

const changes = (user: TestUser, query: string) =>
  call('GET', `/v1/drive/changes${query}`, { token: user.token });
const waitPath = (token: string, timeout: number) =>
  `/v1/drive/changes/wait?sync_token=${encodeURIComponent(token)}&timeout=${timeout}`;
// The bound is per API process, and the gauge read is the first process's: these go to that one.
const wait = (user: TestUser, token: string, timeout = 60) =>
  call('GET', waitPath(token, timeout), { token: user.token, api: firstApiUrl() });

/** A long-poll on a connection of its own, for a test to drop: destroying the request closes the socket. */
function openWait(user: TestUser, token: string): http.ClientRequest {
  const url = new URL(waitPath(token, 120), firstApiUrl());
  const request = (url.protocol === 'https:' ? https : http).request(url, {
    headers: { authorization: `Bearer ${user.token}` },
    agent: false,
  });
  request.on('error', () => undefined); // The test destroys it.
  request.end();
  return request;
}

/** Long-polls parked in the API process, from its metrics. */
async function parkedWaits(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${process.env.FOLIO_METRICS_PORT}/metrics`)).text();
  return Number(/^folio_drive_change_waits (\d+)/m.exec(text)?.[1] ?? 0);
}
const parked = (count: number) =>
  until(`${count} parked long-polls`, async () => (await parkedWaits()) >= count, 60_000, 50);
// Well inside the waits' 120 s timeout: only a release on the closed connection gets there.
const unparked = (count: number) =>
  until(`at most ${count} parked long-polls`, async () => (await parkedWaits()) <= count, 30_000, 50);

async function latestToken(user: TestUser): Promise<string> {
  const page = await changes(user, '?sync_token=latest');
  expect(page.status).toBe(200);
  return page.body.sync_token as string;
}

describe('sync_token=latest', () => {
  it('answers an empty page with a token at the head, from which only later changes come', async () => {
    const user = await makeUser();
    await makeFolder(user, 'Before');
    const latest = await changes(user, '?sync_token=latest');
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({
      object: 'list',
      has_more: false,
      changes: [],
      sync_token: expect.any(String),
    });
    const after = await makeFolder(user, 'After');
    const next = await changes(user, `?since=${encodeURIComponent(latest.body.sync_token)}`);
    expect(next.body.changes.map((change: any) => change.uuid)).toEqual([after]);

    for (const query of [
      `?sync_token=latest&since=${encodeURIComponent(latest.body.sync_token)}`,
      '?sync_token=earliest',
      '?sync_token=latest&sync_token=latest',
    ]) {
      const refused = await changes(user, query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error).toBe('invalid_body');
    }
  });
});

describe('GET /v1/drive/changes/wait', () => {
  it('answers changes: true at once when a visible change is already after the token', async () => {
    const user = await makeUser();
    const token = await latestToken(user);
    await makeFolder(user, 'Already');
    const answer = await wait(user, token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ changes: true });
  });

  it('returns as soon as a change the caller can see commits while it waits', async () => {
    const user = await makeUser();
    const token = await latestToken(user);
    const before = await parkedWaits();
    const waiting = wait(user, token, 120);
    await parked(before + 1);
    await makeFolder(user, 'While waiting');
    expect((await waiting).body).toEqual({ changes: true });
  });

  it('keeps waiting through a change the caller cannot see, and answers changes: false at the timeout', async () => {
    const user = await makeUser();
    const colleague = await makeColleague(user);
    const token = await latestToken(user);
    const before = await parkedWaits();
    const waiting = wait(user, token, 3);
    await parked(before + 1);
    // A folder of the colleague's own, in the same workspace: it wakes the waiter, which reads and sees nothing.
    await makeFolder(colleague, 'Not shared');
    expect((await waiting).body).toEqual({ changes: false });
    // The token still works: the invisible change is not in the caller's feed.
    expect((await changes(user, `?since=${encodeURIComponent(token)}`)).body.changes).toEqual([]);
  });

  it('holds at most 3 long-polls per person (429 too_many_waits beyond), and wakes them all with one change', async () => {
    const user = await makeUser();
    const token = await latestToken(user);
    const before = await parkedWaits();
    const waits = [wait(user, token, 120), wait(user, token, 120), wait(user, token, 120)];
    await parked(before + 3);
    const refused = await wait(user, token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'too_many_waits', max_waits: 3 });
    expect(refused.headers.get('retry-after')).toBe('30');
    await makeFolder(user, 'Wake all');
    expect((await Promise.all(waits)).map((answer) => answer.body)).toEqual([
      { changes: true },
      { changes: true },
      { changes: true },
    ]);
    // Their slots are free again.
    await makeFolder(user, 'Again');
    expect((await wait(user, token)).body).toEqual({ changes: true });
  });

  it('gives the slot of a long-poll whose client closed its connection back at once, not at its timeout', async () => {
    const user = await makeUser();
    const token = await latestToken(user);
    const before = await parkedWaits();
    const kept = [wait(user, token, 120), wait(user, token, 120)];
    const dropped = openWait(user, token);
    await parked(before + 3);
    expect((await wait(user, token)).status).toBe(429);

    dropped.destroy();
    await unparked(before + 2);
    // The bound of 3 has room again: a new long-poll parks instead of 429.
    const again = wait(user, token, 120);
    await parked(before + 3);
    await makeFolder(user, 'Wake the rest');
    expect((await Promise.all([...kept, again])).map((answer) => answer.body)).toEqual([
      { changes: true },
      { changes: true },
      { changes: true },
    ]);
  });

  it('refuses a token of another server or person with 410, and a missing token or a bad timeout with 400', async () => {
    const user = await makeUser();
    const other = await makeUser();
    expect((await wait(user, await latestToken(other))).body.error).toBe('sync_token_invalid');
    expect((await wait(user, 'not-a-token')).status).toBe(410);
    const missing = await call('GET', '/v1/drive/changes/wait', { token: user.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_body');
    for (const timeout of [0, 121])
      expect((await wait(user, await latestToken(user), timeout)).status).toBe(400);
    const readOnlyScope = await call('GET', `/v1/drive/changes/wait?sync_token=x`, {
      token: (await makeUser({ scopes: ['docs.read'] })).token,
    });
    expect(readOnlyScope.status).toBe(403);
  });
});
