// The document editor app over HTTP (docs/editor.md): early access from the CLI, one-time sign-in links for any user,
// the session cookie on the app's path, CSRF on writes, the preview page, and a document's page as its roles allow.
import { describe, expect, it } from 'vitest';
import { AdminClient, csrfTokenOf, type Page } from '../../support/admin-browser.js';
import {
  apiUrl,
  call,
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
