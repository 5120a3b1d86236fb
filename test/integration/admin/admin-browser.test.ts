// The admin app in a real browser (playwright-core driving Debian's chromium; deploy/test.sh installs it when it is
// missing): sign in through a CLI link, add a destination (a refused URL shows its reason), subscribe mailboxes,
// reveal and copy the secret, pause and resume, watch a delivery from `folio email deliver` arrive in the history,
// read a disabled destination's reason and turn it on — with the security headers, labels, keyboard, a phone-width
// screen and no console errors checked along the way. Every response a page receives is classified: the admin app's
// own (its path is x-folio-excluded in openapi/folio.yaml: HTML, its assets, redirects) or the API's, which is held
// to the OpenAPI document by the same check as every response of the suite. FOLIO_UPDATE_SCREENSHOTS=1 writes the
// pages to docs/admin/.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { makeWorkspace } from '../../support/api.js';
import { CLI_TIMEOUT_MS, folio } from '../../support/cli.js';
import { emlMessage, makeAdmin, makeDestination, makeMailbox } from '../../support/mail.js';
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
  // A blob: or data: URL (the API reference's search worker) is the page's own memory, not an answer of the server.
  if (url.protocol === 'blob:' || url.protocol === 'data:') return;
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

/**
 * Nothing of the page is wider than a 390 px phone: no sideways scroll, and every attempt's cells (the Result column
 * above all, which a table once cut off) lie inside the screen.
 */
async function expectFitsPhone(page: Page) {
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  // Measured in one go in the page: the history refreshes itself, and a cell measured one by one may be replaced.
  const outside = await page.locator('table.attempts td').evaluateAll((cells) =>
    cells.flatMap((cell, index) => {
      const box = cell.getBoundingClientRect();
      const label = cell.getAttribute('data-label') ?? 'details';
      return box.width === 0 || box.left < 0 || box.right > 390
        ? [`${label} of row ${Math.floor(index / 6)}: ${box.left}–${box.right}`]
        : [];
    }),
  );
  expect(outside).toEqual([]);
  expect(await page.locator('td[data-label="Result"]').count()).toBeGreaterThan(0);
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
      // The receiver's answer, markup included: the attempt's details show it as text.
      const answerBody = '<b>Ticket</b> #42 & "queued"';
      target.answer(() => ({ status: 200, headers: { 'x-receiver': 'desk-7' }, body: answerBody }));

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

      // A delivery from `folio email deliver` shows in the history with its status code, by itself: the page
      // refreshes its history in place (the same document, never reloaded) while it is visible.
      await page.evaluate('window.folioSameDocument = true');
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
      const attemptRow = page.locator('table.attempts tbody tr').first();
      await attemptRow.filter({ hasText: 'HTTP 200' }).waitFor({ timeout: 60_000 });
      expect(await page.evaluate('window.folioSameDocument')).toBe(true);
      await attemptRow.getByText('Details').click();
      expect(await attemptRow.locator('dl.headers').first().textContent()).toContain('x-service-delivery-id');
      // What the receiver answered: its status, its headers and its body, as text.
      const answer = await attemptRow.locator('dl.headers').nth(1).textContent();
      expect(answer).toContain('HTTP 200');
      expect(answer).toContain('x-receiver');
      expect(answer).toContain('desk-7');
      await attemptRow.getByText(/^Response body/).click();
      expect(await attemptRow.locator('pre.response-body').textContent()).toBe(answerBody);
      expect(await attemptRow.locator('pre.response-body b').count()).toBe(0);
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
      await expectFitsPhone(phone);
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
        // The reference page's renderer and the document it renders (docs/api-reference.md).
        'GET /docs/api/redoc.standalone.js 200',
        'GET /openapi.json 200',
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

/** A seeded attempt: what the history shows of it. */
interface SeededAttempt {
  uuid: string;
  event_uuid: string;
  attempt: number;
  outcome: 'success' | 'failure';
  started_at: Date;
}

/**
 * A destination's past written straight into its tables, as the delivery workflow leaves it: `events` deliveries
 * 3 hours apart going back from now, every fourth failing once before succeeding, and one that failed twice and
 * waits to retry. The admin app only reads these rows.
 */
async function seedHistory(
  destinationUuid: string,
  workspaceUuid: string,
  mailboxUuid: string,
  events: number,
) {
  const attempts: SeededAttempt[] = [];
  const now = Date.now();
  const hour = 3_600_000;
  const addDelivery = async (
    createdAt: Date,
    state: string,
    results: { status: number; body?: string; headers?: Record<string, string> }[],
    nextAttemptAt: Date | null = null,
  ) => {
    const eventUuid = randomUUID();
    await db()('webhook_events').insert({
      uuid: eventUuid,
      workspace_uuid: workspaceUuid,
      mailbox_uuid: mailboxUuid,
      email_uuid: randomUUID(),
      type: 'email.received',
      created_at: createdAt,
    });
    await db()('webhook_deliveries').insert({
      destination_uuid: destinationUuid,
      event_uuid: eventUuid,
      workspace_uuid: workspaceUuid,
      mailbox_uuid: mailboxUuid,
      state,
      attempts: results.length,
      next_attempt_at: nextAttemptAt,
      created_at: createdAt,
      finished_at: state === 'succeeded' ? createdAt : null,
    });
    for (const [index, result] of results.entries()) {
      const row: SeededAttempt = {
        uuid: randomUUID(),
        event_uuid: eventUuid,
        attempt: index + 1,
        outcome: result.status < 300 ? 'success' : 'failure',
        started_at: new Date(createdAt.getTime() + index * 60_000),
      };
      await db()('webhook_attempts').insert({
        ...row,
        destination_uuid: destinationUuid,
        status_code: result.status,
        response_time_ms: 40 + index * 25,
        finished_at: row.started_at,
        response_headers: JSON.stringify(result.headers ?? { 'content-type': 'text/plain' }),
        response_body: result.body ?? 'ok',
      });
      attempts.push(row);
    }
    return eventUuid;
  };
  for (let index = 1; index <= events; index += 1) {
    const results = index % 4 === 0 ? [{ status: 500 }, { status: 200 }] : [{ status: 200 }];
    await addDelivery(new Date(now - index * 3 * hour), 'succeeded', results);
  }
  const busy = {
    status: 503,
    headers: { 'content-type': 'text/html', 'retry-after': '120' },
    body: '<h1>Busy</h1><script>alert(1)</script>',
  };
  // Its next attempt is a minute from now to the second: Postgres keeps microseconds, the page shows seconds.
  const nextAttemptAt = new Date(Math.floor((now + 25 * 60_000) / 1000) * 1000);
  const waitingEvent = await addDelivery(new Date(now - 10 * 60_000), 'waiting', [busy, busy], nextAttemptAt);
  return { attempts, waitingEvent, nextAttemptAt, addDelivery };
}

/** The attempt uuids a page of the history lists, top to bottom. */
const listedAttempts = (page: Page) =>
  page
    .locator('table.attempts tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-attempt')!));

