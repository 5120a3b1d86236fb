// The API describes itself: /openapi.json is openapi/folio.yaml with servers naming FOLIO_PUBLIC_URL, /docs/api is
// the reference page Redoc renders from it, with Redoc's bundle served by the API from the redoc package (nothing
// from another origin), and /docs leads there. docs/api-reference.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { config } from '../../../platform/config.js';
import { call } from '../../support/api.js';
import { startInProcessApp } from '../../support/api-app.js';
import { OPENAPI_PATH, checkApiResponse } from '../../support/openapi-check.js';

const document = parse(readFileSync(OPENAPI_PATH, 'utf8'));
const BUNDLE = '/docs/api/redoc.standalone.js';
const packageBundle = readFileSync(
  createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'),
  'utf8',
);
const CHROMIUM = process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium';
/** What would make a page load a script or a style from elsewhere. */
const EXTERNAL_SOURCE = [
  /<script[^>]*\ssrc\s*=\s*["']?(https?:)?\/\//i,
  /<link[^>]*\shref\s*=\s*["']?(https?:)?\/\//i,
  /@import\s+(url\()?\s*["']?(https?:)?\/\//i,
  /importScripts\(\s*["'](https?:)?\/\//,
  /\bsrc\s*:\s*["']https?:\/\//,
];

let stopOther = async () => {};
afterAll(async () => stopOther());

/** A request that does not follow redirects, held to the document like every answer of the suite. */
async function getManual(path: string) {
  const response = await fetch(process.env.FOLIO_API_URL + path, { redirect: 'manual' });
  checkApiResponse({ method: 'GET', path, status: response.status, headers: response.headers });
  return response;
}

describe('the API reference', () => {
  it('serves the OpenAPI document at /openapi.json, without a credential: openapi/folio.yaml, servers naming FOLIO_PUBLIC_URL', async () => {
    const response = await call('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const { servers, ...rest } = response.body;
    const { servers: written, ...expected } = document;
    expect(rest).toEqual(expected);
    expect(written).not.toEqual(servers);
    expect(servers).toEqual([{ url: config().publicUrl, description: 'This deployment (FOLIO_PUBLIC_URL)' }]);
    expect(response.body.openapi).toMatch(/^3\.1\./);
  });

  it('names whatever FOLIO_PUBLIC_URL says in servers (another app, set to a public address)', async () => {
    const app = await startInProcessApp({ FOLIO_PUBLIC_URL: 'https://folio.example.test' });
    stopOther = () => app.stop();
    const response = await call('GET', '/openapi.json', { api: app.url });
    expect(response.body.servers).toEqual([
      { url: 'https://folio.example.test', description: 'This deployment (FOLIO_PUBLIC_URL)' },
    ]);
  });

  it('serves /docs/api: a page for Redoc with a same-origin script, data and CSP, and no external source', async () => {
    const response = await call('GET', '/docs/api');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; script-src 'self'; /);
    expect(csp).not.toMatch(/https?:|\*/);
    const page: string = response.body;
    expect(page).toContain(`<script src="${BUNDLE}"></script>`);
    expect(page).toContain('<redoc spec-url="/openapi.json"');
    for (const pattern of EXTERNAL_SOURCE) expect(page).not.toMatch(pattern);
  });

  it("serves Redoc's standalone bundle from the redoc package, without its one external address", async () => {
    const response = await call('GET', BUNDLE);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const bundle: string = response.body;
    expect(bundle.length).toBeGreaterThan(500_000);
    expect(bundle).toBe(packageBundle.replace('https://cdn.redoc.ly/redoc/logo-mini.svg', ''));
    expect(bundle).not.toContain('cdn.redoc.ly');
    for (const pattern of EXTERNAL_SOURCE) expect(bundle).not.toMatch(pattern);
  });

  it('redirects /docs (and /docs/) to /docs/api, and leaves the rest of /docs/ alone', async () => {
    for (const path of ['/docs', '/docs/']) {
      const response = await getManual(path);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/docs/api');
    }
    expect((await fetch(`${process.env.FOLIO_API_URL}/docs/apis`, { redirect: 'manual' })).status).not.toBe(
      302,
    );
  });

  it(
    'renders in a browser with a sidebar, search and examples, loading nothing from another origin',
    { timeout: 120_000 },
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-dev-shm-usage'],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        const problems: string[] = [];
        const requested: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('request', (request) => requested.push(request.url()));
        await page.goto(`${process.env.FOLIO_API_URL}/docs`);
        expect(new URL(page.url()).pathname).toBe('/docs/api');
        await expect
          .poll(() => page.locator('h1').first().textContent(), { timeout: 60_000 })
          .toBe(`Folio API (${document.info.version})`);
        // The sidebar lists every tag; searching finds operations by their summary.
        const sidebar = page.locator('.menu-content');
        for (const tag of document.tags)
          await expect.poll(() => sidebar.getByText(tag.name, { exact: true }).count()).toBeGreaterThan(0);
        await page.getByPlaceholder('Search...').fill('chunked upload');
        const results = page.locator('[data-role="search:results"] li');
        await expect.poll(() => results.count(), { timeout: 30_000 }).toBeGreaterThan(0);
        expect(await results.first().textContent()).toMatch(/upload/i);
        // An operation shows its request and response samples.
        await page.goto(`${process.env.FOLIO_API_URL}/docs/api#tag/drive-files/operation/uploadFile`);
        await expect
          .poll(() => page.getByText('Request samples').count(), { timeout: 30_000 })
          .toBeGreaterThan(0);
        expect(await page.getByText('Response samples').count()).toBeGreaterThan(0);

        const origin = new URL(process.env.FOLIO_API_URL!).origin;
        const elsewhere = requested.filter(
          (url) => !url.startsWith(`${origin}/`) && !url.startsWith(`blob:${origin}/`),
        );
        expect(elsewhere).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
