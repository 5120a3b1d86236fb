// The admin app in a real browser (playwright-core driving Debian's chromium; deploy/test.sh installs it when it is
// missing): sign in through a CLI link, add a destination (a refused URL shows its reason), subscribe mailboxes,
// reveal and copy the secret, pause and resume, watch a delivery from `folio email deliver` arrive in the history,
// read a disabled destination's reason and turn it on — with the security headers, labels, keyboard, a phone-width
// screen and no console errors checked along the way. Every response a page receives is classified: the admin app's
// own (its path is x-folio-excluded in openapi/folio.yaml: HTML, its assets, redirects) or the API's, which is held
// to the OpenAPI document by the same check as every response of the suite. FOLIO_UPDATE_SCREENSHOTS=1 writes the
// pages to docs/admin/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { makeWorkspace } from '../../support/api.js';
import { CLI_TIMEOUT_MS, folio } from '../../support/cli.js';
import { emlMessage, makeAdmin, makeMailbox } from '../../support/mail.js';
import { checkApiResponse, isExcludedFromDocument } from '../../support/openapi-check.js';
import { receiverPool, until } from '../../support/webhook-receivers.js';

const CHROMIUM = process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS =
  process.env.FOLIO_UPDATE_SCREENSHOTS === '1'
    ? 'docs/admin'
    : mkdtempSync(join(tmpdir(), 'folio-admin-shots-'));
const receiver = receiverPool();

let browser: Browser;
let context: BrowserContext;
const problems: string[] = [];
/** The responses pages received, by kind, and the checks still reading a body. */
const seen = { adminApp: 0, api: [] as string[] };
const pendingChecks: Promise<void>[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
});

afterAll(async () => {
  await browser?.close();
  // Screenshots go to a temporary folder unless docs/admin is being updated.
  if (SCREENSHOTS !== 'docs/admin') rmSync(SCREENSHOTS, { recursive: true, force: true });
});

beforeEach(() => {
  problems.length = 0;
  seen.adminApp = 0;
  seen.api = [];
});

/** What the admin app answers under its path: its pages and assets, or a redirect. JSON there would be an API the document does not describe. */
const ADMIN_APP_TYPES = /^(text\/html|text\/css|text\/javascript|image\/svg\+xml)(;|$)/;

/**
 * Every response a page receives. The admin app's own (x-folio-excluded) must be one of its kinds; anything else
 * must be a route of openapi/folio.yaml and is checked against it as `call()` checks the suite's own requests:
 * status, headers, content type and, for JSON, the body.
 */
async function checkPageResponse(response: Response): Promise<void> {
  const url = new URL(response.url());
  const status = response.status();
  const where = `${response.request().method()} ${url.pathname} answered ${status}`;
  if (url.origin !== new URL(process.env.FOLIO_API_URL!).origin)
    return void problems.push(`${where} from another origin: ${url.origin}`);
  const headers = await response.allHeaders();
  const type = headers['content-type'] ?? '';
  if (isExcludedFromDocument(url.pathname)) {
    seen.adminApp += 1;
    if (!(status >= 300 && status < 400) && !ADMIN_APP_TYPES.test(type))
      problems.push(`${where} with ${type || 'no type'}, which is none of the admin app's kinds`);
    return;
  }
  seen.api.push(`${response.request().method()} ${url.pathname} ${status}`);
  // A redirect's body cannot be read; the check then holds the status, headers and type only.
  const received: Parameters<typeof checkApiResponse>[0] = {
    method: response.request().method(),
    path: url.pathname + url.search,
    status,
    headers,
  };
  if (status < 300 || status >= 400) {
    const text = await response.text();
    received.body = /[/+]json$/.test(type.split(';')[0]!.trim()) && text ? JSON.parse(text) : text;
  }
  try {
    checkApiResponse(received);
  } catch (error) {
    problems.push(String(error));
  }
}

/** Waits for the checks of the responses so far; the test then asserts `problems` is empty. */
async function responsesChecked(): Promise<void> {
  await Promise.all(pendingChecks.splice(0));
}

