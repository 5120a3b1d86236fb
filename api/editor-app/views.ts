// The editor app's pages, server-rendered with the admin app's escaping template (api/admin-app/views/html.ts):
// sign-in, the preview notice for accounts without early access, and a document's page.
import { Html, html } from '../admin-app/views/html.js';
import type { ThreadView } from '../../domain/documents/threads.js';
import { atLeast, type Role } from '../../domain/roles.js';

export interface PageContext {
  /** The path the app is mounted at, for example /docs. */
  base: string;
  session?: { email: string; csrfToken: string };
}

function layout(page: PageContext, title: string, body: Html, documentUuid?: string): Html {
  const { base, session } = page;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Folio</title>
<link rel="stylesheet" href="${base}/assets/editor.css">
${documentUuid ? html`<script src="${base}/assets/editor.js" defer></script>` : ''}
</head>
<body>
<header class="topbar">
  <span class="brand">Folio <span>docs</span></span>
  ${
    session
      ? html`<div class="who">
    <span class="email">${session.email}</span>
    <form method="post" action="${base}/sign-out">
      <input type="hidden" name="_csrf" value="${session.csrfToken}">
      ${documentUuid ? html`<input type="hidden" name="next" value="${documentUuid}">` : ''}
      <button type="submit" class="link">Sign out</button>
    </form>
  </div>`
      : ''
  }
</header>
<main id="main">
${body}
</main>
</body>
</html>
`;
}

const card = (heading: string, body: Html) =>
  html`<section class="card narrow"><h1>${heading}</h1>${body}</section>`;

export function signInPage(page: PageContext, options: { signedOut?: boolean }) {
  return layout(
    page,
    'Sign in',
    card(
      'Sign in to Folio docs',
      html`${options.signedOut ? html`<p class="notice" role="status">You are signed out.</p>` : ''}
  <p>Folio docs uses one-time sign-in links instead of passwords. An operator prints one for you with</p>
  <pre class="command"><code>folio user sign-in-link --user you@example.com</code></pre>`,
    ),
  );
}

export function confirmSignInPage(page: PageContext, link: { token: string; email: string; next?: string }) {
  return layout(
    page,
    'Sign in',
    card(
      'Sign in to Folio docs',
      html`<p>Continue as <strong>${link.email}</strong>.</p>
  <form method="post" action="${page.base}/sign-in/${link.token}">
    ${link.next ? html`<input type="hidden" name="next" value="${link.next}">` : ''}
    <button type="submit" class="button primary" autofocus>Continue</button>
  </form>
  <p class="muted small">The link works once. If you did not ask for it, close this page.</p>`,
    ),
  );
}

export const linkUnusablePage = (page: PageContext) =>
  layout(
    page,
    'Link expired',
    card(
      'This sign-in link no longer works',
      html`<p>Sign-in links work once, for 15 minutes. Ask for a new one.</p>`,
    ),
  );

export const signedInPage = (page: PageContext) =>
  layout(
    page,
    'Signed in',
    card(
      'You are signed in',
      html`<p>Open a document from its link (the <code>url</code> of the document in the API).</p>`,
    ),
  );

/** What an account without early access sees instead of any document: nothing of it, not even whether it exists. */
export const previewPage = (page: PageContext) =>
  layout(
    page,
    'Preview',
    card(
      'The editor is in preview',
      html`<p id="preview-notice">The document editor is open only to accounts with early access. Ask your
  workspace's operator to turn it on for you, or read the document through the API meanwhile.</p>`,
    ),
  );

export const documentNotFoundPage = (page: PageContext) =>
  layout(
    page,
    'Not found',
    card(
      'No such document',
      html`<p>This document does not exist, was deleted, or is not shared with ${page.session?.email ?? 'you'}.</p>`,
    ),
  );

const personName = (person: ThreadView['author']) =>
  [person.first_name, person.last_name].filter(Boolean).join(' ') || 'Someone';

function threadCard(thread: ThreadView): Html {
  return html`<li class="thread ${thread.kind}" data-thread="${thread.uuid}">
  <p class="thread-kind">${thread.kind === 'suggestion' ? `Suggestion s${thread.ref}` : 'Comment'}${
    thread.placement.placement === 'detached' ? ' · detached' : ''
  }</p>
  ${thread.placement.quote ? html`<blockquote class="anchor">${thread.placement.quote}</blockquote>` : ''}
  <ol class="messages">${thread.messages.map(
    (message) => html`<li><span class="author">${personName(message.author)}</span> ${message.body}</li>`,
  )}</ol>
</li>`;
}

const ROLE_SAYS: Record<Role, string> = {
  viewer: 'You can read this document.',
  commenter: 'You can comment and suggest changes.',
  editor: 'You can edit, and accept or reject suggestions.',
  manager: 'You can edit, and accept or reject suggestions.',
  owner: 'You can edit, and accept or reject suggestions.',
};

export function documentPage(
  page: PageContext,
  document: {
    uuid: string;
    title: string | null;
    revision: number;
    role: Role;
    body: string;
    threads: ThreadView[];
  },
) {
  const open = document.threads.filter((thread) => thread.status === 'open');
  const anchored = open.filter((thread) => thread.placement.placement !== 'detached');
  const detached = open.filter((thread) => thread.placement.placement === 'detached');
  // Listing and restoring revisions need the editor role (docs/extensions.md § Documents history): the page offers
  // them to editors only, and the endpoints refuse anyone else.
  const offersHistory = atLeast(document.role, 'editor');
  return layout(
    page,
    document.title ?? 'Untitled',
    html`<div class="document-page" data-base="${page.base}" data-document="${document.uuid}"
  data-role="${document.role}" data-revision="${document.revision}" data-csrf="${page.session?.csrfToken ?? ''}">
  <div class="document-column">
    <h1 class="document-title">${document.title ?? 'Untitled'}</h1>
    <p class="role" id="role">${ROLE_SAYS[document.role]}</p>
    <p id="status" class="status" role="status" aria-live="polite"></p>
    <article id="document" class="document">${new Html(document.body)}</article>
    ${offersHistory ? html`<section id="revision-view" class="revision-view" aria-label="A past revision" hidden></section>` : ''}
  </div>
  <aside class="margin" aria-label="Comments">
    <h2>Comments</h2>
    <div id="margin-tools"></div>
    <div id="threads">${anchored.length ? html`<ol class="threads">${anchored.map(threadCard)}</ol>` : html`<p class="muted">No open threads.</p>`}
    ${detached.length ? html`<h3>Detached</h3><ol class="threads detached">${detached.map(threadCard)}</ol>` : ''}</div>
    ${offersHistory ? html`<section id="history" class="history" aria-labelledby="history-heading"><h2 id="history-heading">History</h2></section>` : ''}
  </aside>
</div>`,
    document.uuid,
  );
}
