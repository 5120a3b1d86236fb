// The API's own description: GET /openapi.json (openapi/folio.yaml, parsed once at start, with servers naming this
// deployment's FOLIO_PUBLIC_URL), GET /docs/api (the reference page, rendered in the browser by Redoc's standalone
// bundle, which GET /docs/api/redoc.standalone.js serves from the redoc package) and GET /docs, a redirect to it.
// Public, like the health routes; docs/api-reference.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Router from '@koa/router';
import { parse } from 'yaml';
import {
  API_REFERENCE_CSP,
  API_REFERENCE_PAGE,
  REDOC_BUNDLE_PATH,
  REDOC_CDN_LOGO,
} from '../presenters/api-reference.js';
import type { ApiServices } from '../services.js';

/** openapi/folio.yaml beside the source tree (and beside dist/ in a build: npm run build copies it). */
const DOCUMENT_URL = new URL('../../openapi/folio.yaml', import.meta.url);

const document = parse(readFileSync(DOCUMENT_URL, 'utf8')) as Record<string, unknown>;
/**
 * The bundle as the installed redoc package ships it (a dependency, so present in production too), less the one
 * thing it would load from elsewhere: the logo of its sidebar's "API docs by Redocly" link, on Redocly's CDN. Without
 * the address the image never loads and Redoc hides it; the CSP would block it anyway, with an error in the console.
 */
const redocBundle = readFileSync(
  createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'),
  'utf8',
).replace(REDOC_CDN_LOGO, '');

/** The reference routes; the served document's servers name this app's public URL (settings.publicUrl). */
export function apiReferenceRouter(services: Pick<ApiServices, 'settings'>): Router {
  const documentJson = JSON.stringify({
    ...document,
    servers: [{ url: services.settings.publicUrl, description: 'This deployment (FOLIO_PUBLIC_URL)' }],
  });
  const router = new Router({ sensitive: true });

  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = documentJson;
  });

  // Only /docs itself (and /docs/): the paths below it belong to other pages.
  router.get('/docs', (ctx) => {
    ctx.status = 302;
    ctx.redirect('/docs/api');
  });

  router.get('/docs/api', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set({
      'Content-Security-Policy': API_REFERENCE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    });
    ctx.body = API_REFERENCE_PAGE;
  });

  router.get(REDOC_BUNDLE_PATH, (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' });
    ctx.body = redocBundle;
  });
  return router;
}
