// The admin app over HTTP (docs/admin-app.md): one-time sign-in links, sessions in PostgreSQL (idle and absolute
// expiry, sign-out, revocation), the CSRF token and Origin check on every POST, the security headers, and that nobody
// but an admin of the workspace sees or changes anything of its destinations. The browser walk is admin-browser.test.ts.
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { makeUser, makeWorkspace } from '../../support/api.js';
import { AdminClient, adminBase, csrfTokenOf, signedIn, signInLinkPath } from '../../support/admin-browser.js';
import { CLI_TIMEOUT_MS, folio, folioFails } from '../../support/cli.js';
import { makeAdmin, makeDestination, makeMailbox } from '../../support/mail.js';
import { until } from '../../support/webhook-receivers.js';

async function adminWithDestination() {
  const workspace = await makeWorkspace();
  const admin = await makeAdmin(workspace);
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, 'https://127.0.0.50/in', [mailbox.uuid]);
  return { workspace, admin, mailbox, destination };
}

const sessionRow = (userUuid: string) => db()('admin_sessions').where({ user_uuid: userUuid }).orderBy('created_at', 'desc').first();

describe('signing in with a one-time link', () => {
  it('asks to continue on GET (a link preview does not use it up), starts a session on POST, and works once', async () => {
    const { admin } = await adminWithDestination();
    const link = await signInLinkPath(admin.email);
    const browser = new AdminClient();

    const confirm = await browser.get(link);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(admin.email);
    expect((await browser.get(link)).status).toBe(200);

    const signedInAnswer = await browser.post(link);
    expect(signedInAnswer.status).toBe(303);
    expect(signedInAnswer.location).toBe('/admin/webhooks');
    const cookie = signedInAnswer.headers.getSetCookie().find((line) => line.startsWith('folio_admin='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/admin/);
    // http://127.0.0.1 here; with an https admin URL the cookie is __Secure- and Secure (unit: admin-app-cookie.test.ts).
    expect(cookie).not.toMatch(/Secure/);

    const list = await browser.get('/admin/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toContain('https://127.0.0.50/in');

    const again = new AdminClient();
    expect((await again.post(link)).status).toBe(410);
    expect((await again.get(link)).status).toBe(410);
    expect(again.cookies.size).toBe(0);
  });

  it('refuses an expired link, an unknown one, and a link whose user stopped being an admin', async () => {
    const { workspace, admin } = await adminWithDestination();
    const expired = await signInLinkPath(admin.email);
    await db()('admin_sign_in_links').where('created_at', '>', new Date(Date.now() - 60_000)).where({ user_uuid: admin.uuid }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await new AdminClient().post(expired)).status).toBe(410);
    expect((await new AdminClient().post('/admin/sign-in/folio_sl_' + 'A'.repeat(43))).status).toBe(410);
    expect((await new AdminClient().get('/admin/sign-in/not-a-token')).status).toBe(410);

    const demoted = await signInLinkPath(admin.email);
    await db()('workspace_members').where({ workspace_uuid: workspace.uuid, user_uuid: admin.uuid }).update({ admin: false });
    expect((await new AdminClient().post(demoted)).status).toBe(410);
  });

  it('prints links only for admins, from the CLI (`folio admin sign-in-link`)', { timeout: CLI_TIMEOUT_MS }, async () => {
    const { workspace, admin } = await adminWithDestination();
    const printed = await folio('admin', 'sign-in-link', '--user', admin.email);
    expect(printed).toEqual({ url: expect.stringMatching(/\/admin\/sign-in\/folio_sl_/), expires_at: expect.any(String), user_uuid: admin.uuid, workspace_uuid: workspace.uuid, email: admin.email });
    const lifetime = Date.parse(printed.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(14 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
    expect((await new AdminClient().post(new URL(printed.url).pathname)).status).toBe(303);

    const member = await makeUser({ workspace });
    expect(await folioFails('admin', 'sign-in-link', '--user', member.uuid)).toContain('not an admin');
  });

  it('e-mails a link from the sign-in page when outgoing mail is configured, and answers the same for anyone', async () => {
    const { workspace, admin } = await adminWithDestination();
    // The admin's address is a mailbox of this stack: the link arrives through Folio's own inbound SMTP.
    await db()('mailboxes').insert({ workspace_uuid: workspace.uuid, address: admin.email.toLowerCase() });
    const browser = new AdminClient();
    const page = await browser.get('/admin/sign-in');
    expect(page.body).toContain('Email me a sign-in link');
    const asked = await browser.request('POST', '/admin/sign-in', { email: admin.email });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe('/admin/sign-in?sent=1');
    const stranger = await browser.request('POST', '/admin/sign-in', { email: 'nobody@example.test' });
    expect(stranger.location).toBe(asked.location);

    const email = await until('the sign-in e-mail arrives', () =>
      db()('emails as e').join('mailboxes as m', 'm.uuid', 'e.mailbox_uuid').where('m.address', admin.email.toLowerCase()).first('e.uuid'),
    );
    expect(email).toBeDefined();
    expect(await db()('admin_sign_in_links').where({ user_uuid: admin.uuid }).count({ n: '*' }).first()).toEqual({ n: '1' });
  });
});

describe('sessions', () => {
  it('sends a signed-out visitor to sign-in from every page, and tells nothing about what exists', async () => {
    const { destination } = await adminWithDestination();
    const visitor = new AdminClient();
    for (const path of ['/admin/webhooks', `/admin/webhooks/${destination.uuid}`, '/admin/webhooks/00000000-0000-4000-8000-000000000000', '/admin/webhooks/new']) {
      const answer = await visitor.get(path);
      expect(answer.status, path).toBe(303);
      expect(answer.location, path).toBe('/admin/sign-in');
    }
    const post = await visitor.request('POST', `/admin/webhooks/${destination.uuid}/pause`, {});
    expect(post.status).toBe(303);
    expect(post.location).toBe('/admin/sign-in');
    expect((await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).status).toBe('active');
  });

  it('ends on sign-out: the cookie is cleared and the session cannot be used again', async () => {
    const { admin } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const stolenCookies = new Map(browser.cookies);
    const page = await browser.get('/admin/webhooks');
    const out = await browser.post('/admin/sign-out', {}, page);
    expect(out.status).toBe(303);
    expect(out.location).toBe('/admin/sign-in?signed_out=1');
    expect(browser.cookies.size).toBe(0);
    expect(await sessionRow(admin.uuid)).toMatchObject({ end_reason: 'signed_out', ended_at: expect.any(Date) });

    const replay = new AdminClient();
    for (const [name, value] of stolenCookies) replay.cookies.set(name, value);
    expect((await replay.get('/admin/webhooks')).status).toBe(303);
  });

  it('ends after the idle timeout and after the absolute lifetime', async () => {
    const { admin } = await adminWithDestination();
    const idle = await signedIn(admin.email);
    await db()('admin_sessions').where({ uuid: (await sessionRow(admin.uuid)).uuid }).update({ last_seen_at: new Date(Date.now() - 2 * 3_600_000) });
    expect((await idle.get('/admin/webhooks')).status).toBe(303);
    expect(await sessionRow(admin.uuid)).toMatchObject({ end_reason: 'expired' });

    const old = await signedIn(admin.email);
    await db()('admin_sessions').where({ uuid: (await sessionRow(admin.uuid)).uuid }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await old.get('/admin/webhooks')).status).toBe(303);
    expect(await sessionRow(admin.uuid)).toMatchObject({ end_reason: 'expired' });
  });

  it('restarts the idle clock on each request', async () => {
    const { admin } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const before = new Date(Date.now() - 30 * 60_000);
    await db()('admin_sessions').where({ user_uuid: admin.uuid }).update({ last_seen_at: before });
    expect((await browser.get('/admin/webhooks')).status).toBe(200);
    expect((await sessionRow(admin.uuid)).last_seen_at.getTime()).toBeGreaterThan(before.getTime());
  });

  it('ends at once for an admin who is demoted, and can be listed and revoked from the CLI', { timeout: CLI_TIMEOUT_MS }, async () => {
    const { workspace, admin } = await adminWithDestination();
    const demoted = await signedIn(admin.email);
    await db()('workspace_members').where({ workspace_uuid: workspace.uuid, user_uuid: admin.uuid }).update({ admin: false });
    expect((await demoted.get('/admin/webhooks')).status).toBe(303);
    await db()('workspace_members').where({ workspace_uuid: workspace.uuid, user_uuid: admin.uuid }).update({ admin: true });

    const browser = await signedIn(admin.email);
    const listed = await folio('admin', 'sessions', 'list', '--user', admin.email);
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ object: 'admin_session', user_uuid: admin.uuid, workspace_uuid: workspace.uuid, email: admin.email, ended_at: null });
    expect(await folio('admin', 'sessions', 'revoke', listed.data[0].uuid)).toEqual({ revoked: 1 });
    expect((await browser.get('/admin/webhooks')).status).toBe(303);
    expect((await folio('admin', 'sessions', 'list', '--user', admin.uuid)).data).toEqual([]);
    expect((await folio('admin', 'sessions', 'list', '--user', admin.uuid, '--all')).data.map((row: any) => row.end_reason).sort()).toEqual(['revoked', 'revoked']);
  });
});

