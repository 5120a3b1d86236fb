// The editor's markdown round trip in a real browser (docs/editor.md § Markdown round trip), on a handful of the
// CommonMark spec's examples that the API keeps byte for byte: each is created through the API, opened in the page,
// the caret put at the end of its first text block and one character typed. The page must send exactly one
// operation, the one the page's mapping (client/changes.ts, tested on every kept example in test/unit/editor/) gives
// for that keystroke: so opening the document and moving the caret sent nothing, since anything sent before the
// keystroke would be a request of its own, and any change the page made by itself would be part of this one. What
// the API then stores is the original with exactly that character inserted.
import { tests as examples } from 'commonmark-spec';
import type { Browser, Page } from 'playwright-core';
import { EditorState } from 'prosemirror-state';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, operationFor } from '../../../api/editor-app/client/changes.js';
import { setEarlyAccess } from '../../../domain/accounts/early-access.js';
import { schema } from '../../../domain/document-engine/schema.js';
import { db } from '../../../platform/database.js';
import { call, makeDocument, makeUser, type TestUser } from '../../support/api.js';
import { launchChromium, signedInPage } from '../../support/editor-pages.js';

/**
 * Kept examples whose first text block is one line (the End key goes to the end of a line): a heading with escapes,
 * a block quote, a list item, a code span, nested emphasis, and a link (text typed after a link takes no link, so the
 * page quotes the whole block as markdown).
 */
const EXAMPLES = [66, 242, 322, 328, 410, 483];

let browser: Browser;
let owner: TestUser;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  owner = await makeUser({ firstName: 'Rita', lastName: 'Roundtrip' });
  await setEarlyAccess(db(), owner.uuid, true);
});

afterAll(async () => {
  await browser?.close();
});

async function pageFor(user: TestUser, documentUuid: string): Promise<Page> {
  const page = await signedInPage(browser, user, documentUuid, problems);
  await page.waitForSelector('.document-page[data-ready="true"] .ProseMirror');
  return page;
}

/** The operation the page's mapping gives for an `x` typed at the end of the first text block of `markdown`. */
function expectedOperation(markdown: string) {
  const state = EditorState.create({ schema, doc: documentOf(schema, markdown, new Map()) });
  let end: number | undefined;
  state.doc.descendants((node, pos) => {
    if (end !== undefined || !node.isTextblock) return end === undefined;
    end = pos + node.nodeSize - 1;
    return false;
  });
  return operationFor(state.doc, state.apply(state.tr.insertText('x', end!)).doc);
}

describe('the editor page on kept CommonMark examples, in a browser', () => {
  it.each(EXAMPLES)('example %i: opened without a change, then one character typed', async (number) => {
    const example = examples.find((candidate) => candidate.number === number)!;
    const original = example.markdown.replace(/\n$/, '');
    const created = await makeDocument(owner, { title: `Example ${number}`, markdown: example.markdown });
    const before = await call('GET', `/v1/documents/${created.uuid}/content`, { token: owner.token });
    expect(before.body.markdown, 'the API keeps this example byte for byte').toBe(original);

    const page = await pageFor(owner, created.uuid);
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/${created.uuid}/content`))
        sent.push(request.postDataJSON());
    });
    await page.locator('#document .ProseMirror').locator('p, h1, h2, h3, h4, h5, h6, pre').first().click();
    await page.keyboard.press('End');
    const saved = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().endsWith(`/${created.uuid}/content`),
    );
    await page.keyboard.type('x');
    expect((await saved).status()).toBe(200);

    expect(sent).toEqual([
      { operations: [expectedOperation(original)], base_revision: before.body.revision },
    ]);
    const after = await call('GET', `/v1/documents/${created.uuid}/content`, { token: owner.token });
    let at = 0;
    while (at < original.length && original[at] === after.body.markdown[at]) at += 1;
    expect(after.body.markdown).toBe(`${original.slice(0, at)}x${original.slice(at)}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
