// X-Forwarded-Proto/For from a reverse proxy (FOLIO_TRUST_PROXY, docs/operations.md § HTTPS and proxies): ignored by
// default, since any client can send them; honoured from the trusted hops, the client address being the one the
// outermost trusted proxy saw, never what the client wrote first. Two plain-HTTP API processes of the test's own.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExtraApi, type ExtraApi } from '../../support/extra-api.js';

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.66, 203.0.113.9' };
// Plain HTTP, so HSTS can come only from a believed X-Forwarded-Proto.
const PLAIN = { FOLIO_TLS_CERT: '', FOLIO_TLS_KEY: '' };

let untrusting: ExtraApi;
let trusting: ExtraApi;

beforeAll(async () => {
  [untrusting, trusting] = await Promise.all([
    startExtraApi('api-untrusting', { ...PLAIN }),
    startExtraApi('api-trusting', { ...PLAIN, FOLIO_TRUST_PROXY: '1' }),
  ]);
});

afterAll(async () => {
  await Promise.all([untrusting?.stop(), trusting?.stop()]);
});

/** The access-log line of the request with this id, once the process has written it. */
async function accessLogLine(logFile: string, requestId: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text))
      .find((entry) => entry.request_id === requestId && entry.msg === 'request');
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no access log line for ${requestId} in ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // A poll interval, not an assertion.
  }
}

async function sendForwarded(api: ExtraApi) {
  const requestId = randomUUID();
  const response = await fetch(`${api.url}/healthz`, {
    headers: { ...FORWARDED, 'x-request-id': requestId },
  });
  expect(response.status).toBe(200);
  return {
    hsts: response.headers.get('strict-transport-security'),
    logged: await accessLogLine(api.logFile, requestId),
  };
}

describe('forwarded headers', () => {
  it('are ignored unless the proxy is trusted: plain HTTP gets no HSTS, the logged address is the peer', async () => {
    const { hsts, logged } = await sendForwarded(untrusting);
    expect(hsts).toBeNull();
    expect(logged.client_address).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it('are honoured from a trusted proxy: https answers carry HSTS, the logged address is the one the proxy saw', async () => {
    const { hsts, logged } = await sendForwarded(trusting);
    expect(hsts).toBe('max-age=31536000');
    // One trusted hop: the last address of X-Forwarded-For; the first one is whatever the client claimed.
    expect(logged.client_address).toBe('203.0.113.9');
  });
});