describe('every state-changing request carries the CSRF token and comes from the app', () => {
  it('refuses a POST without the token, with another token, or from another origin, and changes nothing', async () => {
    const { admin, destination } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const page = await browser.get(`/admin/webhooks/${destination.uuid}`);
    const pause = `/admin/webhooks/${destination.uuid}/pause`;

    expect((await browser.post(pause, {})).status).toBe(403);
    expect((await browser.post(pause, { _csrf: 'x'.repeat(43) })).status).toBe(403);
    const crossSite = await browser.request('POST', pause, { _csrf: csrfTokenOf(page) }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const fetchedCrossSite = await browser.request('POST', pause, { _csrf: csrfTokenOf(page) }, { 'sec-fetch-site': 'cross-site', origin: 'null' });
    expect(fetchedCrossSite.status).toBe(403);
    const otherSession = await signedIn(admin.email);
    const otherToken = csrfTokenOf(await otherSession.get('/admin/webhooks'));
    expect((await browser.post(pause, { _csrf: otherToken })).status).toBe(403);
    expect((await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).status).toBe('active');

    const allowed = await browser.request('POST', pause, { _csrf: csrfTokenOf(page) }, { origin: new URL(adminBase()).origin });
    expect(allowed.status).toBe(303);
    expect((await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).status).toBe('paused');
  });
});

describe('headers', () => {
  it('sends a strict CSP (no inline script), frame denial and a same-origin referrer policy on every page, signed in or not', async () => {
    const { admin, destination } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const pages = [await new AdminClient().get('/admin/sign-in'), await browser.get('/admin/webhooks'), await browser.get(`/admin/webhooks/${destination.uuid}`)];
    for (const page of pages) {
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(page.body).not.toMatch(/\son[a-z]+=/i);
    }
  });
});

describe('what an admin sees', () => {
  it('shows an admin of another workspace nothing of a destination, and lets them change nothing', async () => {
    const { destination } = await adminWithDestination();
    const other = await adminWithDestination();
    const browser = await signedIn(other.admin.email);
    const list = await browser.get('/admin/webhooks');
    expect(list.body).not.toContain(destination.uuid);
    const page = await browser.get(`/admin/webhooks/${destination.uuid}`);
    expect(page.status).toBe(404);
    expect(page.body).not.toContain('127.0.0.50');
    for (const action of ['pause', 'secret', 'rotate-secret', 'edit']) {
      const answer = await browser.post(`/admin/webhooks/${destination.uuid}/${action}`, { url: 'https://127.0.0.50/x' }, list);
      expect(answer.status, action).toBe(404);
      expect(answer.body, action).not.toContain(destination.secret);
    }
    const row = await db()('webhook_destinations').where({ uuid: destination.uuid }).first();
    expect(row).toMatchObject({ status: 'active', url: 'https://127.0.0.50/in' });
    expect(await db()('webhook_secret_reveals').where({ destination_uuid: destination.uuid })).toEqual([]);
  });

  it('refuses a URL with the reason next to the field, and creates nothing', async () => {
    const { workspace, admin, mailbox } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const form = await browser.get('/admin/webhooks/new');
    expect(form.body).toContain(mailbox.address);
    const refused = await browser.post('/admin/webhooks', { url: 'https://127.0.0.50:8443/in', description: 'Ops', mailboxes: [mailbox.uuid] }, form);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatch(/id="url-error"[^>]*>This URL is refused: the port must be 443\./);
    expect(refused.body).toContain('value="https://127.0.0.50:8443/in"');
    expect(await db()('webhook_destinations').where({ workspace_uuid: workspace.uuid }).count({ n: '*' }).first()).toEqual({ n: '1' });

    const created = await browser.post('/admin/webhooks', { url: 'https://127.0.0.50/second', description: 'Ops', mailboxes: [mailbox.uuid] }, form);
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/admin\/webhooks\/[0-9a-f-]{36}\?notice=created$/);
  });

  it('shows the secret only on a recorded reveal, with who and when', async () => {
    const { admin, destination } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const page = await browser.get(`/admin/webhooks/${destination.uuid}`);
    expect(page.body).not.toContain(destination.secret);
    expect(page.body).toContain('Never revealed.');
    const revealed = await browser.post(`/admin/webhooks/${destination.uuid}/secret`, {}, page);
    expect(revealed.status).toBe(200);
    expect(revealed.headers.get('cache-control')).toBe('no-store');
    expect(revealed.body).toContain(destination.secret);
    expect(await db()('webhook_secret_reveals').where({ destination_uuid: destination.uuid })).toEqual([
      expect.objectContaining({ user_uuid: admin.uuid, via: 'admin_app', revealed_at: expect.any(Date) }),
    ]);
    const after = await browser.get(`/admin/webhooks/${destination.uuid}`);
    expect(after.body).not.toContain(destination.secret);
    expect(after.body).toContain(`${admin.email} · admin app`);
  });
});