/** A call of the page's own to the API (fetch from the admin app's origin, as a script of it would make). */
async function fetchFromPage(page: Page, path: string, token?: string) {
  const init = token ? { headers: { authorization: `Bearer ${token}` } } : {};
  const answer = await page.evaluate(
    `fetch(${JSON.stringify(path)}, ${JSON.stringify(init)}).then(async (r) => ({ status: r.status, body: await r.json() }))`,
  );
  // Its body must be read for the check before the page navigates away (the browser drops it then).
  await responsesChecked();
  return answer as { status: number; body: any };
}

async function freshPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  context = await browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(process.env.FOLIO_API_URL!).origin,
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    // The browser logs every 4xx it loads; an API answer is judged by the document instead (checkPageResponse).
    const apiAnswer =
      message.text().startsWith('Failed to load resource') &&
      !isExcludedFromDocument(new URL(message.location().url).pathname);
    if (message.type() === 'error' && !apiAnswer)
      problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on(
    'response',
    (response) =>
      void pendingChecks.push(
        checkPageResponse(response).catch(
          (error) => void problems.push(`checking ${response.url()}: ${String(error)}`),
        ),
      ),
  );
  return page;
}

async function signInThroughCli(page: Page, email: string) {
  const { url } = await folio('admin', 'sign-in-link', '--user', email);
  const confirm = await page.goto(url);
  const headers = confirm!.headers();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).not.toContain('unsafe-inline');
  expect(headers['x-frame-options']).toBe('DENY');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/admin\/webhooks$/).catch(async (error) => {
    throw new Error(
      `${String(error)} at ${page.url()}: ${(await page.content()).slice(0, 2000)} ${problems.join(' | ')}`,
    );
  });
}

/** Every visible form control has a name a screen reader reads. */
async function expectLabelledControls(page: Page) {
  // Evaluated in the page (a string: the suite's TypeScript has no DOM types).
  const unlabelled =
    await page.evaluate(`[...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
    .filter((control) => !(control.labels && control.labels.length) && !control.getAttribute('aria-label') && !(control.tagName === 'BUTTON' && control.textContent.trim()))
    .map((control) => control.outerHTML)`);
  expect(unlabelled).toEqual([]);
}

