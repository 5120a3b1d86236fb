// The admin app (docs/admin-app.md): server-rendered pages for workspace admins at FOLIO_ADMIN_URL, mounted by the
// API process. Everything under its path gets the security headers; everything but sign-in needs a session.
import { readFileSync } from 'node:fs';
import { bodyParser } from '@koa/bodyparser';
import compose from 'koa-compose';
import type { Middleware } from 'koa';
import { declareSecretSegment } from '../../platform/secret-paths.js';
import {
  basePath,
  checkCsrf,
  loadSession,
  pageContext,
  requireSession,
  securityHeaders,
  type AdminAppSettings,
} from './session.js';
import { signInRouter } from './routes/sign-in.js';
import { webhookPagesRouter } from './routes/webhooks.js';
import { forbiddenPage } from './views/sign-in.js';

const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'admin.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(new URL('./assets/admin.css', import.meta.url)),
  },
  'admin.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('./assets/admin.js', import.meta.url)),
  },
  'favicon.svg': {
    type: 'image/svg+xml',
    body: readFileSync(new URL('./assets/favicon.svg', import.meta.url)),
  },
};

const assets: Middleware = async (ctx, next) => {
  const name = ctx.path.split('/').pop()!;
  const asset = ctx.method === 'GET' && ctx.path.endsWith(`/assets/${name}`) ? ASSETS[name] : undefined;
  if (!asset) return next();
  ctx.type = asset.type;
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.body = asset.body;
};

/** The middleware that answers every request under the admin path, and passes anything else on. */
export function adminApp(settings: AdminAppSettings): Middleware {
  const base = basePath(settings);
  // A sign-in link (<admin url>/sign-in/<token>) signs its holder in: logs show <token> (platform/secret-paths.ts).
  declareSecretSegment(`${base}/sign-in`, '<token>');
  const signIn = signInRouter(settings);
  const pages = webhookPagesRouter(settings);
  const app = compose<Parameters<Middleware>[0]>([
    securityHeaders(settings),
    assets,
    bodyParser({ enableTypes: ['form'], formLimit: '64kb', encoding: 'utf-8' }),
    loadSession(settings),
    checkCsrf(settings),
    signIn.routes() as Middleware,
    requireSession(settings),
    pages.routes() as Middleware,
    (ctx) => {
      ctx.status = 404;
      ctx.body = forbiddenPage(pageContext(ctx, settings)).text;
    },
  ]);
  return async (ctx, next) => {
    if (ctx.path !== base && !ctx.path.startsWith(`${base}/`)) return next();
    // Routers below see paths relative to the app, whatever path it is mounted at.
    const fullPath = ctx.path;
    ctx.path = fullPath.slice(base.length) || '/';
    try {
      await app(ctx, async () => undefined);
    } finally {
      ctx.path = fullPath;
    }
  };
}
