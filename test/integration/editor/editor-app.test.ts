// The document editor app over HTTP (docs/editor.md): early access from the CLI, one-time sign-in links for any user,
// the session cookie on the app's path, CSRF on writes, the preview page, a document's page as its roles allow, the
// history endpoints (editors only), and the page's live stream under the per-person cap the API's streams share.
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, csrfTokenOf, type Page } from '../../support/admin-browser.js';
import {
  apiUrl,
  call,
  fetchApi,
  firstApiUrl,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  type TestUser,
} from '../../support/api.js';
import { CLI_TIMEOUT_MS, folio, folioFails } from '../../support/cli.js';
import { rememberSecret } from '../../support/log-scan.js';
import { setEarlyAccess } from '../../../domain/accounts/early-access.js';
import { createEditorSignInLink } from '../../../domain/accounts/editor-sessions.js';
import { db } from '../../../platform/database.js';

/** A browser-like client signed in to the editor app as this user, through a one-time link. */
async function signedIn(user: { uuid: string }): Promise<AdminClient> {
  const link = await createEditorSignInLink(db(), user.uuid);
  rememberSecret('editor sign-in link secret', link.token);
  const client = new AdminClient();
  const answer = await client.post(`/docs/sign-in/${link.token}`);
  expect(answer.status).toBe(303);
  for (const value of client.cookies.values()) rememberSecret('editor session cookie', value);
  return client;
}

async function earlyUser(of?: TestUser): Promise<TestUser> {
  const user = of ? await makeColleague(of) : await makeUser();
  await setEarlyAccess(db(), user.uuid, true);
  return user;
}

