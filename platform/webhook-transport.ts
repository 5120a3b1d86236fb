// The POST of one delivery attempt, an adapter the worker creates once (worker/main.ts) and hands to the webhook
// activities: HTTPS to the address that was judged (dialled as an address, never a second DNS query), SNI and
// certificate checked against the URL's hostname, no redirect followed, and the whole exchange (connect, TLS, headers
// and body both ways) bounded by one timeout. A connection to the same judged address and name is kept a few seconds
// for the next attempt, while its certificate is still valid (docs/webhooks.md § Connections). The receiver's answer
// (status, headers, the first 4 KB of its body) comes back to be recorded: it may hold anything, so it is never logged.
import type { ClientRequest, IncomingMessage } from 'node:http';
import { Agent, request, type RequestOptions } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  checkServerIdentity,
  createSecureContext,
  type ConnectionOptions,
  type PeerCertificate,
  type SecureContext,
  type TLSSocket,
} from 'node:tls';

interface PinnedTarget {
  url: URL;
  hostname: string;
  address: string;
  family: 4 | 6;
}

interface PostResult {
  /** The receiver's status, when it answered in full within the timeout. */
  statusCode: number | null;
  /** Why there is no status (or why the exchange broke after it): timeout, tls_error, connection_refused, … */
  errorClass: string | null;
  responseTimeMs: number;
  /** The answer's headers (names lower-case; set-cookie a list), when an answer began; null when none did. */
  responseHeaders: Record<string, string | string[]> | null;
  /** The answer's first RESPONSE_BODY_BYTES as text (responseText), when an answer began; null when none did. */
  responseBody: string | null;
}

/** A lookup that answers the judged address whatever it is asked, in the shape net.connect asks for. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

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

  override createConnection(...[options, callback]: Parameters<Agent['createConnection']>): Socket {
    // The expiry is read from the certificate Node has just checked against the hostname: a second read of the peer
    // certificate (getPeerX509Certificate) parsed it again, a third of a new connection's own work.
    const check = (options as ConnectionOptions).checkServerIdentity ?? checkServerIdentity;
    const socket = super.createConnection(
      {
        ...options,
        checkServerIdentity: (hostname: string, certificate: PeerCertificate) => {
          this.#certificateExpiry.set(socket, Date.parse(certificate.valid_to));
          return check(hostname, certificate);
        },
      },
      callback,
    ) as TLSSocket;
    return socket;
  }

  override keepSocketAlive(socket: Duplex): boolean {
    // NaN (no certificate read) compares false: not kept.
    if (!((this.#certificateExpiry.get(socket) ?? NaN) > Date.now() + this.keepIdleMs)) return false;
    return (super.keepSocketAlive as (socket: Duplex) => boolean)(socket);
  }
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

/**
 * Bytes of the receiver's answer kept for the attempt's history (the admin app shows them): the first 4 KB. The rest
 * is read and dropped as it arrives, never held, so a 2xx still counts only once it is received in full within the
 * timeout, and the connection can be kept for the next attempt.
 */
export const RESPONSE_BODY_BYTES = 4096;

/** Sends the request; https.request, except in a unit test that hands in a connect of its own so nothing is dialled. */
export type SendRequest = (
  options: RequestOptions,
  onResponse: (res: IncomingMessage) => void,
) => ClientRequest;

/** The first bytes of an answer as text: UTF-8, invalid sequences (a character cut at 4 KB too) and NUL as U+FFFD. */
export function responseText(bytes: Buffer): string {
  // PostgreSQL text holds no NUL character.
  return new TextDecoder('utf-8').decode(bytes).replaceAll('\u0000', '\ufffd');
}

function headersOf(res: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = value;
  return headers;
}

export interface WebhookTransport {
  post(
    target: PinnedTarget,
    body: Buffer,
    headers: Record<string, string>,
    limits: { timeoutMs: number; keepIdleMs: number },
  ): Promise<PostResult>;
  /** The request options of a pinned POST, so a test can check them without dialling anything. */
  requestOptions(
    target: PinnedTarget,
    headers: Record<string, string>,
    keepIdleMs?: number,
  ): RequestOptions & Pick<ConnectionOptions, 'secureContext'>;
  /** Closes the kept connections (the worker's shutdown). */
  close(): void;
}

