// The API's own description: GET /openapi.json (openapi/folio.yaml, parsed once at start) and GET /docs/api, the HTML
// reference page rendered from it. Public, like the health routes; docs/api-reference.md.
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import { parse } from 'yaml';
import { API_REFERENCE_CSP, renderApiReference } from '../presenters/api-reference.js';

/** openapi/folio.yaml beside the source tree (and beside dist/ in a build: npm run build copies it). */
const DOCUMENT_URL = new URL('../../openapi/folio.yaml', import.meta.url);

const document = parse(readFileSync(DOCUMENT_URL, 'utf8')) as Record<string, unknown>;
const documentJson = JSON.stringify(document);
const referencePage = renderApiReference(document);

export const apiReferenceRouter = new Router({ sensitive: true });

apiReferenceRouter.get('/openapi.json', (ctx) => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = documentJson;
});

apiReferenceRouter.get('/docs/api', (ctx) => {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set({
    'Content-Security-Policy': API_REFERENCE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
  ctx.body = referencePage;
});
