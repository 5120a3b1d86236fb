// The HTTP server bounds how long a client may take: a slow-loris client trickling its headers is cut off at
// FOLIO_HTTP_HEADERS_TIMEOUT (15 s in the suite), and everyone else is served meanwhile.
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { apiUrl, call } from '../../support/api.js';

/** Trickles one header line every 250 ms until the server ends the connection or `giveUpMs` passes. */
function trickleHeaders(giveUpMs: number): Promise<{ closedByServer: boolean; received: string }> {
  const { hostname, port, protocol } = new URL(apiUrl());
  return new Promise((resolve) => {
    // Over HTTPS (FOLIO_TEST_TLS) the same trickle inside TLS, as HTTP/1.1; the test process trusts the suite's CA.
    const socket: Socket =
      protocol === 'https:'
        ? tlsConnect({ host: hostname, port: Number(port), ALPNProtocols: ['http/1.1'] })
        : connect(Number(port), hostname);
    let received = '';
    let lines = 0;
    const timer = setInterval(() => socket.write(`X-Slow-${lines++}: 1\r\n`), 250);
    // A deadline against a server that never cuts the client off (it fails the test), far past the timeout tested.
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    function finish(closedByServer: boolean) {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedByServer, received });
    }
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write('GET /healthz HTTP/1.1\r\nHost: folio.test\r\n');
  });
}

describe('HTTP timeouts', () => {
  it(
    'ends a connection whose headers never finish, without answering the request, and keeps serving others',
    { timeout: 180_000 },
    async () => {
      const slow = trickleHeaders(120_000);
      const others = await call('GET', '/healthz');
      expect(others.status).toBe(200);
      const outcome = await slow;
      expect(outcome.closedByServer).toBe(true);
      expect(outcome.received).not.toMatch(/^HTTP\/1\.1 200/);
    },
  );
});
