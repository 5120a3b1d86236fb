// The editor app in a real browser (playwright-core driving Debian's chromium, as the admin app's test does): the
// preview page for an account without early access, a document's `url` from the API opening that document, two
// people on one document seeing each other's edits and comments live, a commenter's change becoming a suggestion an
// editor accepts, a viewer who cannot change anything, a 409 conflict resolved (the page's write held until another
// person's edit has committed), and history: a revision opened read-only and restored, seen live on another page.
// FOLIO_UPDATE_SCREENSHOTS=1 writes the pages to docs/editor/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEarlyAccess } from '../../../domain/accounts/early-access.js';
import { db } from '../../../platform/database.js';
import {
  apiUrl,
  call,
  makeColleague,
  makeDocument,
  makeUser,
  shareDocument,
  type TestUser,
} from '../../support/api.js';
import { caretAt, launchChromium, signedInPage } from '../../support/editor-pages.js';

const UPDATE = process.env.FOLIO_UPDATE_SCREENSHOTS === '1';
const SCREENSHOTS = UPDATE ? 'docs/editor' : mkdtempSync(join(tmpdir(), 'folio-editor-shots-'));

let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (!UPDATE) rmSync(SCREENSHOTS, { recursive: true, force: true });
});

/** A page of its own (its own cookies) signed in as the user through a one-time link, opening `documentUuid`. */
const pageFor = (user: TestUser, documentUuid: string): Promise<Page> =>
  signedInPage(browser, user, documentUuid, problems);

/** Waits for the editor to have loaded the document (the script marks the page ready). */
async function editorReady(page: Page): Promise<void> {
  await page.waitForSelector('.document-page[data-ready="true"] .ProseMirror');
}

const documentText = (page: Page) => page.locator('#document .ProseMirror').innerText();

/** Waits until the page's document reads `text` (live updates arrive without a reload). */
async function waitForText(page: Page, text: string): Promise<void> {
  // A function, not a string: the page's CSP forbids eval. The suite's TypeScript has no DOM types, hence `page`.
  await page.waitForFunction(
    (wanted) =>
      (globalThis as any).document.querySelector('#document .ProseMirror')?.textContent?.includes(wanted),
    text,
  );
}

/** Puts the caret at the end of the paragraph holding `text` and types. */
async function typeAfter(page: Page, text: string, typed: string): Promise<void> {
  await caretAt(page, text);
  await page.keyboard.type(typed);
}

/**
 * Holds the page's first write of the document (its POST of `content`) until `release`, so that a test can commit
 * another person's edit in between: the page's base_revision is then behind, and it must resolve a 409. `statuses`
 * collects the answers of every write the page sends.
 */
async function holdFirstWrite(page: Page, documentUuid: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markHeld!: () => void;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  let holding = true;
  const statuses: number[] = [];
  const path = `/docs/${documentUuid}/content`;
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && new URL(response.url()).pathname === path)
      statuses.push(response.status());
  });
  await page.route(
    (url) => url.pathname === path,
    async (route: Route) => {
      if (route.request().method() !== 'POST' || !holding) return route.continue();
      holding = false;
      markHeld();
      await released;
      await route.continue();
    },
  );
  return { held, release, statuses };
}

/** Puts the caret at the end of the paragraph holding `text` and inserts `typed` as one change (one operation). */
async function insertAfter(page: Page, text: string, typed: string): Promise<void> {
  await caretAt(page, text);
  await page.keyboard.insertText(typed);
}

const storedMarkdown = async (owner: TestUser, documentUuid: string): Promise<string> =>
  (await call('GET', `/v1/documents/${documentUuid}/content`, { token: owner.token })).body.markdown;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

