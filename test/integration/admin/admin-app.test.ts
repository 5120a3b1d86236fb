// The admin app over HTTP (docs/admin-app.md): one-time sign-in links, sessions in PostgreSQL (idle and absolute
// expiry, sign-out, revocation), the CSRF token and Origin check on every POST, the security headers, that nobody but
// an admin of the workspace sees or changes anything of its destinations, and the history's attempt numbers against
// the retry schedule. The browser walk is admin-browser.test.ts.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../api/admin-app/views/html.js';
import { SIGN_IN_MAIL_CONCURRENCY, SIGN_IN_MAIL_MAX_WAITING } from '../../../api/admin-app/sign-in-mail.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { call, makeUser, makeWorkspace } from '../../support/api.js';
import {
  AdminClient,
  adminBase,
  csrfTokenOf,
  signedIn,
  signInLinkPath,
  type Page,
} from '../../support/admin-browser.js';
import { CLI_TIMEOUT_MS, folio, folioFails } from '../../support/cli.js';
import { startExtraApi } from '../../support/extra-api.js';
import { deliver, emlMessage, makeAdmin, makeDestination, makeMailbox } from '../../support/mail.js';
import { deliveryEnded, eventIdOf } from '../../support/sentinels.js';
import { receiverPool, until } from '../../support/webhook-receivers.js';

async function adminWithDestination(url = 'https://127.0.0.50/in') {
  const workspace = await makeWorkspace();
  const admin = await makeAdmin(workspace);
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, url, [mailbox.uuid]);
  return { workspace, admin, mailbox, destination };
}

/** Where this file's deliveries go: an address no other test file's receiver listens on. */
const RECEIVER_HOST = '127.0.0.44';
const receiver = receiverPool();

/** The Attempt column of a destination page's history, newest first. */
const attemptLabels = (page: Page) =>
  [...page.body.matchAll(/<td data-label="Attempt">([^<]*)<\/td>/g)].map((match) => match[1]);

/**
 * An SMTP server on 127.0.0.1 that takes each message but holds its answer to DATA until the test releases it, so a
 * send cannot finish before then; or, with `refuse`, answers 554.
 */
async function startSmtpGate() {
  const held: { raw: Buffer; release: () => void }[] = [];
  const delivered: Buffer[] = [];
  const gate = {
    held,
    delivered,
    refuse: false,
    url: '',
    releaseAll: () => held.splice(0).forEach((mail) => mail.release()),
    close: async () => {},
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (gate.refuse)
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 554 }));
        held.push({ raw, release: () => (delivered.push(raw), callback()) });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  gate.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return gate;
}

/** What a client can tell apart in an answer: all but the headers that change on every request. */
const observable = (page: Page) => ({
  status: page.status,
  location: page.location,
  body: page.body,
  headers: [...page.headers].filter(([name]) => !['date', 'x-request-id', 'traceparent'].includes(name)),
});

/**
 * A deadline that names what hung, sooner than the test's timeout would. It asserts no order: what proves an answer
 * came before the e-mail was sent is the gate, which sends nothing until the test releases it.
 */
const within = <T>(ms: number, what: string, promise: Promise<T>): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      // A deadline naming what hung, not an assertion of order (see above).
      setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms),
    ),
  ]);

