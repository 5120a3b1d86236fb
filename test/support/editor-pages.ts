// The editor page in Chromium (playwright-core driving Debian's chromium, as the admin app's test does) for the
// editor's browser tests: the browser, a page of its own signed in through a one-time link, and the caret put in a
// paragraph.
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

/**
 * Puts the caret in the paragraph holding `text`, `offset` letters from its start (its end when omitted), and waits
 * until the page has taken it in. ProseMirror learns of a caret moved by the keyboard from the browser's
 * `selectionchange` event, which Chromium sends at its next rendering step, later than Playwright's next key press:
 * an Enter or Backspace pressed before it would act where the caret was a few keys earlier (a paragraph split at the
 * wrong letter, or a Backspace ProseMirror leaves to the browser, whose own join writes an inline style the page's CSP
 * refuses). Two animation frames and a task later the event has been handled.
 */
export async function caretAt(page: Page, text: string, offset?: number): Promise<void> {
  await page.locator('#document .ProseMirror p', { hasText: text }).click();
  if (offset === undefined) await page.keyboard.press('End');
  else {
    await page.keyboard.press('Home');
    for (let i = 0; i < offset; i++) await page.keyboard.press('ArrowRight');
  }
  await page.evaluate(
    () =>
      new Promise((resolve) =>
        (globalThis as any).requestAnimationFrame(() =>
          (globalThis as any).requestAnimationFrame(() => setTimeout(resolve, 0)),
        ),
      ),
  );
}
