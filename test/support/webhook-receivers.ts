// Real HTTPS webhook receivers on 127.0.0.x:443 (certificates from test/support/test-ca.ts), and traps: listeners on
// addresses the service must never reach, which count every connection made to them.
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach } from 'vitest';
import { readTestCertificates } from './test-ca.js';

interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body exactly as it arrived, the bytes a receiver must verify. */
  raw: Buffer;
  at: number;
  /** The SNI name the client sent (false when it sent none). */
  servername: string | false;
}

/**
 * What the receiver answers a request: status, optional headers, and a delay (or a gate to wait for) before the answer.
 * `holdBody` sends the status, the headers and a first byte of the body at once, and the rest only when it resolves.
 */
type Reply = {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  hold?: Promise<void>;
  holdBody?: Promise<void>;
  /** The answer's body; "ok" when absent. */
  body?: string | Buffer;
};

export interface Receiver {
  host: string;
  url(path?: string): string;
  requests: ReceivedRequest[];
  /** TLS connections made to it so far (a kept connection carries several requests). */
  connections: number;
  /** Sets how the next requests are answered (by the 1-based index of the request). */
  answer(reply: (index: number, request: ReceivedRequest) => Reply): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface ReceiverOptions {
  /** Serve the self-signed certificate nobody trusts. */
  rogue?: boolean;
  /** Serve this certificate and key instead of the suite's leaf. */
  certificate?: { cert: Buffer; key: Buffer };
  /**
   * Close a connection that has served a request when the next request arrives on it, unanswered and unrecorded: what
   * a server closing an idle connection does when a request crosses its close.
   */
  closeKeptConnections?: boolean;
}

/** An HTTPS receiver on host:443 with the suite's leaf certificate (or a self-signed one nobody trusts). */
export async function startReceiver(host: string, options: ReceiverOptions = {}): Promise<Receiver> {
  const certificates = readTestCertificates();
  const requests: ReceivedRequest[] = [];
  let reply: (index: number, request: ReceivedRequest) => Reply = () => ({ status: 200 });
  const served = new WeakSet<object>();
  const tls =
    options.certificate ??
    (options.rogue
      ? { key: certificates.rogueKey, cert: certificates.rogueCert }
      : { key: certificates.key, cert: certificates.cert });
  const server: Server = createHttpsServer(
    // Idle connections stay open far longer than any test takes (Node's 5 s default would close them on a slow
    // machine), so whether the worker keeps one is the worker's choice alone.
    { ...tls, keepAliveTimeout: 600_000 },
    (req, res) => {
      if (options.closeKeptConnections && served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      const pieces: Buffer[] = [];
      req.on('data', (piece: Buffer) => pieces.push(piece));
      req.on('end', () => {
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([key, value]) => [key, String(value)]),
          ),
          raw: Buffer.concat(pieces),
          at: Date.now(),
          servername: (req.socket as TLSSocket).servername ?? false,
        };
        requests.push(request);
        const { status, delayMs, headers, hold, holdBody, body } = reply(requests.length, request);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'text/plain', ...headers });
          if (!holdBody) return void res.end(body ?? 'ok');
          res.write('o');
          void holdBody.then(() => !res.destroyed && res.end('k'));
        };
        if (hold) void hold.then(send);
        else if (delayMs) setTimeout(send, delayMs).unref();
        else send();
      });
    },
  );
  let connections = 0;
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(443, host, () => resolve());
  });
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    url: (path = '/hooks') => `https://${hostInUrl}${path}`,
    requests,
    get connections() {
      return connections;
    },
    answer(next) {
      reply = next;
    },
    waitFor: (count, timeoutMs) =>
      until(`${count} requests at ${host}`, () => requests.length >= count && requests, timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A test file's receivers: each one started through it is closed after the test that started it. */
export function receiverPool(): (host: string, options?: ReceiverOptions) => Promise<Receiver> {
  const opened: Receiver[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });
  return async (host, options) => {
    const started = await startReceiver(host, options);
    opened.push(started);
    return started;
  };
}

export interface Trap {
  host: string;
  connections: number;
  close(): Promise<void>;
}

/** A plain TCP listener on host:443 that only counts connections: each one is a packet the service should not send. */
export async function startTrap(host: string): Promise<Trap> {
  const trap: Trap = { host, connections: 0, close: async () => undefined };
  const server: TcpServer = createTcpServer((socket) => {
    trap.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(443, host, () => resolve());
  });
  trap.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return trap;
}
