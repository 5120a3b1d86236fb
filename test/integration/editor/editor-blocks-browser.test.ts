// Changes across blocks in a real browser (docs/editor.md § Changes across blocks), modelled on
// editor-roundtrip-browser.test.ts: text typed, Enter pressed and more typed is stored as two paragraphs; Backspace
// at the start of the second joins them; two pasted paragraphs are stored as two; another person's page shows each
// live; a commenter's Enter becomes suggestions that, accepted, make the new paragraph.
// FOLIO_UPDATE_SCREENSHOTS=1 writes docs/editor/new-paragraph.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setEarlyAccess } from '../../../domain/accounts/early-access.js';
import { db } from '../../../platform/database.js';
import {
  call,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  type TestUser,
} from '../../support/api.js';
import { caretAt, launchChromium, signedInPage } from '../../support/editor-pages.js';

const UPDATE = process.env.FOLIO_UPDATE_SCREENSHOTS === '1';
const SCREENSHOTS = UPDATE ? 'docs/editor' : mkdtempSync(join(tmpdir(), 'folio-editor-blocks-shots-'));

let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

// Each test answers for its own pages' problems.
beforeEach(() => {
  problems.length = 0;
});

afterAll(async () => {
  await browser?.close();
  if (!UPDATE) rmSync(SCREENSHOTS, { recursive: true, force: true });
});

/** A page signed in as the user, with the editor loaded. */
async function pageFor(user: TestUser, documentUuid: string): Promise<Page> {
  const page = await signedInPage(browser, user, documentUuid, problems);
  await page.waitForSelector('.document-page[data-ready="true"] .ProseMirror');
  return page;
}

/** Two people with early access in one workspace, and a document of the first's shared with the second. */
async function twoPeople(markdown: string, role: 'editor' | 'commenter') {
  const owner = await makeUser({ firstName: 'Petra', lastName: 'Paragraph' });
  const colleague = await makeColleague(owner, { firstName: 'Lars', lastName: 'Live' });
  await setEarlyAccess(db(), owner.uuid, true);
  await setEarlyAccess(db(), colleague.uuid, true);
  const created = await makeDocument(owner, { title: 'Notes', markdown });
  await shareDocument(created.uuid, colleague, role);
  return { owner, colleague, uuid: created.uuid as string };
}

const paragraphs = (page: Page) => page.locator('#document .ProseMirror p').allInnerTexts();

/** Waits until the page shows exactly these paragraphs (another person's edit arrives live, without a reload). */
async function waitForParagraphs(page: Page, wanted: string[]): Promise<void> {
  // A function, not a string: the page's CSP forbids eval. The suite's TypeScript has no DOM types, hence `any`.
  await page.waitForFunction(
    (texts) =>
      JSON.stringify(
        [...(globalThis as any).document.querySelectorAll('#document .ProseMirror p')].map(
          (p: any) => p.textContent,
        ),
      ) === JSON.stringify(texts),
    wanted,
  );
}

/** Waits until the API stores `markdown` for the document, then returns it. */
async function waitForStored(user: TestUser, documentUuid: string, page: Page, markdown: string) {
  let stored = '';
  // Deadline only, turning a hang into a named failure; the page saves after a pause in typing.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    stored = (await call('GET', `/v1/documents/${documentUuid}/content`, { token: user.token })).body
      .markdown;
    if (stored === markdown) return stored;
    await new Promise((resolve) => setTimeout(resolve, 100)); // poll interval
  }
  throw new Error(
    `stored ${JSON.stringify(stored)}, not ${JSON.stringify(markdown)}; the page says "${await page.locator('#status').innerText()}" and shows ${JSON.stringify(await paragraphs(page))}; ${problems.join(' | ')}`,
  );
}

/** Waits until the page has saved its change and is editable again. */
async function saved(page: Page, status: string): Promise<void> {
  await page.locator('#status', { hasText: status }).waitFor();
  await page.locator('#document .ProseMirror[contenteditable="true"]').waitFor();
}

