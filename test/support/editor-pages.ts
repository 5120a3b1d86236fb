// The editor page in Chromium (playwright-core driving Debian's chromium, as the admin app's test does) for the
// editor's browser tests: the browser, and a page of its own signed in through a one-time link.
import { chromium, type Browser, type Page } from 'playwright-core';
import { createEditorSignInLink, editorSignInUrl } from '../../domain/accounts/editor-sessions.js';
import { db } from '../../platform/database.js';
import { apiUrl, type TestUser } from './api.js';
import { rememberSecret } from './log-scan.js';

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });

/**
 * A page of its own (its own cookies) signed in as the user through a one-time link, opening `documentUuid`. The
 * page's errors, and its console's other than a refused resource, are added to `problems`.
 */
export async function signedInPage(
  browser: Browser,
  user: TestUser,
  documentUuid: string,
  problems: string[],
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`);
  });
  const link = await createEditorSignInLink(db(), user.uuid);
  rememberSecret('editor sign-in link secret', link.token);
  await page.goto(editorSignInUrl(apiUrl() + '/docs', link.token, documentUuid));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(new RegExp(`/docs/${documentUuid}$`));
  for (const cookie of await context.cookies()) rememberSecret('editor session cookie', cookie.value);
  return page;
}
