// The document editor app (docs/editor.md) at FOLIO_DOCS_URL: a document's `url` (<docs url>/<uuid>) opens here.
// It answers only its own paths under the docs path — sign-in, sign-out, its assets and /<uuid> — and passes every
// other request on (/docs itself and /docs/api are the API reference's). Sign-in works as the admin app's does, for
// any user; an account without early access sees the preview page; the document's own role decides the rest.
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import compose from 'koa-compose';
import type { Context, Middleware } from 'koa';
import {
  endEditorSession,
  peekEditorSignInLink,
  redeemEditorSignInLink,
} from '../../domain/accounts/editor-sessions.js';
import { readContent } from '../../domain/documents/content.js';
import { findVisibleDocument } from '../../domain/documents/documents.js';
import { markdownToHtml } from '../../domain/document-engine/html.js';
import { AppError } from '../../domain/errors.js';
import { isUuid } from '../../domain/uuid.js';
import { declareSecretSegment } from '../../platform/secret-paths.js';
import { securityHeaders } from '../middleware/browser-app.js';
import { editorAssets } from './assets.js';
import { callerFor, documentApiRouter, type EditorWriteOptions } from './document-api.js';
import {
  basePath,
  checkCsrf,
  clearSessionCookie,
  loadSession,
  setSessionCookie,
  type EditorAppOptions,
} from './session.js';
import {
  confirmSignInPage,
  documentNotFoundPage,
  documentPage,
  linkUnusablePage,
  previewPage,
  signedInPage,
  signInPage,
  type PageContext,
} from './views.js';

const UUID_PATH = /^\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\/.*)?$/i;
/** The paths the app answers (relative to its base); anything else under the docs path belongs to someone else. */
const ownsPath = (path: string) =>
  UUID_PATH.test(path) ||
  path === '/sign-in' ||
  path.startsWith('/sign-in/') ||
  path === '/sign-out' ||
  path === '/signed-in' ||
  path.startsWith('/assets/');

/** A document uuid given as `next`, or undefined: redirects after sign-in only ever go to a document of the app. */
const nextDocument = (value: unknown) =>
  typeof value === 'string' && isUuid(value) ? value.toLowerCase() : undefined;

function pageContext(ctx: Context, options: EditorAppOptions): PageContext {
  const session = ctx.state.editorSession;
  return {
    base: basePath(options),
    session: session && { email: session.email, csrfToken: session.csrfToken },
  };
}

function signInRouter(options: EditorAppOptions): Router {
  const router = new Router({ sensitive: true });
  const base = basePath(options);

  router.get('/sign-in', (ctx) => {
    ctx.body = signInPage(pageContext(ctx, options), { signedOut: ctx.query.signed_out === '1' }).text;
  });

  // Opening a link only asks to continue: mail scanners and link previews fetch GETs, and must not use it up.
  router.get('/sign-in/:token', async (ctx) => {
    const link = await peekEditorSignInLink(options.db, ctx.params.token!);
    ctx.set('Cache-Control', 'no-store');
    if (!link) {
      ctx.status = 410;
      ctx.body = linkUnusablePage(pageContext(ctx, options)).text;
      return;
    }
    const next = nextDocument(ctx.query.next);
    ctx.body = confirmSignInPage(pageContext(ctx, options), {
      token: ctx.params.token!,
      email: link.email,
      next,
    }).text;
  });

  router.post('/sign-in/:token', async (ctx) => {
    const sessionToken = await redeemEditorSignInLink(options.db, ctx.params.token!, options.limits);
    if (!sessionToken) {
      ctx.status = 410;
      ctx.body = linkUnusablePage(pageContext(ctx, options)).text;
      return;
    }
    setSessionCookie(ctx, options, sessionToken);
    const next = nextDocument((ctx.request.body as Record<string, unknown> | undefined)?.next);
    ctx.status = 303;
    ctx.redirect(next ? `${base}/${next}` : `${base}/signed-in`);
  });

  router.get('/signed-in', (ctx) => {
    if (!ctx.state.editorSession) return ctx.redirect(`${base}/sign-in`);
    ctx.body = signedInPage(pageContext(ctx, options)).text;
  });

  router.post('/sign-out', async (ctx) => {
    const session = ctx.state.editorSession;
    if (session) await endEditorSession(options.db, session.uuid);
    clearSessionCookie(ctx, options);
    ctx.status = 303;
    ctx.redirect(`${base}/sign-in?signed_out=1`);
  });

  return router;
}

function documentRouter(options: EditorAppOptions): Router {
  const router = new Router({ sensitive: true });
  const base = basePath(options);

  router.get('/:uuid', async (ctx) => {
    const session = ctx.state.editorSession;
    const uuid = ctx.params.uuid!.toLowerCase();
    ctx.set('Cache-Control', 'no-store');
    if (!session) {
      ctx.status = 303;
      ctx.redirect(`${base}/sign-in?next=${uuid}`);
      return;
    }
    const page = pageContext(ctx, options);
    if (!session.earlyAccess) {
      ctx.status = 403;
      ctx.body = previewPage(page).text;
      return;
    }
    const caller = await callerFor(options, session.userUuid, uuid);
    try {
      if (!caller) throw new AppError(404, 'not_found', 'No such document.');
      const document = await findVisibleDocument(options.db, options.documents, caller, uuid);
      const content = await readContent(options.db, options.documents, caller, uuid);
      ctx.body = documentPage(page, {
        uuid,
        title: document.title,
        revision: content.revision,
        role: document.my_role,
        // The export's renderer: no raw HTML passes, CriticMarkup shows as <ins>, <del> and <mark>.
        body: markdownToHtml(content.markdown, {
          attachmentUrl: (attachment) => `/v1/documents/${uuid}/attachments/${attachment}/download`,
        }),
        threads: content.threads,
      }).text;
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 404) throw error;
      ctx.status = 404;
      ctx.body = documentNotFoundPage(page).text;
    }
  });

  return router;
}

/** The middleware that answers the editor app's requests under the docs path, and passes anything else on. */
export function editorApp(options: EditorAppOptions & EditorWriteOptions): Middleware {
  const base = basePath(options);
  // A sign-in link (<docs url>/sign-in/<token>) signs its holder in: logs show <token> (platform/secret-paths.ts).
  declareSecretSegment(`${base}/sign-in`, '<token>');
  const app = compose<Parameters<Middleware>[0]>([
    securityHeaders(options),
    // The script and stylesheet, held by this app (a second app in the process reads or builds its own).
    editorAssets(),
    bodyParser({ enableTypes: ['form', 'json'], formLimit: '64kb', jsonLimit: '1mb', encoding: 'utf-8' }),
    loadSession(options),
    checkCsrf(options),
    signInRouter(options).routes() as Middleware,
    documentRouter(options).routes() as Middleware,
    documentApiRouter(options).routes() as Middleware,
    (ctx) => {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found.';
    },
  ]);
  return async (ctx, next) => {
    if (!ctx.path.startsWith(`${base}/`) || !ownsPath(ctx.path.slice(base.length))) return next();
    // Routers below see paths relative to the app, whatever path it is mounted at.
    const fullPath = ctx.path;
    ctx.path = fullPath.slice(base.length);
    try {
      await app(ctx, async () => undefined);
    } finally {
      ctx.path = fullPath;
    }
  };
}