async function deliverMail(mailboxUuid: string, subject: string) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-admin-eml-'));
  try {
    writeFileSync(join(dir, 'message.eml'), emlMessage({ subject }));
    return await folio('email', 'deliver', '--mailbox', mailboxUuid, '--eml', join(dir, 'message.eml'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the admin app in a browser', () => {
  it(
    "walks an admin from a CLI link through a destination's whole life",
    { timeout: 4 * CLI_TIMEOUT_MS },
    async () => {
      const workspace = await makeWorkspace();
      await db()('workspaces').where({ uuid: workspace.uuid }).update({ name: 'Acme Support' });
      const admin = await makeAdmin(workspace);
      const mailboxes = [];
      for (let index = 0; index < 8; index += 1) mailboxes.push(await makeMailbox(workspace.uuid));
      const [support, billing] = mailboxes;
      const target = await receiver('127.0.0.25');

      const page = await freshPage();
      await signInThroughCli(page, admin.email);
      expect(await page.getByRole('heading', { name: 'No destinations yet' }).isVisible()).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, 'destinations-empty.png') });

      // Add: a refused URL says why next to the field, and nothing is created.
      await page.getByRole('link', { name: 'Add destination' }).first().click();
      await page.getByLabel('Endpoint URL').fill('https://127.0.0.25:8443/hooks');
      await page.getByLabel('Description').fill('Support desk ticketing');
      await page.getByLabel(support!.address).check();
      await page.getByRole('button', { name: 'Add destination' }).click();
      expect(await page.locator('#url-error').textContent()).toContain('the port must be 443');
      expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
      await expectLabelledControls(page);
      await page.screenshot({ path: join(SCREENSHOTS, 'add-destination-refused.png') });
      expect(await db()('webhook_destinations').where({ workspace_uuid: workspace.uuid })).toEqual([]);

      // The mailbox filter narrows a long list; the admin subscribes a second mailbox found through it.
      await page.getByLabel('Endpoint URL').fill(target.url('/hooks'));
      await page.getByPlaceholder('Filter mailboxes').fill(billing!.address.slice(0, 12));
      expect(await page.locator('.mailbox-option:visible').count()).toBe(1);
      await page.getByLabel(billing!.address).check();
      await page.getByPlaceholder('Filter mailboxes').fill('');
      await page.getByRole('button', { name: 'Add destination' }).click();
      await page.waitForURL(/\/admin\/webhooks\/[0-9a-f-]{36}\?notice=created$/);
      const destinationUuid = /webhooks\/([0-9a-f-]{36})/.exec(page.url())![1]!;
      expect(
        (
          await db()('webhook_subscriptions')
            .where({ destination_uuid: destinationUuid })
            .pluck('mailbox_uuid')
        ).sort(),
      ).toEqual([support!.uuid, billing!.uuid].sort());

      // Reveal and copy the secret; the reveal is recorded.
      await page.getByRole('button', { name: 'Reveal' }).click();
      const secret = (await page.locator('#signing-secret').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Copy' }).click();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
      expect(
        await db()('webhook_secret_reveals').where({
          destination_uuid: destinationUuid,
          user_uuid: admin.uuid,
          via: 'admin_app',
        }),
      ).toHaveLength(1);
      await page.getByRole('link', { name: 'Hide' }).click();
      expect(await page.content()).not.toContain(secret);

      // Pause and resume.
      await page.getByRole('button', { name: 'Pause deliveries' }).click();
      expect(await page.locator('h1 .badge').textContent()).toBe('paused');
      await page.getByRole('button', { name: 'Resume deliveries' }).click();
      expect(await page.locator('h1 .badge').textContent()).toBe('active');

      // A delivery from `folio email deliver` shows in the history with its status code.
      const delivered = await deliverMail(support!.uuid, 'Printer on fire');
      expect(delivered.event_id).toMatch(/^whevt_/);
      await target.waitFor(1, 120_000).catch(async (error) => {
        const state = {
          deliveries: await db()('webhook_deliveries').where({ destination_uuid: destinationUuid }),
          destination: await db()('webhook_destinations').where({ uuid: destinationUuid }).first('status'),
        };
        throw new Error(`${String(error)}: ${JSON.stringify(state)}`);
      });
      await until(
        'the attempt is recorded',
        async () =>
          (await db()('webhook_attempts')
            .where({ destination_uuid: destinationUuid, outcome: 'success' })
            .first()) ?? false,
        60_000,
      );
      await page.reload();
      const attemptRow = page.locator('table.attempts tbody tr').first();
      expect(await attemptRow.textContent()).toContain('HTTP 200');
      await attemptRow.getByText('Details').click();
      expect(await attemptRow.locator('dl.headers').textContent()).toContain('x-service-delivery-id');
      expect(await attemptRow.textContent()).not.toContain(secret);
      await expectLabelledControls(page);
      await page.screenshot({ path: join(SCREENSHOTS, 'destination.png'), fullPage: true });

      // The page's own calls to the API are held to the OpenAPI document like the suite's: the admin session (a cookie
      // on the admin path) is no credential there, and with the admin's token the admin API answers what the app shows,
      // the delivery's round included.
      expect(await fetchFromPage(page, '/v1/admin/webhooks')).toMatchObject({
        status: 401,
        body: { error: 'invalid_token' },
      });
      const listed = await fetchFromPage(page, '/v1/admin/webhooks', admin.token);
      expect(listed.body.data.map((destination: { uuid: string }) => destination.uuid)).toEqual([
        destinationUuid,
      ]);
      const deliveries = await fetchFromPage(
        page,
        `/v1/admin/webhooks/${destinationUuid}/deliveries?state=done`,
        admin.token,
      );
      expect(deliveries.body.data).toMatchObject([
        { event_id: delivered.event_id, round: 0, state: 'succeeded' },
      ]);

      // The list shows the last delivery's outcome; keyboard alone reaches "Add destination".
      await page.goto(`${process.env.FOLIO_API_URL}/admin/webhooks`);
      expect(await page.locator('table.destinations tbody tr').first().textContent()).toContain(
        'Delivered · HTTP 200',
      );
      await page.screenshot({ path: join(SCREENSHOTS, 'destinations.png') });
      let reached = false;
      for (let presses = 0; presses < 12 && !reached; presses += 1) {
        await page.keyboard.press('Tab');
        reached = (await page.evaluate('document.activeElement?.textContent?.trim()')) === 'Add destination';
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/admin\/webhooks\/new$/);

      // The edit page, as a reference screenshot.
      await page.goto(`${process.env.FOLIO_API_URL}/admin/webhooks/${destinationUuid}/edit`);
      expect(await page.getByLabel(billing!.address).isChecked()).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, 'edit-destination.png') });

      // Phone width: nothing overflows sideways.
      const phone = await freshPage({ width: 390, height: 844 });
      await signInThroughCli(phone, admin.email);
      expect(await phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await phone.goto(`${process.env.FOLIO_API_URL}/admin/webhooks/${destinationUuid}`);
      expect(await phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await phone.screenshot({ path: join(SCREENSHOTS, 'destination-phone.png'), fullPage: true });

      // The API reference, a declared HTML page, beside the admin app's pages, which the document leaves out.
      await phone.goto(`${process.env.FOLIO_API_URL}/docs/api`);
      expect(await phone.locator('h1').textContent()).toMatch(/^Folio API /);

      await responsesChecked();
      expect(problems, problems.join('\n')).toEqual([]);
      // Of everything the pages received, the API answered only what the test fetched itself: the app's pages call
      // nothing of it from the browser.
      expect(seen.api).toEqual([
        'GET /v1/admin/webhooks 401',
        'GET /v1/admin/webhooks 200',
        `GET /v1/admin/webhooks/${destinationUuid}/deliveries 200`,
        'GET /docs/api 200',
      ]);
      expect(seen.adminApp).toBeGreaterThan(20);
    },
  );

  it(
    "shows a disabled destination's reason and turns it on, and refuses a session whose admin was demoted",
    { timeout: 4 * CLI_TIMEOUT_MS },
    async () => {
      const workspace = await makeWorkspace();
      const admin = await makeAdmin(workspace);
      const mailbox = await makeMailbox(workspace.uuid);
      const failing = await receiver('127.0.0.26');
      failing.answer(() => ({ status: 503 }));

      const page = await freshPage();
      await signInThroughCli(page, admin.email);
      await page.getByRole('link', { name: 'Add destination' }).first().click();
      await page.getByLabel('Endpoint URL').fill(failing.url('/hooks'));
      await page.getByLabel(mailbox.address).check();
      await page.getByRole('button', { name: 'Add destination' }).click();
      await page.waitForURL(/notice=created$/);
      const destinationUuid = /webhooks\/([0-9a-f-]{36})/.exec(page.url())![1]!;

      // FOLIO_WEBHOOK_DISABLE_AFTER is 2 in the suite: two events that exhaust their five attempts disable it.
      await deliverMail(mailbox.uuid, 'First');
      await deliverMail(mailbox.uuid, 'Second');
      await until(
        'the destination is disabled',
        async () =>
          (await db()('webhook_destinations').where({ uuid: destinationUuid, status: 'disabled' }).first()) ??
          false,
        120_000,
      );

      await page.reload();
      const warning = page.locator('section.warning');
      expect(await warning.textContent()).toContain('are not replayed');
      const reason = (await db()('webhook_destinations').where({ uuid: destinationUuid }).first())
        .disabled_reason as string;
      expect(await warning.textContent()).toContain(reason);
      await page.screenshot({ path: join(SCREENSHOTS, 'destination-disabled.png'), fullPage: true });
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.waitForURL(/notice=enabled$/);
      expect(await page.locator('h1 .badge').textContent()).toBe('active');

      // An admin who is demoted is signed out on the next request and sees the sign-in page, nothing else.
      await db()('workspace_members')
        .where({ workspace_uuid: workspace.uuid, user_uuid: admin.uuid })
        .update({ admin: false });
      await page.reload();
      expect(page.url()).toMatch(/\/admin\/sign-in$/);
      expect(await page.content()).not.toContain(failing.url('/hooks'));
      await page.screenshot({ path: join(SCREENSHOTS, 'sign-in.png') });

      await responsesChecked();
      expect(problems, problems.join('\n')).toEqual([]);
      expect(seen.api).toEqual([]);
      expect(seen.adminApp).toBeGreaterThan(5);
    },
  );
});
