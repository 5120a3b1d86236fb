// JSON requests to the Folio API, and the retry policy every request of the client shares (API calls, part PUTs,
// ranged GETs): on 429 and 5xx answers and network errors, only for requests safe to repeat, waiting what the
// answer's Retry-After asks or else an exponential backoff with full jitter.
import type { ErrorCode } from './operations.js';
import type { ErrorBody, ResponseRecord } from './types.js';
import type { CallOptions, OperationCaller, OperationInput, OperationSpec } from './operation-caller.js';
export type { CallOptions, OperationCaller, OperationInput, OperationSpec } from './operation-caller.js';

/**
 * A non-2xx answer. `code` is the error body's `error` (the document's codes are the ErrorCode union; a newer server
 * may send one this version does not list), `description` its error_description where the API gives one, and
 * `requestId` the answer's X-Request-Id, what the service's logs are searched by.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode | undefined;
  readonly description: string | undefined;
  readonly requestId: string | undefined;
  /** Seconds the answer's Retry-After asked for (429, 503), when it had one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly body: ErrorBody | string | undefined,
    what: string,
    headers?: Headers,
  ) {
    super(`${what} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
    const object = typeof body === 'object' ? body : undefined;
    this.code = typeof object?.error === 'string' ? (object.error as ErrorCode) : undefined;
    this.description =
      object && 'error_description' in object && typeof object.error_description === 'string'
        ? object.error_description
        : undefined;
    this.requestId = headers?.get('x-request-id') ?? undefined;
    const after = retryAfterMs(headers?.get('retry-after') ?? null);
    this.retryAfterSeconds = after === undefined ? undefined : after / 1000;
  }
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date (RFC 9110 § 10.2.3); undefined otherwise. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface RetryPolicy {
  /** Further attempts after the first (default 5). */
  retries: number;
  /** The first delay's ceiling; each retry doubles it (default 200 ms). */
  baseDelayMs: number;
  /** No backoff delay is longer (default 10 s). */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the ApiError is thrown instead (default 60 s). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 5,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** Thrown inside an attempt to ask for another one (a 429 or 5xx); network errors are retried as they come. */
export class Retryable extends Error {
  constructor(
    override readonly cause: Error,
    /** What the answer's Retry-After asked for, waited instead of the backoff. */
    readonly retryAfterMs?: number,
  ) {
    super(cause.message);
  }
}

/** 429 and 5xx ask for another attempt; the error travels in a Retryable with the answer's Retry-After. */
export function failure(response: Response, error: ApiError): Error {
  if (response.status !== 429 && response.status < 500) return error;
  return new Retryable(error, retryAfterMs(response.headers.get('retry-after')));
}

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/** fetch rejects with a TypeError for refused, reset or dropped connections. */
const isNetworkError = (error: unknown) => error instanceof TypeError;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, a non-retryable error comes, or the retries run out. The delay before retry n is
 * the answer's Retry-After when it has one (the server knows when it will have room; a longer one than the policy's
 * maxRetryAfterMs ends the retries), otherwise uniform in [0, min(max, base × 2ⁿ)] ("full jitter"), so many clients
 * failing together do not retry together.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (isAbort(error) || signal?.aborted) throw signal?.reason ?? error;
      const retryable = error instanceof Retryable || isNetworkError(error);
      const asked = error instanceof Retryable ? error.retryAfterMs : undefined;
      if (!retryable || n >= policy.retries || (asked ?? 0) > policy.maxRetryAfterMs)
        throw error instanceof Retryable ? error.cause : error;
      await sleep(asked ?? Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n), signal);
    }
  }
}

export interface HttpOptions {
  baseUrl: string;
  token: string;
  retry?: Partial<RetryPolicy>;
  onResponse?: (record: ResponseRecord) => void | Promise<void>;
  /**
   * The fetch every request goes through: API calls, part PUTs and ranged GETs (default: the global fetch, looked up
   * at each call). A network failure must reject with a TypeError, as fetch's does, for the retries to see it.
   */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** Only for requests the server applies once however often they arrive (reads, part_urls, complete, abort…). */
  retry?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (If-Match). */
  headers?: Record<string, string>;
  /** Told a 2xx answer's headers as they arrive, before its body is read (once per attempt). */
  onHeaders?: (headers: Headers) => void;
}

