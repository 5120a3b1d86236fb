// The POST of one delivery attempt: HTTPS to the address that was judged (dialled as an address, never a second DNS
// query), SNI and certificate checked against the URL's hostname, no redirect followed, and the whole exchange
// (connect, TLS, headers and body both ways) bounded by one timeout. A connection to the same judged address and name
// is kept a few seconds for the next attempt, while its certificate is still valid (docs/webhooks.md § Connections).
import type { ClientRequest, IncomingMessage } from 'node:http';
import { Agent, request, type RequestOptions } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { createSecureContext, type ConnectionOptions, type SecureContext, type TLSSocket } from 'node:tls';

export interface PinnedTarget {
  url: URL;
  hostname: string;
  address: string;
  family: 4 | 6;
}

export interface PostResult {
  /** The receiver's status, when it answered in full within the timeout. */
  statusCode: number | null;
  /** Why there is no status (or why the exchange broke after it): timeout, tls_error, connection_refused, … */
  errorClass: string | null;
  responseTimeMs: number;
}

/** A lookup that answers the judged address whatever it is asked, in the shape net.connect asks for. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

let trustStore: SecureContext | undefined;

/**
 * The trust settings every POST connects with (the system store plus NODE_EXTRA_CA_CERTS), built once: without it
 * each connection builds its own, which was a tenth of an attempt's TLS work. It holds no session, so every new
 * connection makes a full handshake and checks the certificate.
 */
const sharedTrustStore = () => (trustStore ??= createSecureContext());

/**
 * Connections kept between attempts. Node names each pool by host, port and servername; the host is the judged
 * address, so a name that now resolves elsewhere gets a new connection to the new judged address. No TLS session is
 * cached: a new connection never resumes one, it makes a full handshake and checks the certificate. A connection is
 * kept only while its certificate stays valid for longer than it may sit idle, so no attempt goes over a connection
 * whose certificate has expired. An idle connection closes after `keepIdleMs`, or sooner if the receiver's
 * Keep-Alive header says so.
 */
class DeliveryConnections extends Agent {
  readonly #certificateExpiry = new WeakMap<Duplex, number>();

  constructor(readonly keepIdleMs: number) {
    super({
      keepAlive: true,
      timeout: keepIdleMs,
      maxFreeSockets: 16,
      maxCachedSessions: 0,
      scheduling: 'lifo',
    });
  }

  override createConnection(...args: Parameters<Agent['createConnection']>): Socket {
    const socket = super.createConnection(...args) as TLSSocket;
    socket.once('secureConnect', () =>
      this.#certificateExpiry.set(socket, Date.parse(socket.getPeerX509Certificate()?.validTo ?? '')),
    );
    return socket;
  }

  override keepSocketAlive(socket: Duplex): boolean {
    // NaN (no certificate read) compares false: not kept.
    if (!((this.#certificateExpiry.get(socket) ?? NaN) > Date.now() + this.keepIdleMs)) return false;
    return (super.keepSocketAlive as (socket: Duplex) => boolean)(socket);
  }
}

const connectionPools = new Map<number, DeliveryConnections>();

/** The pool for this keep-alive setting (FOLIO_WEBHOOK_KEEP_ALIVE); 0 keeps nothing: a new connection per attempt. */
function deliveryConnections(keepIdleMs: number): DeliveryConnections | false {
  if (keepIdleMs <= 0) return false;
  if (!connectionPools.has(keepIdleMs)) connectionPools.set(keepIdleMs, new DeliveryConnections(keepIdleMs));
  return connectionPools.get(keepIdleMs)!;
}

/** The request options of a pinned POST; exported so a test can check them without dialling anything. */
export function pinnedRequestOptions(
  target: PinnedTarget,
  headers: Record<string, string>,
  keepIdleMs = 0,
): RequestOptions & Pick<ConnectionOptions, 'secureContext'> {
  const literal = isIP(target.hostname) !== 0;
  return {
    method: 'POST',
    // The judged address is dialled as it is: net.connect makes no lookup for an address. The lookup is there in case
    // it ever did, and answers the same address.
    host: target.address,
    family: target.family,
    lookup: pinnedLookup(target.address, target.family),
    port: 443,
    path: `${target.url.pathname}${target.url.search}`,
    headers: { ...headers, host: target.url.host },
    // SNI carries names only; the certificate is checked against the name (servername), or the literal address (host).
    servername: literal ? undefined : target.hostname,
    agent: deliveryConnections(keepIdleMs),
    secureContext: sharedTrustStore(),
    rejectUnauthorized: true,
  };
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_TLS_CERT)/;

export function errorClassOf(error: unknown): string {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (code === 'ETIMEDOUT' || code === 'WEBHOOK_TIMEOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE')
    return 'connection_reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return 'unreachable';
  if (TLS_CODES.test(code) || /certificate|tls|ssl/i.test((error as Error | null)?.message ?? ''))
    return 'tls_error';
  return 'network_error';
}

/** Bytes of a response body read before the rest is drained unread; receivers are told to answer small. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Sends the request; https.request, except in a unit test that hands in a connect of its own so nothing is dialled. */
export type SendRequest = (
  options: RequestOptions,
  onResponse: (res: IncomingMessage) => void,
) => ClientRequest;

export function postPinned(
  target: PinnedTarget,
  body: Buffer,
  headers: Record<string, string>,
  limits: { timeoutMs: number; keepIdleMs: number },
  send: SendRequest = request,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let current: ClientRequest | undefined;
    const finish = (statusCode: number | null, errorClass: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, errorClass, responseTimeMs: elapsed() });
    };
    const post = (options: RequestOptions) => {
      let answered = false;
      const req = send(options, (res) => {
        answered = true;
        let read = 0;
        res.on('data', (piece: Buffer) => {
          read += piece.length;
          if (read > MAX_RESPONSE_BYTES) res.resume();
        });
        res.on('end', () => finish(res.statusCode ?? null, null));
        res.on('error', (error) => finish(null, errorClassOf(error)));
        res.on('aborted', () => finish(null, 'connection_reset'));
      });
      current = req;
      req.on('error', (error) => {
        // A kept connection that the receiver closed as idle, in the instant it was taken, fails before any answer: a
        // server closes only connections with no request on them, so this one was never read. It goes once more, in
        // the same attempt and within the same timeout, over a new connection.
        const closedIdle = ['ECONNRESET', 'EPIPE'].includes((error as NodeJS.ErrnoException).code ?? '');
        if (!settled && !answered && req.reusedSocket && closedIdle)
          return post({ ...options, agent: false });
        finish(null, errorClassOf(error));
      });
      req.end(body);
    };
    const timer = setTimeout(() => {
      finish(null, 'timeout');
      current?.destroy(Object.assign(new Error('webhook timeout'), { code: 'WEBHOOK_TIMEOUT' }));
    }, limits.timeoutMs);
    post(
      pinnedRequestOptions(target, { ...headers, 'content-length': String(body.length) }, limits.keepIdleMs),
    );
  });
}
