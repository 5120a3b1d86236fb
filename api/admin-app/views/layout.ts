// The page frame every admin page shares: header with the workspace and the signed-in admin, sign-out, content.
import { html, type Html } from './html.js';

export interface PageContext {
  /** The path the admin app is mounted at, for example /admin. */
  base: string;
  /** Set on pages for a signed-in admin. */
  session?: { email: string; workspaceName: string; csrfToken: string };
}

export function layout(page: PageContext, title: string, body: Html): Html {
  const { base, session } = page;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Folio admin</title>
<link rel="icon" href="${base}/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${base}/assets/admin.css">
<script src="${base}/assets/admin.js" defer></script>
</head>
<body>
<header class="topbar">
  <a class="brand" href="${base}/webhooks">Folio <span>admin</span></a>
  ${
    session
      ? html`<nav aria-label="Main"><a href="${base}/webhooks">Webhooks</a></nav>
  <div class="who">
    <span class="workspace" title="Workspace">${session.workspaceName}</span>
    <span class="email">${session.email}</span>
    <form method="post" action="${base}/sign-out">
      <input type="hidden" name="_csrf" value="${session.csrfToken}">
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

/** A form that POSTs one action with the session's CSRF token (pause, resume, rotate, …). */
export function actionForm(
  page: PageContext,
  action: string,
  label: string,
  options: { style?: 'primary' | 'danger' | 'plain'; confirm?: string; name?: string } = {},
): Html {
  return html`<form method="post" action="${action}" class="inline"${options.confirm ? html` data-confirm="${options.confirm}"` : ''}>
  <input type="hidden" name="_csrf" value="${page.session?.csrfToken ?? ''}">
  <button type="submit" class="button ${options.style ?? 'plain'}"${options.name ? html` name="${options.name}"` : ''}>${label}</button>
</form>`;
}

export const formatTime = (date: Date | null) =>
  date
    ? html`<time datetime="${date.toISOString()}">${date.toISOString().replace('T', ' ').slice(0, 19)} UTC</time>`
    : html`<span class="muted">—</span>`;