/** One per process (worker/main.ts): it holds the kept connections and the trust store every attempt shares. */
export function createWebhookTransport(send: SendRequest = request): WebhookTransport {
  let trustStore: SecureContext | undefined;
  /**
   * The trust settings every POST connects with (the system store plus NODE_EXTRA_CA_CERTS), built once: without it
   * each connection builds its own, which was a tenth of an attempt's TLS work. It holds no session, so every new
   * connection makes a full handshake and checks the certificate.
   */
  const sharedTrustStore = () => (trustStore ??= createSecureContext());

  const pools = new Map<number, DeliveryConnections>();
  /** The pool for this keep-alive setting (FOLIO_WEBHOOK_KEEP_ALIVE); 0 keeps nothing: a new connection per attempt. */
  function deliveryConnections(keepIdleMs: number): DeliveryConnections | false {
    if (keepIdleMs <= 0) return false;
    if (!pools.has(keepIdleMs)) pools.set(keepIdleMs, new DeliveryConnections(keepIdleMs));
    return pools.get(keepIdleMs)!;
  }

  function requestOptions(
    target: PinnedTarget,
    headers: Record<string, string>,
    keepIdleMs = 0,
  ): RequestOptions & Pick<ConnectionOptions, 'secureContext'> {
    const literal = isIP(target.hostname) !== 0;
    return {
      method: 'POST',
      // The judged address is dialled as it is: net.connect makes no lookup for an address. The lookup is there in
      // case it ever did, and answers the same address.
      host: target.address,
      family: target.family,
      lookup: pinnedLookup(target.address, target.family),
      port: 443,
      path: `${target.url.pathname}${target.url.search}`,
      headers: { ...headers, host: target.url.host },
      // SNI carries names only; the certificate is checked against the name (servername), or the literal address.
      servername: literal ? undefined : target.hostname,
      agent: deliveryConnections(keepIdleMs),
      secureContext: sharedTrustStore(),
      rejectUnauthorized: true,
    };
  }

  function post(
    target: PinnedTarget,
    body: Buffer,
    headers: Record<string, string>,
    limits: { timeoutMs: number; keepIdleMs: number },
  ): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      let current: ClientRequest | undefined;
      // The answer, once its headers arrived: kept even when the exchange then breaks, for the history.
      let responseHeaders: Record<string, string | string[]> | null = null;
      const kept: Buffer[] = [];
      let keptBytes = 0;
      const finish = (statusCode: number | null, errorClass: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({
          statusCode,
          errorClass,
          responseTimeMs: elapsed(),
          responseHeaders,
          responseBody: responseHeaders ? responseText(Buffer.concat(kept)) : null,
        });
      };
      const postOnce = (options: RequestOptions) => {
        let answered = false;
        const req = send(options, (res) => {
          answered = true;
          responseHeaders = headersOf(res);
          res.on('data', (piece: Buffer) => {
            if (keptBytes >= RESPONSE_BODY_BYTES) return;
            // A copy, so the rest of a large piece is not held through a view of it.
            const part = Buffer.from(piece.subarray(0, RESPONSE_BODY_BYTES - keptBytes));
            kept.push(part);
            keptBytes += part.length;
          });
          res.on('end', () => finish(res.statusCode ?? null, null));
          res.on('error', (error) => finish(null, errorClassOf(error)));
          res.on('aborted', () => finish(null, 'connection_reset'));
        });
        current = req;
        req.on('error', (error) => {
          // A kept connection that the receiver closed as idle, in the instant it was taken, fails before any answer:
          // a server closes only connections with no request on them, so this one was never read. It goes once more,
          // in the same attempt and within the same timeout, over a new connection.
          const closedIdle = ['ECONNRESET', 'EPIPE'].includes((error as NodeJS.ErrnoException).code ?? '');
          if (!settled && !answered && req.reusedSocket && closedIdle)
            return postOnce({ ...options, agent: false });
          finish(null, errorClassOf(error));
        });
        req.end(body);
      };
      const timer = setTimeout(() => {
        finish(null, 'timeout');
        current?.destroy(Object.assign(new Error('webhook timeout'), { code: 'WEBHOOK_TIMEOUT' }));
      }, limits.timeoutMs);
      postOnce(
        requestOptions(target, { ...headers, 'content-length': String(body.length) }, limits.keepIdleMs),
      );
    });
  }

  return {
    post,
    requestOptions,
    close: () => {
      for (const pool of pools.values()) pool.destroy();
      pools.clear();
    },
  };
}
