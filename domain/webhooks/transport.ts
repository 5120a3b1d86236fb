// The POST of one delivery attempt: HTTPS to the address that was judged (a pinned lookup, never a second DNS query),
// SNI and certificate checked against the URL's hostname, no redirect followed, no connection reused, and the whole
// exchange (connect, TLS, headers and body both ways) bounded by one timeout.
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request, type RequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { createSecureContext, type ConnectionOptions, type SecureContext } from 'node:tls';

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
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

let trustStore: SecureContext | undefined;

/**
 * The trust settings every POST connects with (the system store plus NODE_EXTRA_CA_CERTS), built once: without it
 * each connection builds its own, which was a tenth of an attempt's TLS work. It holds no session, so every attempt
 * still makes a full handshake and checks the certificate.
 */
const sharedTrustStore = () => (trustStore ??= createSecureContext());

/** The request options of a pinned POST; exported so a test can check them without dialling anything. */
export function pinnedRequestOptions(target: PinnedTarget, headers: Record<string, string>): RequestOptions & Pick<ConnectionOptions, 'secureContext'> {
  const literal = isIP(target.hostname) !== 0;
  return {
    method: 'POST',
    host: target.hostname,
    port: 443,
    path: `${target.url.pathname}${target.url.search}`,
    headers: { ...headers, host: target.url.host },
    // A literal address is dialled as it is (net.connect does no lookup for it); a name gets the judged address.
    lookup: literal ? undefined : pinnedLookup(target.address, target.family),
    // SNI carries names only; the certificate is checked against the name (or the literal address) either way.
    servername: literal ? undefined : target.hostname,
    agent: false,
    secureContext: sharedTrustStore(),
    rejectUnauthorized: true,
  };
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_TLS_CERT)/;

export function errorClassOf(error: unknown): string {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (code === 'ETIMEDOUT' || code === 'WEBHOOK_TIMEOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return 'connection_reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return 'unreachable';
  if (TLS_CODES.test(code) || /certificate|tls|ssl/i.test((error as Error | null)?.message ?? '')) return 'tls_error';
  return 'network_error';
}

/** Bytes of a response body read before the rest is drained unread; receivers are told to answer small. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Sends the request; https.request, except in a unit test that hands in a connect of its own so nothing is dialled. */
export type SendRequest = (options: RequestOptions, onResponse: (res: IncomingMessage) => void) => ClientRequest;

export function postPinned(
  target: PinnedTarget,
  body: Buffer,
  headers: Record<string, string>,
  timeoutMs: number,
  send: SendRequest = request,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, errorClass: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, errorClass, responseTimeMs: elapsed() });
    };
    const options = pinnedRequestOptions(target, { ...headers, 'content-length': String(body.length) });
    const req = send(options, (res) => {
      let read = 0;
      res.on('data', (piece: Buffer) => {
        read += piece.length;
        if (read > MAX_RESPONSE_BYTES) res.resume();
      });
      res.on('end', () => finish(res.statusCode ?? null, null));
      res.on('error', (error) => finish(null, errorClassOf(error)));
      res.on('aborted', () => finish(null, 'connection_reset'));
    });
    const timer = setTimeout(() => {
      finish(null, 'timeout');
      req.destroy(Object.assign(new Error('webhook timeout'), { code: 'WEBHOOK_TIMEOUT' }));
    }, timeoutMs);
    req.on('error', (error) => finish(null, errorClassOf(error)));
    req.end(body);
  });
}
