// The API describes itself: /openapi.json is openapi/folio.yaml, and /docs/api renders every operation of it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { call } from '../../support/api.js';
import { OPENAPI_PATH } from '../../support/openapi-check.js';

const document = parse(readFileSync(OPENAPI_PATH, 'utf8'));
const operationIds = Object.values<Record<string, { operationId?: string }>>(document.paths).flatMap((item) =>
  Object.values(item).flatMap((operation) => (operation?.operationId ? [operation.operationId] : [])),
);

describe('the API reference', () => {
  it('serves the OpenAPI document at /openapi.json, without a credential, equal to openapi/folio.yaml', async () => {
    const response = await call('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual(document);
    expect(response.body.openapi).toMatch(/^3\.1\./);
  });

  it('renders /docs/api from it: every operation by its id, its error codes and decisions, escaped, with no script', async () => {
    const response = await call('GET', '/docs/api');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; /,
    );
    const page: string = response.body;
    expect(operationIds.length).toBeGreaterThan(60);
    for (const id of operationIds) expect(page).toContain(`id="${id}"`);
    for (const tag of document.tags) expect(page).toContain(`id="tag-${tag.name}"`);
    expect(page).toContain('<code>sync_token_invalid</code>');
    expect(page).toContain(
      'Decision: Response body (spec: &quot;not shown&quot;): 200 with the drive_file as it stands',
    );
    expect(page).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/i);
  });
});
