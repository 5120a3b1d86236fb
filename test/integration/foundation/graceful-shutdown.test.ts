// SIGTERM to an API process (docs/operations.md § Two of each): readiness fails first while it still serves, then new
// connections are refused, the request in flight is answered, and the process exits within its bound. Each test runs an
// API process of its own, so the suite's APIs keep serving.
import { readFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../support/api.js';
import { rememberBearerToken } from '../../support/log-scan.js';
import { startExtraApi, type ExtraApi } from '../../support/extra-api.js';

// Plain HTTP whichever way the suite runs (FOLIO_TEST_TLS): draining is the same on both; https.test.ts covers TLS.
const PLAIN = { FOLIO_TLS_CERT: '', FOLIO_TLS_KEY: '' };

let api: ExtraApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

interface HeldRequest {
  request: ClientRequest;
  /** Resolves once the server has the request in hand: it answered `Expect: 100-continue`. */
  inServer: Promise<void>;
  answer: Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>;
}

/** A folder create whose body the test sends only when it chooses: the request stays in flight until then. */
function heldFolderCreate(baseUrl: string, token: string, body: string): HeldRequest {
  rememberBearerToken(token);
  const held = request(`${baseUrl}/v1/drive/folders`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const inServer = new Promise<void>((resolve) => held.once('continue', () => resolve()));
  const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>(
    (resolve, reject) => {
      held.once('error', reject);
      held.once('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: text }),
        );
        response.on('error', reject);
      });
    },
  );
  held.flushHeaders();
  return { request: held, inServer, answer };
}

/** GET on a fresh connection: the status and body, or the connection error's code (ECONNREFUSED). */
function probe(url: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const get = request(url, { agent: false });
    get.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? String(error) }));
    get.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: text }));
    });
    get.end();
  });
}

/** The messages of the process's lifecycle log lines, in the order it wrote them. */
const lifecycle = (logFile: string): string[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text))
    .filter((entry) => entry.category === 'lifecycle')
    .map((entry) => entry.msg);

const GRACE_OVER = 'shutdown grace over; connections still open were closed';

/** Probes until `done` holds for an answer; fails after timeoutMs with the last one. */
async function probeUntil(
  url: string,
  done: (answer: Awaited<ReturnType<typeof probe>>) => boolean,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  let last = await probe(url);
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`${url}: still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50)); // A poll interval, not an assertion.
    last = await probe(url);
  }
  return last;
}

describe('graceful shutdown of the API', () => {
  it(
    'fails /readyz first, then refuses new connections, answers the request in flight, and exits 0',
    { timeout: 240_000 },
    async () => {
      // The ready delay is the window in which readiness is seen failing; long enough that a busy machine still sees it.
      api = await startExtraApi('api-shutdown', {
        ...PLAIN,
        FOLIO_SHUTDOWN_READY_DELAY: '10s',
        FOLIO_SHUTDOWN_GRACE: '120s',
      });
      const user = await makeUser();
      const body = JSON.stringify({ name: 'finished while draining', parent_uuid: null });
      const held = heldFolderCreate(api.url, user.token, body);
      await held.inServer;

      api.child.kill('SIGTERM');
      const draining = await probeUntil(`${api.url}/readyz`, (answer) => answer.status === 503);
      expect(JSON.parse(draining.body!)).toEqual({ status: 'draining' });
      // Not ready, yet still serving during the ready delay; the held request is still waiting for its body.
      expect((await probe(`${api.url}/healthz`)).status).toBe(200);
      await probeUntil(`${api.url}/healthz`, (answer) => answer.error === 'ECONNREFUSED');

      held.request.end(body);
      const answer = await held.answer;
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toMatchObject({ name: 'finished while draining' });
      expect(answer.headers.connection).toBe('close');

      expect(await api.exited).toBe(0);
      // Ended by its last request, not by the grace running out: no connection was left for the grace to close.
      const lines = lifecycle(api.logFile);
      expect(lines).toContain('api stopping');
      expect(lines).not.toContain(GRACE_OVER);
    },
  );

  it('closes a request still in flight when the grace is over, and exits', { timeout: 240_000 }, async () => {
    api = await startExtraApi('api-shutdown-grace', { ...PLAIN, FOLIO_SHUTDOWN_GRACE: '2s' });
    const user = await makeUser();
    const held = heldFolderCreate(
      api.url,
      user.token,
      JSON.stringify({ name: 'never finished', parent_uuid: null }),
    );
    await held.inServer;

    const signalled = Date.now();
    api.child.kill('SIGTERM');
    await expect(held.answer).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await api.exited).toBe(0);
    // The grace was waited in full (a timer never fires early), and it is what ended the request.
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(2_000);
    const lines = lifecycle(api.logFile);
    expect(lines.indexOf(GRACE_OVER)).toBeGreaterThan(lines.indexOf('api stopping'));
    expect(lines.indexOf('api stopping')).toBeGreaterThanOrEqual(0);
  });
});