describe('the editor app in a browser', () => {
  it('shows an account without early access only the preview page', async () => {
    const owner = await makeUser({ firstName: 'Nora', lastName: 'Preview' });
    const created = await makeDocument(owner, { title: 'Roadmap', markdown: 'Not for preview eyes.\n' });
    const page = await pageFor(owner, created.uuid);
    await page.getByRole('heading', { name: 'The editor is in preview' }).waitFor();
    expect(await page.content()).not.toContain('Not for preview eyes');
    await shot(page, 'preview');
    await page.context().close();
  });

  it("opens a document's url from the API, and lets a viewer change nothing", async () => {
    const owner = await makeUser({ firstName: 'Olga', lastName: 'Owner' });
    const viewer = await makeColleague(owner, { firstName: 'Victor', lastName: 'Viewer' });
    await setEarlyAccess(db(), owner.uuid, true);
    await setEarlyAccess(db(), viewer.uuid, true);
    await makeDocument(owner, { title: 'Another', markdown: 'The wrong document.\n' });
    const created = await makeDocument(owner, {
      title: 'Release notes',
      markdown: '# Release 2.4\n\nThe **sync** engine is faster.\n\n- Fewer conflicts\n- Smaller uploads\n',
    });
    await shareDocument(created.uuid, viewer, 'viewer');
    const read = await call('GET', `/v1/documents/${created.uuid}`, { token: viewer.token });
    const path = new URL(read.body.url).pathname;
    expect(path).toBe(`/docs/${created.uuid}`);

    const page = await pageFor(viewer, created.uuid);
    await page.goto(apiUrl() + path);
    await editorReady(page);
    expect(await documentText(page)).toContain('The sync engine is faster.');
    expect(await page.locator('#document strong').innerText()).toBe('sync');
    expect(await page.locator('#document .ProseMirror').getAttribute('contenteditable')).toBe('false');
    expect(await page.locator('form.new-comment').count()).toBe(0);
    await page.locator('#document .ProseMirror p').first().click();
    await page.keyboard.type('typed by a viewer');
    expect(await documentText(page)).not.toContain('typed by a viewer');
    await shot(page, 'viewer');
    // Its own API refuses a viewer's write whatever the page does.
    const refused = await page.evaluate(
      async ([base, csrf]) =>
        (
          await fetch(`${base}/content`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': csrf! },
            body: JSON.stringify({ operations: [{ type: 'replace', find: 'faster', with: 'slower' }] }),
          })
        ).status,
      [path, await page.locator('.document-page').getAttribute('data-csrf')],
    );
    expect(refused).toBe(403);
    const after = await call('GET', `/v1/documents/${created.uuid}/content`, { token: owner.token });
    expect(after.body.markdown).toContain('faster');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it(
    "two people see each other's edits and comments live, and an editor accepts a commenter's suggestion",
    { timeout: 180_000 },
    async () => {
      const owner = await makeUser({ firstName: 'Ada', lastName: 'Editor' });
      const commenter = await makeColleague(owner, { firstName: 'Cyrus', lastName: 'Commenter' });
      await setEarlyAccess(db(), owner.uuid, true);
      await setEarlyAccess(db(), commenter.uuid, true);
      const created = await makeDocument(owner, {
        title: 'Team offsite',
        markdown: '# Offsite\n\nWe meet in Lisbon in May.\n\nBring a laptop.\n',
      });
      await shareDocument(created.uuid, commenter, 'commenter');
      const editorPage = await pageFor(owner, created.uuid);
      const commenterPage = await pageFor(commenter, created.uuid);
      await editorReady(editorPage);
      await editorReady(commenterPage);

      // The editor's change is an edit: stored, and on the other page without a reload.
      await typeAfter(editorPage, 'Lisbon', ' and June');
      await waitForText(commenterPage, 'We meet in Lisbon in May. and June');
      const stored = await call('GET', `/v1/documents/${created.uuid}/content`, { token: owner.token });
      expect(stored.body.markdown).toMatch(
        /^# Offsite\n\nWe meet in Lisbon in May\. and June\n\nBring a laptop\.\n?$/,
      );

      // A comment from the commenter's page shows in the editor's margin.
      await commenterPage.getByRole('textbox', { name: 'Comment' }).fill('Which hotel?');
      await commenterPage.getByRole('button', { name: 'Comment' }).click();
      await editorPage.locator('.thread.comment', { hasText: 'Which hotel?' }).waitFor();
      await shot(editorPage, 'live');

      // The commenter's change is a suggestion, shown inline on both pages.
      await typeAfter(commenterPage, 'Bring a laptop', ' and a charger');
      await editorPage
        .locator('.thread.suggestion')
        .waitFor()
        .catch(async (error) => {
          throw new Error(
            `${String(error)}; the commenter's page says "${await commenterPage.locator('#status').innerText()}", the editor's "${await editorPage.locator('#status').innerText()}"; ${problems.join(' | ')}`,
          );
        });
      await editorPage.locator('#document ins', { hasText: 'charger' }).waitFor();
      const suggested = await call('GET', `/v1/documents/${created.uuid}/content`, { token: owner.token });
      expect(suggested.body.markdown).toMatch(/\{~~laptop\.~>laptop\\?\. and a charger~~\}\{>>s1<<\}|\{\+\+/);
      expect(
        suggested.body.threads.find((thread: any) => thread.kind === 'suggestion').author.display_name,
      ).toBe('Cyrus Commenter');
      await shot(editorPage, 'suggestion');
      expect(await commenterPage.locator('.thread.suggestion button').count()).toBe(0);

      // The editor accepts it; both pages read the accepted text.
      await editorPage.getByRole('button', { name: 'Accept' }).click();
      await waitForText(commenterPage, 'Bring a laptop. and a charger');
      await editorPage.waitForFunction(() => !(globalThis as any).document.querySelector('#document ins'));
      const accepted = await call('GET', `/v1/documents/${created.uuid}/content`, { token: owner.token });
      expect(accepted.body.markdown).toContain('Bring a laptop. and a charger');
      expect(accepted.body.markdown).not.toContain('{');
      await shot(commenterPage, 'accepted');
      expect(problems).toEqual([]);
      await editorPage.context().close();
      await commenterPage.context().close();
    },
  );

  describe('a 409 conflict', () => {
    async function editorOn(markdown: string) {
      const owner = await makeUser({ firstName: 'Ada', lastName: 'Editor' });
      const colleague = await makeColleague(owner, { firstName: 'Bo', lastName: 'Other' });
      await setEarlyAccess(db(), owner.uuid, true);
      const created = await makeDocument(owner, { title: 'Team offsite', markdown });
      await shareDocument(created.uuid, colleague, 'editor');
      const page = await pageFor(owner, created.uuid);
      await editorReady(page);
      return { owner, colleague, uuid: created.uuid, page };
    }

    const apiEdit = async (user: TestUser, documentUuid: string, find: string, replacement: string) => {
      const edited = await call('POST', `/v1/documents/${documentUuid}/content`, {
        token: user.token,
        json: { operations: [{ type: 'replace', find, with: replacement }] },
      });
      expect(edited.status).toBe(200);
    };

    it('reapplies the change on the new revision when its quote still reads there', async () => {
      const { owner, colleague, uuid, page } = await editorOn(
        '# Offsite\n\nWe meet in Lisbon in May.\n\nBring a laptop.\n',
      );
      const write = await holdFirstWrite(page, uuid);
      await insertAfter(page, 'Bring a laptop', ' and a charger');
      await write.held;
      // Another person's edit commits while the page's write (on the old base_revision) is held.
      await apiEdit(colleague, uuid, 'Lisbon', 'Porto');
      write.release();
      await page.locator('#status', { hasText: 'Saved.' }).waitFor();
      expect(write.statuses).toEqual([409, 200]);
      await waitForText(page, 'We meet in Porto in May.');
      expect(await documentText(page)).toContain('Bring a laptop. and a charger');
      expect(await storedMarkdown(owner, uuid)).toMatch(
        /^# Offsite\n\nWe meet in Porto in May\.\n\nBring a laptop\. and a charger\n?$/,
      );
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('reapplies the change at the same place when the other edit added an earlier copy of its quote', async () => {
      const { owner, colleague, uuid, page } = await editorOn(
        '# Offsite\n\nWe meet in Lisbon in May.\n\nBring a laptop.\n',
      );
      const write = await holdFirstWrite(page, uuid);
      await insertAfter(page, 'Bring a laptop', ' and a charger');
      await write.held;
      // "laptop." read once when the page worked out its change; now the first copy is the other person's.
      await apiEdit(colleague, uuid, 'May.', 'May. Bring a laptop.');
      write.release();
      await page.locator('#status', { hasText: 'Saved.' }).waitFor();
      expect(write.statuses).toEqual([409, 200]);
      expect(await storedMarkdown(owner, uuid)).toMatch(
        /^# Offsite\n\nWe meet in Lisbon in May\. Bring a laptop\.\n\nBring a laptop\. and a charger\n?$/,
      );
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('tells the person, and changes nothing, when the text it quoted was changed first', async () => {
      const { owner, colleague, uuid, page } = await editorOn(
        '# Offsite\n\nWe meet in Lisbon in May.\n\nBring a laptop.\n',
      );
      const write = await holdFirstWrite(page, uuid);
      await insertAfter(page, 'Bring a laptop', ' and a charger');
      await write.held;
      await apiEdit(colleague, uuid, 'laptop.', 'tablet.');
      write.release();
      await page
        .locator('#status[data-kind="error"]', {
          hasText: 'Someone changed that text first; your change was not applied.',
        })
        .waitFor();
      expect(write.statuses).toEqual([409]);
      // The page shows the document as it now is: the other person's text, without the change.
      await waitForText(page, 'Bring a tablet.');
      expect(await documentText(page)).not.toContain('charger');
      expect(await storedMarkdown(owner, uuid)).toMatch(
        /^# Offsite\n\nWe meet in Lisbon in May\.\n\nBring a tablet\.\n?$/,
      );
      await shot(page, 'conflict');
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  it(
    'lists the revisions for an editor, opens one read-only and restores it, seen live by a commenter who cannot restore',
    { timeout: 180_000 },
    async () => {
      const owner = await makeUser({ firstName: 'Ada', lastName: 'Editor' });
      const commenter = await makeColleague(owner, { firstName: 'Cyrus', lastName: 'Commenter' });
      await setEarlyAccess(db(), owner.uuid, true);
      await setEarlyAccess(db(), commenter.uuid, true);
      const created = await makeDocument(owner, {
        title: 'Budget',
        markdown: '# Budget\n\nWe spend **ten** euros.\n',
      });
      await shareDocument(created.uuid, commenter, 'commenter');
      for (const [find, replacement] of [
        ['ten', 'twenty'],
        ['twenty', 'thirty'],
      ]) {
        const edited = await call('POST', `/v1/documents/${created.uuid}/content`, {
          token: owner.token,
          json: { operations: [{ type: 'replace', find, with: replacement }] },
        });
        expect(edited.status).toBe(200);
      }
      const editorPage = await pageFor(owner, created.uuid);
      const commenterPage = await pageFor(commenter, created.uuid);
      await editorReady(editorPage);
      await editorReady(commenterPage);

      // A commenter is offered no history (its endpoints refuse them: editor-app.test.ts).
      expect(await commenterPage.locator('#history').count()).toBe(0);
      expect(await commenterPage.getByRole('button', { name: 'Show history' }).count()).toBe(0);

      await editorPage.getByRole('button', { name: 'Show history' }).click();
      const entries = editorPage.locator('#history .revisions li');
      await entries.nth(3).waitFor();
      // Revision 1 is the document as created (empty), 2 its first text.
      expect(await entries.allInnerTexts()).toEqual([
        expect.stringMatching(/^Revision 4 Edited · Ada Editor · /),
        expect.stringMatching(/^Revision 3 Edited · Ada Editor · /),
        expect.stringMatching(/^Revision 2 Edited · Ada Editor · /),
        expect.stringMatching(/^Revision 1 Created · Ada Editor · /),
      ]);

      // Revision 2, read-only, in place of the editor.
      await editorPage.getByRole('button', { name: 'Revision 2', exact: true }).click();
      const revisionView = editorPage.locator('#revision-view');
      await revisionView.getByText('(read-only)').waitFor();
      expect(await revisionView.locator('strong', { hasText: 'ten' }).count()).toBe(1);
      expect(await revisionView.innerText()).toContain('We spend ten euros.');
      expect(await revisionView.locator('[contenteditable]').count()).toBe(0);
      expect(await editorPage.locator('#document').isHidden()).toBe(true);
      await shot(editorPage, 'history');

      await editorPage.getByRole('button', { name: 'Restore this version' }).click();
      await editorPage.locator('#status', { hasText: 'Restored revision 2.' }).waitFor();
      expect(await editorPage.locator('#document').isVisible()).toBe(true);
      expect(await documentText(editorPage)).toContain('We spend ten euros.');
      // The commenter's page follows without a reload.
      await waitForText(commenterPage, 'We spend ten euros.');
      expect(await storedMarkdown(owner, created.uuid)).toMatch(
        /^# Budget\n\nWe spend \*\*ten\*\* euros\.\n?$/,
      );
      const history = await call('GET', `/v1/documents/${created.uuid}/revisions`, { token: owner.token });
      expect(history.body.data[0]).toMatchObject({ revision: 5, cause: 'restore', restored_from: 2 });
      // The open list reads the new revision.
      await editorPage.locator('#history .revisions li', { hasText: 'Restored revision 2' }).waitFor();
      await shot(editorPage, 'restored');
      expect(problems).toEqual([]);
      await editorPage.context().close();
      await commenterPage.context().close();
    },
  );
});