const sessionRow = (userUuid: string) =>
  db()('admin_sessions').where({ user_uuid: userUuid }).orderBy('created_at', 'desc').first();

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
    await db()('admin_sign_in_links')
      .where('created_at', '>', new Date(Date.now() - 60_000))
      .where({ user_uuid: admin.uuid })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await new AdminClient().post(expired)).status).toBe(410);
    expect((await new AdminClient().post('/admin/sign-in/folio_sl_' + 'A'.repeat(43))).status).toBe(410);
    expect((await new AdminClient().get('/admin/sign-in/not-a-token')).status).toBe(410);

    const demoted = await signInLinkPath(admin.email);
    await db()('workspace_members')
      .where({ workspace_uuid: workspace.uuid, user_uuid: admin.uuid })
      .update({ admin: false });
    expect((await new AdminClient().post(demoted)).status).toBe(410);
  });

  it(
    'prints links only for admins, from the CLI (`folio admin sign-in-link`)',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const { workspace, admin } = await adminWithDestination();
      const printed = await folio('admin', 'sign-in-link', '--user', admin.email);
      expect(printed).toEqual({
        url: expect.stringMatching(/\/admin\/sign-in\/folio_sl_/),
        expires_at: expect.any(String),
        user_uuid: admin.uuid,
        workspace_uuid: workspace.uuid,
        email: admin.email,
      });
      const lifetime = Date.parse(printed.expires_at) - Date.now();
      expect(lifetime).toBeGreaterThan(14 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
      expect((await new AdminClient().post(new URL(printed.url).pathname)).status).toBe(303);

      const member = await makeUser({ workspace });
      expect(await folioFails('admin', 'sign-in-link', '--user', member.uuid)).toContain('not an admin');
    },
  );

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
      db()('emails as e')
        .join('mailboxes as m', 'm.uuid', 'e.mailbox_uuid')
        .where('m.address', admin.email.toLowerCase())
        .first('e.uuid'),
    );
    expect(email).toBeDefined();
    expect(
      await db()('admin_sign_in_links').where({ user_uuid: admin.uuid }).count({ n: '*' }).first(),
    ).toEqual({ n: '1' });
  });
});