describe('the history of a destination', () => {
  it(
    'pages, filters and refreshes itself, with the next attempt of a waiting delivery, at desktop and phone widths',
    { timeout: 4 * CLI_TIMEOUT_MS },
    async () => {
      const workspace = await makeWorkspace();
      const admin = await makeAdmin(workspace);
      const mailbox = await makeMailbox(workspace.uuid);
      const destination = await makeDestination(workspace.uuid, 'https://127.0.0.27/hooks', [mailbox.uuid]);
      const { attempts, waitingEvent, nextAttemptAt, addDelivery } = await seedHistory(
        destination.uuid,
        workspace.uuid,
        mailbox.uuid,
        22,
      );
      const newestFirst = [...attempts].sort(
        (a, b) => b.started_at.getTime() - a.started_at.getTime() || (b.uuid < a.uuid ? -1 : 1),
      );
      const address = `${process.env.FOLIO_API_URL}/admin/webhooks/${destination.uuid}`;

      const page = await freshPage();
      // The page's timers run on a clock the test moves: a hidden tab is shown to fetch nothing however long it waits.
      await page.clock.install();
      await signInThroughCli(page, admin.email);
      await page.goto(address);

      // Paging: 20 a page, newest first, the next page from the cursor, nothing skipped or repeated.
      const first = await listedAttempts(page);
      expect(first).toEqual(newestFirst.slice(0, 20).map((row) => row.uuid));
      await page.getByRole('link', { name: 'Older attempts' }).click();
      expect(await listedAttempts(page)).toEqual(newestFirst.slice(20).map((row) => row.uuid));
      expect(await page.getByRole('link', { name: 'Older attempts' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Newest attempts' }).click();
      expect(await listedAttempts(page)).toEqual(first);

      // The waiting delivery: when its next attempt goes, on its latest attempt only and above the table.
      const iso = nextAttemptAt.toISOString();
      expect(await page.locator('p.waiting time').getAttribute('datetime')).toBe(iso);
      const waitingRows = newestFirst.filter((row) => row.event_uuid === waitingEvent);
      const latest = page.locator(`tr[data-attempt="${waitingRows[0]!.uuid}"]`);
      expect(await latest.locator('.next-attempt time').getAttribute('datetime')).toBe(iso);
      expect(await page.locator(`tr[data-attempt="${waitingRows[1]!.uuid}"] .next-attempt`).count()).toBe(0);

      // Its answer, markup and all, is text in the page.
      await latest.getByText('Details').click();
      expect(await latest.locator('dl.headers').nth(1).textContent()).toContain('retry-after120');
      await latest.getByText(/^Response body/).click();
      expect(await latest.locator('pre.response-body').textContent()).toBe(
        '<h1>Busy</h1><script>alert(1)</script>',
      );
      expect(await latest.locator('pre.response-body script, pre.response-body h1').count()).toBe(0);

      // The charts have a y-axis up to a round value at or above the busiest day, and legends.
      const perDay = new Map<string, number>();
      for (const row of attempts) {
        const key = `${row.started_at.toISOString().slice(0, 10)} ${row.outcome}`;
        perDay.set(key, (perDay.get(key) ?? 0) + 1);
      }
      const ticks = (await page.locator('.attempts-chart .y-axis text:not(.unit)').allTextContents()).map(
        Number,
      );
      expect(ticks[0]).toBe(0);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(Math.max(...perDay.values()));
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(await page.locator('.attempts-chart .unit').textContent()).toBe('attempts');
      expect(await page.locator('.latency-chart .unit').textContent()).toBe('ms');
      expect(await page.locator('.latency-chart polyline.p95_ms').count()).toBeGreaterThan(0);
      expect(await page.locator('figure.chart-box .legend').allTextContents()).toEqual([
        expect.stringMatching(/delivered.*failed/),
        expect.stringMatching(/p50.*p95/),
      ]);
      await expectLabelledControls(page);
      await page.screenshot({ path: join(SCREENSHOTS, 'destination-history.png'), fullPage: true });

      // A new attempt shows up by itself; the attempt whose details are open stays open, in the same document.
      await page.evaluate('window.folioSameDocument = true');
      const newEvent = await addDelivery(new Date(), 'succeeded', [{ status: 202 }]);
      const [newAttempt] = await db()('webhook_attempts').where({ event_uuid: newEvent }).pluck('uuid');
      await page.clock.runFor(5_000);
      await page.locator(`tr[data-attempt="${newAttempt}"]`).waitFor();
      expect(await latest.locator('details').first().getAttribute('open')).not.toBeNull();
      expect(await page.evaluate('window.folioSameDocument')).toBe(true);

      // A hidden tab fetches nothing, however long it stays hidden; shown again, it refreshes at once.
      const fetches: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/activity')) fetches.push(request.url());
      });
      await page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'))`);
      expect(await page.locator('[data-live]').getAttribute('data-live-state')).toBe('paused');
      await page.clock.runFor(10 * 60_000);
      expect(fetches).toEqual([]);
      const shown = page.waitForRequest((request) => request.url().includes('/activity'));
      await page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'))`);
      await shown;

      // Filters: by outcome, by a range of UTC days; the page keeps them when it pages and refreshes.
      await page.getByLabel('Outcome').selectOption('failed');
      await page.getByRole('button', { name: 'Apply' }).click();
      const failures = newestFirst.filter((row) => row.outcome === 'failure').map((row) => row.uuid);
      expect(await listedAttempts(page)).toEqual(failures);
      expect(await page.locator('[data-live]').getAttribute('data-live')).toContain('outcome=failed');
      const day = newestFirst[10]!.started_at.toISOString().slice(0, 10);
      await page.getByLabel('Outcome').selectOption('');
      await page.getByLabel('From (UTC)').fill(day);
      await page.getByLabel('To (UTC)').fill(day);
      await page.getByRole('button', { name: 'Apply' }).click();
      expect(await listedAttempts(page)).toEqual(
        newestFirst.filter((row) => row.started_at.toISOString().startsWith(day)).map((row) => row.uuid),
      );
      // Refused filters answer 400, which the browser logs as a failed load: those lines are expected here.
      const before400 = problems.length;
      await page.getByLabel('From (UTC)').fill('2026-01-02');
      await page.getByLabel('To (UTC)').fill('2026-01-01');
      const refused = page.waitForResponse((response) => response.url().includes('from=2026-01-02'));
      await page.getByRole('button', { name: 'Apply' }).click();
      expect((await refused).status()).toBe(400);
      expect(await page.locator('#filter-error').textContent()).toBe('The start date is after the end date.');
      expect(await page.locator('table.attempts').count()).toBe(0);
      expect((await page.goto(`${address}?outcome=everything`))!.status()).toBe(400);
      expect((await page.goto(`${address}?before=whdel_not-a-cursor`))!.status()).toBe(400);
      problems.splice(
        before400,
        problems.length - before400,
        ...problems.slice(before400).filter((problem) => !/status of 400/.test(problem)),
      );

      // A phone: the same history in stacked rows, nothing wider than the screen.
      const phone = await freshPage({ width: 390, height: 844 });
      await signInThroughCli(phone, admin.email);
      await phone.goto(address);
      await expectFitsPhone(phone);
      await phone.locator('table.attempts tbody tr').first().getByText('Details').click();
      await expectFitsPhone(phone);
      await phone.screenshot({ path: join(SCREENSHOTS, 'destination-history-phone.png'), fullPage: true });

      await responsesChecked();
      expect(problems, problems.join('\n')).toEqual([]);
      expect(seen.api).toEqual([]);
    },
  );
});