type Payload = { json: unknown } | { bytes: Uint8Array } | undefined;

/**
 * Bytes as a fetch body. fetch sends any view, but under TypeScript's DOM library (a consumer's `lib: ["DOM"]`) a
 * Uint8Array over an ArrayBufferLike, which Buffer is, is not a BodyInit (issue 25: "Buffer is not assignable to
 * BodyInit"); the one cast is here rather than a copy of every part.
 */
export const bytesBody = (bytes: Uint8Array) => bytes as unknown as NonNullable<RequestInit['body']>;

/**
 * What a request whose body fetch must not copy again adds to its init: fetch clones every request that may follow a
 * redirect or has a window, and cloning tees the body, which copies each byte once more (for an 8 MiB part, more CPU
 * than sealing it). Presigned storage URLs answer without redirects.
 */
export const UNCLONED = { redirect: 'error', window: null } as const satisfies RequestInit;

export class Http implements OperationCaller {
  readonly retryPolicy: RetryPolicy;

  constructor(private readonly options: HttpOptions) {
    this.retryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** A request through the options' fetch, or the global one. */
  fetch(input: string, init: RequestInit): Promise<Response> {
    return (this.options.fetch ?? globalThis.fetch)(input, init);
  }

  /** One JSON request; answers the parsed body and throws ApiError for a non-2xx status. */
  request<T>(method: string, path: string, json?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.exchange<T>(method, path, json === undefined ? undefined : { json }, options, false);
  }

  /** A generated method's call: the path template filled, the query and headers set, the retry rule applied. */
  call<T>(spec: OperationSpec, input: OperationInput = {}, options: CallOptions = {}): Promise<T> {
    const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = input.path?.[name];
      if (value === undefined) throw new TypeError(`${spec.method} ${spec.path}: no path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(input.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.headers ?? {}))
      if (value !== undefined && value !== null) headers[name.toLowerCase()] = String(value);
    const batched =
      spec.retry === 'batch' &&
      typeof (input.body as { batch_id?: unknown } | undefined)?.batch_id === 'string';
    const payload: Payload =
      input.body === undefined
        ? undefined
        : spec.body === 'bytes'
          ? { bytes: input.body as Uint8Array }
          : { json: input.body };
    return this.exchange<T>(
      spec.method,
      `${path}${query.size ? `?${query}` : ''}`,
      payload,
      {
        retry: options.retry ?? (spec.retry === 'safe' || batched),
        signal: options.signal,
        headers: { ...headers, ...options.headers },
      },
      spec.raw === true,
    );
  }

  private async exchange<T>(
    method: string,
    path: string,
    payload: Payload,
    options: RequestOptions,
    raw: boolean,
  ): Promise<T> {
    const send = async (): Promise<T> => {
      const contentType: Record<string, string> =
        payload === undefined
          ? {}
          : { 'content-type': 'json' in payload ? 'application/json' : 'application/octet-stream' };
      const response = await this.fetch(this.options.baseUrl.replace(/\/$/, '') + path, {
        method,
        headers: { ...options.headers, authorization: `Bearer ${this.options.token}`, ...contentType },
        body:
          payload === undefined
            ? undefined
            : 'json' in payload
              ? JSON.stringify(payload.json)
              : bytesBody(payload.bytes),
        signal: options.signal,
      });
      if (response.ok) options.onHeaders?.(response.headers);
      const isJson = (response.headers.get('content-type') ?? '').includes('json');
      if (raw && response.ok) {
        await this.options.onResponse?.({
          method,
          path,
          status: response.status,
          headers: response.headers,
          body: undefined,
        });
        return response as T;
      }
      const text = await response.text();
      const body = isJson && text ? JSON.parse(text) : text || undefined;
      await this.options.onResponse?.({
        method,
        path,
        status: response.status,
        headers: response.headers,
        body: isJson ? body : undefined,
      });
      if (response.ok) return body as T;
      throw failure(response, new ApiError(response.status, body, `${method} ${path}`, response.headers));
    };
    if (!options.retry) {
      try {
        return await send();
      } catch (error) {
        throw error instanceof Retryable ? error.cause : error;
      }
    }
    return withRetry(this.retryPolicy, send, options.signal);
  }
}