describe('the e-mailed sign-in link does not tell who the admins are', () => {
  it(
    'answers an admin as it answers anyone, before the e-mail is sent; sends it after, and drops a burst past its queue',
    { timeout: 240_000 },
    async () => {
      const { admin } = await adminWithDestination();
      const gate = await startSmtpGate();
      const api = await startExtraApi('api-sign-in-mail', { FOLIO_SMTP_SEND_URL: gate.url });
      try {
        const ask = (email: string) =>
          within(
            10_000,
            `the sign-in form for ${email}`,
            new AdminClient().request('POST', `${api.url}/admin/sign-in`, { email }),
          );
        const stranger = await ask('nobody@example.test');
        // The admin's answer comes while the e-mail cannot have been sent: the gate answers nothing until released.
        const asked = await ask(admin.email);
        expect(observable(asked)).toEqual(observable(stranger));
        expect(asked).toMatchObject({ status: 303, location: '/admin/sign-in?sent=1' });
        await until('the e-mail reaches the gate', () => gate.held.length === 1);
        expect(gate.delivered).toEqual([]);

        // A burst while the sends are stuck: 2 send, 20 wait, the rest are dropped with a log line, each answered alike.
        expect(observable(await ask(admin.email))).toEqual(observable(stranger));
        await until('the second e-mail reaches the gate', () => gate.held.length === 2);
        const burst = 30;
        for (let n = 0; n < burst; n++)
          expect(observable(await ask(`nobody-${n}@example.test`))).toEqual(observable(stranger));
        expect(SIGN_IN_MAIL_CONCURRENCY).toBe(2); // so the two held sends fill every slot, and no stranger's lookup runs
        const dropped = burst - SIGN_IN_MAIL_MAX_WAITING;
        const drops = () =>
          readFileSync(api.logFile, 'utf8')
            .split('\n')
            .filter((line) => line.includes('sign-in e-mail dropped'));
        await until(`${dropped} dropped sends in the log`, () => drops().length === dropped);

        gate.releaseAll();
        await until('both e-mails are delivered', () => gate.delivered.length === 2);
        for (const raw of gate.delivered) {
          const mail = await simpleParser(raw);
          expect(mail.to).toMatchObject({ text: admin.email });
          const link = /https?:\/\/\S+\/admin\/sign-in\/folio_sl_[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')![0];
          const opened = await new AdminClient().request('POST', link);
          expect(opened).toMatchObject({ status: 303, location: '/admin/webhooks' });
        }

        // A send that fails is logged without its link, and the process keeps serving.
        gate.refuse = true;
        expect(observable(await ask(admin.email))).toEqual(observable(stranger));
        const failure = await until('the failed send in the log', () =>
          readFileSync(api.logFile, 'utf8')
            .split('\n')
            .find((line) => line.includes('could not send an admin sign-in link')),
        );
        expect(JSON.parse(failure)).toMatchObject({ level: 50, err: { smtp_status: 554 } });
        expect(readFileSync(api.logFile, 'utf8')).not.toMatch(/folio_sl_[A-Za-z0-9_-]{43}/);
        expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
        expect(gate.delivered).toHaveLength(2);
      } finally {
        gate.releaseAll();
        await api.stop();
        await gate.close();
      }
    },
  );
});

describe('sessions', () => {
  it('sends a signed-out visitor to sign-in from every page, and tells nothing about what exists', async () => {
    const { destination } = await adminWithDestination();
    const visitor = new AdminClient();
    for (const path of [
      '/admin/webhooks',
      `/admin/webhooks/${destination.uuid}`,
      '/admin/webhooks/00000000-0000-4000-8000-000000000000',
      '/admin/webhooks/new',
    ]) {
      const answer = await visitor.get(path);
      expect(answer.status, path).toBe(303);
      expect(answer.location, path).toBe('/admin/sign-in');
    }
    const post = await visitor.request('POST', `/admin/webhooks/${destination.uuid}/pause`, {});
    expect(post.status).toBe(303);
    expect(post.location).toBe('/admin/sign-in');
    expect((await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).status).toBe(
      'active',
    );
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
    expect(await sessionRow(admin.uuid)).toMatchObject({
      end_reason: 'signed_out',
      ended_at: expect.any(Date),
    });

    const replay = new AdminClient();
    for (const [name, value] of stolenCookies) replay.cookies.set(name, value);
    expect((await replay.get('/admin/webhooks')).status).toBe(303);
  });

  it('ends after the idle timeout and after the absolute lifetime', async () => {
    const { admin } = await adminWithDestination();
    const idle = await signedIn(admin.email);
    await db()('admin_sessions')
      .where({ uuid: (await sessionRow(admin.uuid)).uuid })
      .update({ last_seen_at: new Date(Date.now() - 2 * 3_600_000) });
    expect((await idle.get('/admin/webhooks')).status).toBe(303);
    expect(await sessionRow(admin.uuid)).toMatchObject({ end_reason: 'expired' });

    const old = await signedIn(admin.email);
    await db()('admin_sessions')
      .where({ uuid: (await sessionRow(admin.uuid)).uuid })
      .update({ expires_at: new Date(Date.now() - 1000) });
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

  it(
    'ends at once for an admin who is demoted, and can be listed and revoked from the CLI',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const { workspace, admin } = await adminWithDestination();
      const demoted = await signedIn(admin.email);
      await db()('workspace_members')
        .where({ workspace_uuid: workspace.uuid, user_uuid: admin.uuid })
        .update({ admin: false });
      expect((await demoted.get('/admin/webhooks')).status).toBe(303);
      await db()('workspace_members')
        .where({ workspace_uuid: workspace.uuid, user_uuid: admin.uuid })
        .update({ admin: true });

      const browser = await signedIn(admin.email);
      const listed = await folio('admin', 'sessions', 'list', '--user', admin.email);
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0]).toMatchObject({
        object: 'admin_session',
        user_uuid: admin.uuid,
        workspace_uuid: workspace.uuid,
        email: admin.email,
        ended_at: null,
      });
      expect(await folio('admin', 'sessions', 'revoke', listed.data[0].uuid)).toEqual({ revoked: 1 });
      expect((await browser.get('/admin/webhooks')).status).toBe(303);
      expect((await folio('admin', 'sessions', 'list', '--user', admin.uuid)).data).toEqual([]);
      expect(
        (await folio('admin', 'sessions', 'list', '--user', admin.uuid, '--all')).data
          .map((row: any) => row.end_reason)
          .sort(),
      ).toEqual(['revoked', 'revoked']);
    },
  );
});