describe('folio user early-access, show and sign-in-link', () => {
  it(
    'turns the flag on and off, shows it, and prints a link to the app',
    async () => {
      const user = await makeUser();
      expect((await folio('user', 'show', '--user', user.email)).early_access).toBe(false);
      const on = await folio('user', 'early-access', '--user', user.uuid, '--on');
      expect(on).toMatchObject({ uuid: user.uuid, early_access: true });
      expect(on.workspaces).toEqual([expect.objectContaining({ uuid: user.workspaceUuid, admin: false })]);
      expect((await folio('user', 'show', '--user', user.uuid)).early_access).toBe(true);
      expect((await folio('user', 'early-access', '--user', user.email, '--off')).early_access).toBe(false);
      expect(await folioFails('user', 'early-access', '--user', user.uuid)).toMatch(/--on or --off/);
      expect(await folioFails('user', 'show', '--user', 'nobody@example.test')).toMatch(/No user/);

      const document = await makeDocument(user, { title: 'Linked' });
      const link = await folio('user', 'sign-in-link', '--user', user.email, '--document', document.uuid);
      expect(link.url).toMatch(
        new RegExp(`/docs/sign-in/folio_el_[A-Za-z0-9_-]{43}\\?next=${document.uuid}$`),
      );
      rememberSecret('editor sign-in link secret', /folio_el_[A-Za-z0-9_-]{43}/.exec(link.url)![0]);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('sign-in', () => {
  it('a link works once, confirms with a POST, and sets a cookie scoped to the app', async () => {
    const user = await makeUser();
    const link = await createEditorSignInLink(db(), user.email);
    rememberSecret('editor sign-in link secret', link.token);
    const document = await makeDocument(user);
    const client = new AdminClient();
    // Opening it (as a mail scanner would) uses nothing up.
    const confirm = await client.get(`/docs/sign-in/${link.token}?next=${document.uuid}`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(user.email);
    expect(confirm.body).toContain(`name="next" value="${document.uuid}"`);
    const signIn = await client.post(`/docs/sign-in/${link.token}`, { next: document.uuid });
    expect(signIn.status).toBe(303);
    expect(signIn.location).toBe(`/docs/${document.uuid}`);
    const cookie = signIn.headers.getSetCookie().find((line) => line.startsWith('folio_docs='))!;
    rememberSecret('editor session cookie', client.cookies.get('folio_docs')!);
    expect(cookie).toMatch(/; Path=\/docs; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    // Used once.
    expect((await new AdminClient().post(`/docs/sign-in/${link.token}`)).status).toBe(410);
    expect((await new AdminClient().get(`/docs/sign-in/${link.token}`)).status).toBe(410);
    // A next that is not a document uuid is not followed anywhere.
    const other = await createEditorSignInLink(db(), user.uuid);
    rememberSecret('editor sign-in link secret', other.token);
    const elsewhere = await new AdminClient().post(`/docs/sign-in/${other.token}`, {
      next: 'https://evil.example/',
    });
    expect(elsewhere.location).toBe('/docs/signed-in');
  });

  it('a document url without a session leads to sign-in, and sign-out ends the session', async () => {
    const user = await earlyUser();
    const document = await makeDocument(user, { title: 'Secret plans' });
    const anonymous = await new AdminClient().get(`/docs/${document.uuid}`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`/docs/sign-in?next=${document.uuid}`);
    expect(anonymous.body).not.toContain('Secret plans');

    const client = await signedIn(user);
    const page = await client.get(`/docs/${document.uuid}`);
    expect(page.status).toBe(200);
    const out = await client.post('/docs/sign-out', {}, page);
    expect(out.status).toBe(303);
    expect(client.cookies.size).toBe(0);
    expect((await client.get(`/docs/${document.uuid}`)).status).toBe(303);
  });

  it('refuses a write without the CSRF token or from another site', async () => {
    const user = await earlyUser();
    const client = await signedIn(user);
    const document = await makeDocument(user);
    const page = await client.get(`/docs/${document.uuid}`);
    expect((await client.post('/docs/sign-out')).status).toBe(403);
    expect((await client.post('/docs/sign-out', { _csrf: 'x'.repeat(43) })).status).toBe(403);
    const crossSite = await client.request(
      'POST',
      '/docs/sign-out',
      { _csrf: csrfTokenOf(page) },
      {
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(crossSite.status).toBe(403);
    // Still signed in.
    expect((await client.get(`/docs/${document.uuid}`)).status).toBe(200);
  });
});

describe('a document page', () => {
  it('shows an account without early access the preview page and nothing of the document', async () => {
    const owner = await makeUser();
    const document = await makeDocument(owner, { title: 'Quarterly plan', markdown: 'Hidden words.\n' });
    const client = await signedIn(owner);
    const page = await client.get(`/docs/${document.uuid}`);
    expect(page.status).toBe(403);
    expect(page.body).toContain('The editor is in preview');
    expect(page.body).not.toContain('Quarterly plan');
    expect(page.body).not.toContain('Hidden words');
    // Turned on, the same session opens it.
    await setEarlyAccess(db(), owner.uuid, true);
    const opened = await client.get(`/docs/${document.uuid}`);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('Hidden words');
  });

  it("opens the document of the API's url, with the role and the threads", async () => {
    const owner = await earlyUser();
    const document = await makeDocument(owner, {
      title: 'Launch notes',
      markdown: '# Launch\n\nWe ship on **Monday**, if 1 < 2.\n',
    });
    const comment = await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { quote: 'Monday', body: 'Is Monday <b>firm</b>?' },
    });
    expect(comment.status).toBe(201);
    const client = await signedIn(owner);
    const page: Page = await client.get(new URL(document.url).pathname);
    expect(new URL(document.url).pathname).toBe(`/docs/${document.uuid}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.body).toContain('<h1>Launch</h1>');
    expect(page.body).toContain('<strong>Monday</strong>');
    expect(page.body).toContain('if 1 &lt; 2.');
    expect(page.body).toContain('Is Monday &lt;b&gt;firm&lt;/b&gt;?');
    expect(page.body).toContain('data-role="owner"');
  });

  it('tells a viewer they can read, and answers 404 to someone the document is not shared with', async () => {
    const owner = await earlyUser();
    const viewer = await earlyUser(owner);
    const stranger = await earlyUser(owner);
    const outsider = await earlyUser();
    const document = await makeDocument(owner, { title: 'Shared', markdown: 'Read me.\n' });
    await shareDocument(document.uuid, viewer, 'viewer');
    const viewing = await (await signedIn(viewer)).get(`/docs/${document.uuid}`);
    expect(viewing.status).toBe(200);
    expect(viewing.body).toContain('data-role="viewer"');
    expect(viewing.body).toContain('You can read this document.');
    for (const other of [stranger, outsider]) {
      const refused = await (await signedIn(other)).get(`/docs/${document.uuid}`);
      expect(refused.status).toBe(404);
      expect(refused.body).not.toContain('Read me');
    }
  });

  it('leaves the paths it does not own to the rest of the API', async () => {
    const answer = await fetch(`${apiUrl()}/docs/not-a-document`);
    expect(answer.headers.get('content-security-policy')).toBeNull();
  });
});

/** The JSON body of an answer of the page's endpoints. */
const json = (page: Page) => JSON.parse(page.body);

describe("the page's history endpoints", () => {
  it('list, read and restore revisions for an editor, as the API does, with the CSRF token', async () => {
    const owner = await earlyUser();
    const document = await makeDocument(owner, { title: 'Minutes', markdown: 'First draft.\n' });
    const edited = await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: owner.token,
      json: { operations: [{ type: 'replace', find: 'First draft.', with: 'Second *draft*.' }] },
    });
    expect(edited.status).toBe(200);
    const client = await signedIn(owner);
    const page = await client.get(`/docs/${document.uuid}`);
    expect(page.body).toContain('id="history"');

    const list = await client.get(`/docs/${document.uuid}/revisions`);
    expect(list.status).toBe(200);
    // Revision 1 is the document as created (empty), 2 its first text (makeDocument), 3 the edit above.
    const revisions = json(list).data.map((entry: any) => [entry.revision, entry.cause]);
    expect(revisions).toEqual([
      [3, 'edit'],
      [2, 'edit'],
      [1, 'create'],
    ]);
    const first = await client.get(`/docs/${document.uuid}/revisions/2`);
    expect(first.status).toBe(200);
    // The API's own answer for that revision, plus the rendering the page shows.
    const fromApi = await call('GET', `/v1/documents/${document.uuid}/revisions/2`, { token: owner.token });
    expect(fromApi.body.markdown).toMatch(/^First draft\.\n?$/);
    const { html, ...revision } = json(first);
    expect(revision).toEqual(fromApi.body);
    expect(html).toBe('<p>First draft.</p>\n');
    expect((await client.get(`/docs/${document.uuid}/revisions/0`)).status).toBe(422);
    expect(json(await client.get(`/docs/${document.uuid}/revisions/9`)).error).toBe('revision_not_found');

    // A restore is a write: without the page's CSRF token it is refused and changes nothing.
    expect((await client.post(`/docs/${document.uuid}/revisions/2/restore`)).status).toBe(403);
    expect(
      (await call('GET', `/v1/documents/${document.uuid}/content`, { token: owner.token })).body.revision,
    ).toBe(3);
    const restored = await client.post(`/docs/${document.uuid}/revisions/2/restore`, {}, page);
    expect(restored.status).toBe(200);
    expect(json(restored)).toMatchObject({ revision: 4, markdown: fromApi.body.markdown });
    const history = await call('GET', `/v1/documents/${document.uuid}/revisions`, { token: owner.token });
    expect(history.body.data[0]).toMatchObject({ revision: 4, cause: 'restore', restored_from: 2 });
  });

  it('refuse a commenter and a viewer with 403 forbidden, and their pages offer no history', async () => {
    const owner = await earlyUser();
    const document = await makeDocument(owner, { markdown: 'Only editors look back.\n' });
    for (const role of ['commenter', 'viewer'] as const) {
      const person = await earlyUser(owner);
      await shareDocument(document.uuid, person, role);
      const client = await signedIn(person);
      const page = await client.get(`/docs/${document.uuid}`);
      expect(page.status).toBe(200);
      expect(page.body).not.toContain('id="history"');
      expect(page.body).not.toContain('id="revision-view"');
      for (const answer of [
        await client.get(`/docs/${document.uuid}/revisions`),
        await client.get(`/docs/${document.uuid}/revisions/1`),
        await client.post(`/docs/${document.uuid}/revisions/1/restore`, {}, page),
      ]) {
        expect(answer.status).toBe(403);
        expect(json(answer).error).toBe('forbidden');
      }
    }
    expect(
      (await call('GET', `/v1/documents/${document.uuid}/content`, { token: owner.token })).body.revision,
    ).toBe(2);
  });
});

describe("the page's live stream", () => {
  const held: AbortController[] = [];
  afterEach(() => {
    for (const controller of held.splice(0)) controller.abort();
  });

  /** Opens the page's event stream on the first API process (the cap is each process's own) and holds it open. */
  async function pageStream(client: AdminClient, documentUuid: string): Promise<Response> {
    const controller = new AbortController();
    held.push(controller);
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return fetch(`${firstApiUrl()}/docs/${documentUuid}/events`, {
      headers: { cookie },
      signal: controller.signal,
    });
  }

  async function apiStream(user: TestUser, documentUuid: string): Promise<Response> {
    const controller = new AbortController();
    held.push(controller);
    return fetchApi(
      `/v1/documents/${documentUuid}/events`,
      { headers: { authorization: `Bearer ${user.token}` }, signal: controller.signal },
      firstApiUrl(),
    );
  }

  /** Reads the stream until its text so far satisfies the predicate; the test's own timeout bounds the wait. */
  async function readUntil(response: Response, done: (text: string) => boolean): Promise<string> {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!done(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`the event stream ended after ${JSON.stringify(text)}`);
      text += decoder.decode(value, { stream: true });
    }
    reader.releaseLock();
    return text;
  }

  it("answers as the API's stream does: the same headers (no caching, no proxy buffering), retry, and a change event per revision", async () => {
    const user = await earlyUser();
    const document = await makeDocument(user, { markdown: 'Counter 1\n' });
    const page = await pageStream(await signedIn(user), document.uuid);
    const api = await apiStream(user, document.uuid);
    for (const response of [page, api]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(response.headers.get('x-accel-buffering')).toBe('no');
    }
    // Answered once subscribed: an edit from now on reaches the page.
    expect(await readUntil(page, (text) => text.includes('\n\n'))).toMatch(/^retry: 2000\n\n/);

    const edited = await call('POST', `/v1/documents/${document.uuid}/content`, {
      token: user.token,
      json: { operations: [{ type: 'replace', find: 'Counter 1', with: 'Counter 2' }] },
    });
    expect(edited.body.revision).toBe(3);
    const events = await readUntil(page, (text) => text.includes('event: change'));
    expect(events.split('\n\n')).toContain('event: change\ndata: {}');
  });

  it("counts against the per-person cap of the API's streams (4 here): past it 429 too_many_streams, as the API answers", async () => {
    const user = await earlyUser();
    const other = await earlyUser(user);
    const document = await makeDocument(user, { markdown: 'Watched.\n' });
    await shareDocument(document.uuid, other, 'viewer');
    const client = await signedIn(user);
    const first = await pageStream(client, document.uuid);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await pageStream(client, document.uuid)).status).toBe(200);
    expect((await apiStream(user, document.uuid)).status).toBe(200);
    expect((await apiStream(user, document.uuid)).status).toBe(200);

    const refused = await pageStream(client, document.uuid);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({
      error: 'too_many_streams',
      error_description: expect.any(String),
      max_streams: 4,
    });
    // The same count: the API's stream is refused too.
    expect((await apiStream(user, document.uuid)).status).toBe(429);
    // Per person: another reader of the document still gets a stream.
    expect((await pageStream(await signedIn(other), document.uuid)).status).toBe(200);

    // A closed page stream gives its place back (the server sees the close a moment later: poll with a deadline).
    held[0]!.abort();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const again = await pageStream(client, document.uuid);
      if (again.status === 200) break;
      expect(again.status).toBe(429);
      await again.body?.cancel();
      if (Date.now() > deadline) throw new Error('the closed stream was never given back');
      await new Promise((resolve) => setTimeout(resolve, 100)); // A poll interval, not an assertion.
    }
  });
});
