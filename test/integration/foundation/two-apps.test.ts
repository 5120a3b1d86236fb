// Two apps in one process, each built from a services object of its own (api/services.ts), share nothing: one app's
// large-upload slots or public-link rate limit filled leaves the other's free, a document one app parsed is in its
// cache only, and one app's shutdown leaves the other serving. This is what a composition root buys (issue 23): no module of api/ keeps state of its own.
import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { makeDocument, makeUser, type TestUser } from '../../support/api.js';
import { startInProcessApp, type InProcessApp } from '../../support/api-app.js';

// One large upload at a time and two public-link requests per address per day, in each app.
const ENV = {
  FOLIO_MAX_CONCURRENT_LARGE_UPLOADS: '1',
  FOLIO_PUBLIC_LINK_RATE_PER_IP: '2',
  FOLIO_PUBLIC_LINK_RATE_WINDOW: '24h',
};

let first: InProcessApp;
let second: InProcessApp;
const held: ClientRequest[] = [];

beforeAll(async () => {
  first = await startInProcessApp(ENV);
  second = await startInProcessApp(ENV);
});

afterAll(async () => {
  for (const req of held) req.destroy();
  await Promise.allSettled([first?.stop(), second?.stop()]);
});

/**
 * A large simple upload (20 MB declared, `Expect: 100-continue`) that sends no byte of its body: settles 'continue'
 * once the app holds a slot for it and asks for the body, or with the status of an answer given without it.
 */
function largeUpload(app: InProcessApp, user: TestUser): Promise<'continue' | number> {
  const req = request(new URL('/v1/drive/files', app.url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
      'content-length': '20000000',
      expect: '100-continue',
    },
  });
  held.push(req);
  const admitted = new Promise<'continue' | number>((resolve, reject) => {
    req.on('continue', () => resolve('continue'));
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return admitted;
}

/** A public link that does not exist: 404 while the address has requests left, 429 past them. */
const publicLinkStatus = async (app: InProcessApp) =>
  (await fetch(new URL(`/s/${'x'.repeat(32)}`, app.url), { headers: { accept: 'application/json' } })).status;

describe('two apps built from two services objects', () => {
  it('keep their own large-upload slots: one app full refuses the next upload, the other still admits one', async () => {
    const user = await makeUser();
    expect(await largeUpload(first, user)).toBe('continue');
    // The first app's one slot is held: its next large upload is refused before any body is sent.
    expect(await largeUpload(first, user)).toBe(503);
    // The second app's slot is its own.
    expect(await largeUpload(second, user)).toBe('continue');
  });

  it("keep their own public-link rate limits: one app's spent limit leaves the other's whole", async () => {
    expect([await publicLinkStatus(first), await publicLinkStatus(first)]).toEqual([404, 404]);
    expect(await publicLinkStatus(first)).toBe(429);
    expect(await publicLinkStatus(second)).toBe(404);
  });

  it('keep their own parsed documents: a document one app read is in its cache, not in the other', async () => {
    const user = await makeUser();
    const document = await makeDocument(user, { markdown: 'Parsed by one app.' });
    const read = await fetch(new URL(`/v1/documents/${document.uuid}/content`, first.url), {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(read.status).toBe(200);
    const row = await db()('documents')
      .where({ uuid: document.uuid })
      .first('uuid', 'revision', 'state_version');
    const state = { uuid: row.uuid, revision: row.revision, state_version: String(row.state_version) };
    expect(first.services.documents.workingDocuments.get(state)?.markdown).toBe('Parsed by one app.');
    expect(second.services.documents.workingDocuments.get(state)).toBeUndefined();
  });

  it("stop on their own: one app's shutdown (drain, close, its clients let go) leaves the other ready and serving", async () => {
    const user = await makeUser();
    await first.stop();
    expect(first.services.draining.active).toBe(true);
    await expect(fetch(new URL('/healthz', first.url))).rejects.toThrow();

    expect(second.services.draining.active).toBe(false);
    const ready = await fetch(new URL('/readyz', second.url));
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    // Its database pool, session and credential lookup still work: an authenticated request is answered.
    const listed = await fetch(new URL('/v1/drive/files', second.url), {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(listed.status).toBe(200);
  });
});