describe('every state-changing request carries the CSRF token and comes from the app', () => {
  it('refuses a POST without the token, with another token, or from another origin, and changes nothing', async () => {
    const { admin, destination } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const page = await browser.get(`/admin/webhooks/${destination.uuid}`);
    const pause = `/admin/webhooks/${destination.uuid}/pause`;

    expect((await browser.post(pause, {})).status).toBe(403);
    expect((await browser.post(pause, { _csrf: 'x'.repeat(43) })).status).toBe(403);
    const crossSite = await browser.request(
      'POST',
      pause,
      { _csrf: csrfTokenOf(page) },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    const fetchedCrossSite = await browser.request(
      'POST',
      pause,
      { _csrf: csrfTokenOf(page) },
      { 'sec-fetch-site': 'cross-site', origin: 'null' },
    );
    expect(fetchedCrossSite.status).toBe(403);
    const otherSession = await signedIn(admin.email);
    const otherToken = csrfTokenOf(await otherSession.get('/admin/webhooks'));
    expect((await browser.post(pause, { _csrf: otherToken })).status).toBe(403);
    expect((await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).status).toBe(
      'active',
    );

    const allowed = await browser.request(
      'POST',
      pause,
      { _csrf: csrfTokenOf(page) },
      { origin: new URL(adminBase()).origin },
    );
    expect(allowed.status).toBe(303);
    expect((await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).status).toBe(
      'paused',
    );
  });
});

describe('headers', () => {
  it('sends a strict CSP (no inline script), frame denial and a same-origin referrer policy on every page, signed in or not', async () => {
    const { admin, destination } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const pages = [
      await new AdminClient().get('/admin/sign-in'),
      await browser.get('/admin/webhooks'),
      await browser.get(`/admin/webhooks/${destination.uuid}`),
    ];
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
      const answer = await browser.post(
        `/admin/webhooks/${destination.uuid}/${action}`,
        { url: 'https://127.0.0.50/x' },
        list,
      );
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
    const refused = await browser.post(
      '/admin/webhooks',
      { url: 'https://127.0.0.50:8443/in', description: 'Ops', mailboxes: [mailbox.uuid] },
      form,
    );
    expect(refused.status).toBe(200);
    expect(refused.body).toMatch(/id="url-error"[^>]*>This URL is refused: the port must be 443\./);
    expect(refused.body).toContain('value="https://127.0.0.50:8443/in"');
    expect(
      await db()('webhook_destinations').where({ workspace_uuid: workspace.uuid }).count({ n: '*' }).first(),
    ).toEqual({ n: '1' });

    const created = await browser.post(
      '/admin/webhooks',
      { url: 'https://127.0.0.50/second', description: 'Ops', mailboxes: [mailbox.uuid] },
      form,
    );
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/admin\/webhooks\/[0-9a-f-]{36}\?notice=created$/);
  });

  it('refuses a description over 1,000 characters on the page, as the JSON API does, and stores nothing', async () => {
    const { workspace, admin, mailbox, destination } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const form = await browser.get('/admin/webhooks/new');
    const count = async () =>
      (await db()('webhook_destinations')
        .where({ workspace_uuid: workspace.uuid })
        .count({ n: '*' })
        .first())!.n;

    const tooLong = await browser.post(
      '/admin/webhooks',
      { url: 'https://127.0.0.50/long', description: 'd'.repeat(1001), mailboxes: [mailbox.uuid] },
      form,
    );
    expect(tooLong.status).toBe(200);
    expect(tooLong.body).toMatch(
      /id="description-error"[^>]*>This description is too long: at most 1,000 characters\./,
    );
    expect(tooLong.body).toContain('value="https://127.0.0.50/long"');
    expect(await count()).toBe('1');
    const api = await call('POST', '/v1/admin/webhooks', {
      token: admin.token,
      json: { url: 'https://127.0.0.50/long', description: 'd'.repeat(1001) },
    });
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ error: 'invalid_body', fields: ['description'] });

    const edit = await browser.get(`/admin/webhooks/${destination.uuid}/edit`);
    const longEdit = await browser.post(
      `/admin/webhooks/${destination.uuid}/edit`,
      { url: 'https://127.0.0.50/in', description: 'e'.repeat(60_000) },
      edit,
    );
    expect(longEdit.status).toBe(200);
    expect(longEdit.body).toContain('id="description-error"');
    expect((await db()('webhook_destinations').where({ uuid: destination.uuid }).first()).description).toBe(
      '',
    );

    const atLimit = await browser.post(
      '/admin/webhooks',
      { url: 'https://127.0.0.50/limit', description: 'd'.repeat(1000), mailboxes: [mailbox.uuid] },
      form,
    );
    expect(atLimit.status).toBe(303);
    expect(
      (
        await db()('webhook_destinations')
          .where({ workspace_uuid: workspace.uuid, url: 'https://127.0.0.50/limit' })
          .first()
      ).description,
    ).toHaveLength(1000);
  });

  it('refuses and accepts the same URLs as the JSON API, for the same reasons', async () => {
    const { workspace, admin, mailbox } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const form = await browser.get('/admin/webhooks/new');
    const refused = [
      'http://127.0.0.50/hooks',
      'https://127.0.0.50:8443/hooks',
      'https://user:pw@127.0.0.50/',
      'not a url',
      'https://10.1.2.3/hooks',
      `https://127.0.0.50/${'p'.repeat(2100)}`,
    ];
    for (const url of refused) {
      const api = await call('POST', '/v1/admin/webhooks', {
        token: admin.token,
        json: { url, mailboxes: [mailbox.uuid] },
      });
      expect(api.status, url).toBe(422);
      const page = await browser.post('/admin/webhooks', { url, mailboxes: [mailbox.uuid] }, form);
      expect(page.status, url).toBe(200);
      expect(page.body, url).toContain(
        `id="url-error" role="alert">This URL is refused: ${escapeHtml(api.body.reason)}.</p>`,
      );
    }
    expect(
      await db()('webhook_destinations').where({ workspace_uuid: workspace.uuid }).count({ n: '*' }).first(),
    ).toEqual({ n: '1' });
    expect(
      (
        await call('POST', '/v1/admin/webhooks', {
          token: admin.token,
          json: { url: 'https://127.0.0.50/api' },
        })
      ).status,
    ).toBe(201);
    expect((await browser.post('/admin/webhooks', { url: 'https://127.0.0.50/page' }, form)).status).toBe(
      303,
    );
  });

  it('says on Pause what the spec says: events while paused are not queued and never replayed', async () => {
    const { admin, destination } = await adminWithDestination();
    const browser = await signedIn(admin.email);
    const before = await browser.get(`/admin/webhooks/${destination.uuid}`);
    expect(before.body).toContain('While paused, events are not queued and are never replayed.');
    const paused = await browser.post(`/admin/webhooks/${destination.uuid}/pause`, {}, before);
    expect(paused.location).toBe(`/admin/webhooks/${destination.uuid}?notice=paused`);
    const page = await browser.get(paused.location!);
    expect(page.body).toContain(
      '<p class="notice" role="status">Paused. Events that occur while paused are not queued and are not delivered, not even after you resume.</p>',
    );
    expect(page.body).toContain(
      'Paused: events that occur while paused are not queued and are not replayed when you resume.',
    );
    const resumed = await browser.post(`/admin/webhooks/${destination.uuid}/resume`, {}, page);
    expect((await browser.get(resumed.location!)).body).toContain(
      'Resumed. Events from now on are delivered; those that occurred while paused are not replayed.',
    );
    for (const shown of [before, page]) expect(shown.body).not.toMatch(/kept|delivered when you resume/i);
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

  it("numbers a delivery's attempts against the configured retry schedule, not a fixed five", async () => {
    const target = await receiver(RECEIVER_HOST);
    const { admin, mailbox, destination } = await adminWithDestination(target.url('/in'));
    const eventId = eventIdOf(await deliver(mailbox.uuid, emlMessage()));
    expect(await deliveryEnded(destination.uuid, eventId)).toEqual({ outcome: 'succeeded', attempts: 1 });
    const browser = await signedIn(admin.email);
    // One attempt, and one wait of FOLIO_WEBHOOK_RETRY_DELAYS before each further attempt (domain/webhooks/schedule.ts).
    const suiteAttempts = config().webhook.retryDelaysMs.length + 1;
    const page = await browser.get(`/admin/webhooks/${destination.uuid}`);
    expect(attemptLabels(page)).toEqual([`1 of ${suiteAttempts}`]);
    // An API process configured with two waits tells the same attempt as one of three.
    expect(suiteAttempts).not.toBe(3);
    const api = await startExtraApi('api-short-retry-schedule', { FOLIO_WEBHOOK_RETRY_DELAYS: '1s,1s' });
    try {
      const shorter = await browser.get(`${api.url}/admin/webhooks/${destination.uuid}`);
      expect(attemptLabels(shorter)).toEqual(['1 of 3']);
    } finally {
      await api.stop();
    }
  });
});
