// The signed-out pages: how to get a link, the confirmation a link opens, and a link that no longer works.
import { html } from './html.js';
import { layout, type PageContext } from './layout.js';

export function signInPage(
  page: PageContext,
  options: { emailEnabled: boolean; sent?: boolean; signedOut?: boolean },
) {
  return layout(
    page,
    'Sign in',
    html`<section class="card narrow">
  <h1>Sign in to Folio admin</h1>
  ${options.signedOut ? html`<p class="notice" role="status">You are signed out.</p>` : ''}
  ${options.sent ? html`<p class="notice" role="status">If that address belongs to a workspace admin, a sign-in link is on its way. It works once, for 15 minutes.</p>` : ''}
  <p>Folio admin uses one-time sign-in links instead of passwords. An operator prints one for you with</p>
  <pre class="command"><code>folio admin sign-in-link --user you@example.com</code></pre>
  ${
    options.emailEnabled
      ? html`<form method="post" action="${page.base}/sign-in" class="stack">
    <label for="email">Or have a link sent to your e-mail address</label>
    <input id="email" name="email" type="email" autocomplete="email" required>
    <button type="submit" class="button primary">Email me a sign-in link</button>
  </form>`
      : ''
  }
</section>`,
  );
}

export function confirmSignInPage(
  page: PageContext,
  link: { token: string; email: string; workspaceName: string },
) {
  return layout(
    page,
    'Sign in',
    html`<section class="card narrow">
  <h1>Sign in to Folio admin</h1>
  <p>Continue as <strong>${link.email}</strong> to the workspace <strong>${link.workspaceName}</strong>.</p>
  <form method="post" action="${page.base}/sign-in/${link.token}">
    <button type="submit" class="button primary" autofocus>Continue</button>
  </form>
  <p class="muted small">The link works once. If you did not ask for it, close this page.</p>
</section>`,
  );
}

export function linkUnusablePage(page: PageContext) {
  return layout(
    page,
    'Link expired',
    html`<section class="card narrow">
  <h1>This sign-in link cannot be used</h1>
  <p>It was already used, it expired (links last 15 minutes), or it was never valid. Ask for a new one.</p>
  <p><a class="button plain" href="${page.base}/sign-in">Back to sign-in</a></p>
</section>`,
  );
}

export function forbiddenPage(page: PageContext) {
  return layout(
    page,
    'Not found',
    html`<section class="card narrow">
  <h1>Not found</h1>
  <p>There is nothing here, or it is not yours to see.</p>
  <p><a class="button plain" href="${page.base}/webhooks">Back to webhooks</a></p>
</section>`,
  );
}