describe('changes across blocks in the editor page, in a browser', () => {
  it(
    'stores Enter as a new paragraph, Backspace as a join and a paste of two paragraphs, seen live on another page',
    { timeout: 180_000 },
    async () => {
      const { owner, colleague, uuid } = await twoPeople('Bring a laptop.\n', 'editor');
      const created = { uuid };
      const page = await pageFor(owner, created.uuid);
      const other = await pageFor(colleague, created.uuid);
      const sent: unknown[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith(`/${created.uuid}/content`))
          sent.push(request.postDataJSON().operations);
      });

      // Text typed, Enter, more typed: two paragraphs. An empty paragraph alone sends nothing.
      await caretAt(page, 'Bring a laptop.');
      await page.keyboard.insertText(' And a charger.');
      await waitForStored(owner, created.uuid, page, 'Bring a laptop. And a charger.');
      await saved(page, 'Saved.');
      const before = sent.length;
      await page.keyboard.press('Enter');
      await waitForParagraphs(page, ['Bring a laptop. And a charger.', '']);
      await page.keyboard.insertText('Pack the night before.');
      await waitForStored(
        owner,
        created.uuid,
        page,
        'Bring a laptop. And a charger.\n\nPack the night before.',
      );
      await saved(page, 'Saved.');
      expect(sent.slice(before)).toEqual([
        [{ type: 'insert', markdown: 'Pack the night before.', after: 'charger.' }],
      ]);
      await waitForParagraphs(other, ['Bring a laptop. And a charger.', 'Pack the night before.']);
      expect(await paragraphs(page)).toEqual(['Bring a laptop. And a charger.', 'Pack the night before.']);
      await page.screenshot({ path: join(SCREENSHOTS, 'new-paragraph.png') });

      // Backspace at the start of the second paragraph joins it to the first.
      await caretAt(page, 'Pack the night before.', 0);
      await page.keyboard.press('Backspace');
      await waitForStored(owner, created.uuid, page, 'Bring a laptop. And a charger.Pack the night before.');
      await saved(page, 'Saved.');
      await waitForParagraphs(other, ['Bring a laptop. And a charger.Pack the night before.']);

      // Two paragraphs pasted in the middle of it: the text after the caret goes with the second.
      await caretAt(page, 'Bring a laptop.', 'Bring a laptop.'.length);
      await page.locator('#document .ProseMirror').evaluate((editor, text) => {
        const data = new (globalThis as any).DataTransfer();
        data.setData('text/plain', text);
        editor.dispatchEvent(
          new (globalThis as any).ClipboardEvent('paste', {
            clipboardData: data,
            bubbles: true,
            cancelable: true,
          }),
        );
      }, ' Also:\n\nA phone.');
      await waitForStored(
        owner,
        created.uuid,
        page,
        'Bring a laptop. Also:\n\nA phone. And a charger.Pack the night before.',
      );
      await saved(page, 'Saved.');
      await waitForParagraphs(other, [
        'Bring a laptop. Also:',
        'A phone. And a charger.Pack the night before.',
      ]);
      expect(problems).toEqual([]);
      await page.context().close();
      await other.context().close();
    },
  );

  it(
    "makes a commenter's Enter suggestions that an editor accepts into a new paragraph",
    { timeout: 180_000 },
    async () => {
      const owner = await makeUser({ firstName: 'Edda', lastName: 'Editor' });
      const commenter = await makeColleague(owner, { firstName: 'Cato', lastName: 'Commenter' });
      await setEarlyAccess(db(), owner.uuid, true);
      await setEarlyAccess(db(), commenter.uuid, true);
      const created = await makeDocument(owner, {
        title: 'Agenda',
        markdown: 'Welcome and introductions.\n',
      });
      await shareDocument(created.uuid, commenter, 'commenter');
      const page = await pageFor(commenter, created.uuid);

      await caretAt(page, 'Welcome', 'Welcome'.length);
      await page.keyboard.press('Enter');
      await saved(page, 'Suggested.');
      const content = await call('GET', `/v1/documents/${created.uuid}/content`, { token: owner.token });
      const suggestions = content.body.threads.filter((thread: any) => thread.kind === 'suggestion');
      expect(suggestions).toHaveLength(2);
      expect(content.body.markdown).toContain('{++¶++}');
      for (const suggestion of suggestions) {
        const accepted = await call(
          'POST',
          `/v1/documents/${created.uuid}/suggestions/${suggestion.uuid}/accept`,
          {
            token: owner.token,
          },
        );
        expect(accepted.status).toBe(200);
      }
      await waitForStored(owner, created.uuid, page, 'Welcome\n\nand introductions.');
      await waitForParagraphs(page, ['Welcome', 'and introductions.']);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );
});
