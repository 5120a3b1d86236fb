// The CLI's fetch, on node:http and node:https: the global fetch (undici) costs a short-lived process more than the
// rest of a command's start-up (~0.13 s of `folio drive ls`, docs/benchmarks.md § 2026-11-27 session 14), while
// node:http is already loaded. It does what @folio/client asks of a fetch: string and byte bodies, headers, an
// AbortSignal, a streamed Response, redirects followed as fetch follows them, and network failures as fetch's
// TypeError("fetch failed") with the cause, so the client's retries and the CLI's exit codes see the same errors.
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';

/** fetch's limit (the Fetch standard's): a longer chain of redirects is a network error. */
const MAX_REDIRECTS = 20;
/** What undici waits for an answer's headers, and between pieces of its body, before it fails the request. */
const IDLE_TIMEOUT_MS = 300_000;
/** Headers a cross-origin redirect does not carry on (Fetch standard § 4.4, HTTP-redirect fetch). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
/** Headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];
/** Statuses whose Response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

interface Outgoing {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

function networkError(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function headersOf(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!init) return headers;
  const pairs =
    Symbol.iterator in init
      ? (init as Iterable<[string, string]>)
      : Object.entries(init as Record<string, string>);
  for (const [name, value] of pairs) headers[name.toLowerCase()] = value;
  return headers;
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('the CLI sends string and byte bodies only');
}

/** One request and its answer's head; the body is left unread in the IncomingMessage. */
async function send(outgoing: Outgoing, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  const { url, method, headers, body } = outgoing;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw networkError(new Error(`unsupported protocol ${url.protocol}`));
  // node:https loads TLS, which an http:// address never needs.
  const request = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const options: RequestOptions = {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
  };
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, options);
    const abort = () => req.destroy(signal!.reason);
    signal?.addEventListener('abort', abort, { once: true });
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`no answer for ${IDLE_TIMEOUT_MS} ms`)));
    req.on('error', (error) => {
      signal?.removeEventListener('abort', abort);
      reject(signal?.aborted ? signal.reason : networkError(error));
    });
    req.on('response', (response) => {
      // The body is read later: an abort or an idle socket from now on fails the body's stream instead.
      req.removeAllListeners('error');
      req.on('error', (error) => response.destroy(signal?.aborted ? signal.reason : networkError(error)));
      response.on('close', () => signal?.removeEventListener('abort', abort));
      resolve(response);
    });
    req.end(body);
  });
}

/** The request a redirect asks for, as fetch makes it (Fetch standard § 4.4), or undefined for the answer itself. */
function redirected(
  outgoing: Outgoing,
  response: IncomingMessage,
  mode: NonNullable<RequestInit['redirect']>,
): Outgoing | undefined {
  const status = response.statusCode!;
  const location = response.headers.location;
  if (![301, 302, 303, 307, 308].includes(status) || location === undefined || mode === 'manual')
    return undefined;
  if (mode === 'error') throw networkError(new Error(`redirected to ${location}, redirects refused`));
  const url = new URL(location, outgoing.url);
  const headers = { ...outgoing.headers };
  if (url.origin !== outgoing.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  if (status === 303 ? outgoing.method !== 'HEAD' : status <= 302 && outgoing.method === 'POST') {
    for (const name of BODY_HEADERS) delete headers[name];
    return { url, method: 'GET', headers, body: undefined };
  }
  return { ...outgoing, url, headers };
}

/**
 * The answer's body as a web stream, read as it is consumed. A connection cut or an abort before its end fails the
 * stream as fetch fails it: with the abort's reason, or a TypeError whose cause says what happened.
 */
function bodyStream(response: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      let failure: unknown;
      response.on('data', (chunk: Buffer) => {
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) response.pause();
      });
      response.on('end', () => {
        ended = true;
        controller.close();
      });
      response.on('error', (error) => (failure = error));
      response.on('close', () => {
        if (ended) return;
        if (signal?.aborted) controller.error(signal.reason);
        else if (failure instanceof TypeError) controller.error(failure);
        else controller.error(networkError(failure ?? new Error('terminated')));
      });
    },
    pull() {
      response.resume();
    },
    cancel() {
      response.destroy();
    },
  });
}

function responseOf(response: IncomingMessage, method: string, signal: AbortSignal | undefined): Response {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = response.statusCode!;
  const empty = method === 'HEAD' || NULL_BODY.has(status);
  if (empty) response.resume();
  const body = empty ? null : bodyStream(response, signal);
  return new Response(body, { status, statusText: response.statusMessage, headers });
}

/** fetch over node:http/https, for what @folio/client sends (its `fetch` option). */
export const httpFetch: typeof fetch = async (input, init = {}) => {
  if (typeof input !== 'string' && !(input instanceof URL))
    throw new TypeError('the CLI fetches a URL, not a Request');
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  let outgoing: Outgoing = {
    url: new URL(input),
    method: (init.method ?? 'GET').toUpperCase(),
    headers: headersOf(init.headers),
    body: bodyOf(init.body),
  };
  for (let redirects = 0; ; redirects++) {
    const response = await send(outgoing, signal);
    let next: Outgoing | undefined;
    try {
      next = redirected(outgoing, response, init.redirect ?? 'follow');
    } catch (error) {
      response.resume(); // A refused redirect's body is not read.
      throw error;
    }
    if (!next) return responseOf(response, outgoing.method, signal);
    response.resume();
    if (redirects === MAX_REDIRECTS) throw networkError(new Error(`more than ${MAX_REDIRECTS} redirects`));
    outgoing = next;
  }
};
