// JSON requests to the Folio API, and the retry policy every request of the client shares (API calls, part PUTs,
// ranged GETs): exponential backoff with full jitter on 5xx answers and network errors, nothing else.
import type { ErrorBody, ResponseRecord } from './types.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | string | undefined,
    what: string,
  ) {
    super(`${what} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
  }

  /** The spec's error code (`not_found`, `sync_token_invalid`, …), when the body has one. */
  get code(): string | undefined {
    return typeof this.body === 'object' ? this.body?.error : undefined;
  }
}

export interface RetryPolicy {
  /** Further attempts after the first (default 5). */
  retries: number;
  /** The first delay's ceiling; each retry doubles it (default 200 ms). */
  baseDelayMs: number;
  /** No delay is longer (default 10 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

/** Thrown inside an attempt to ask for another one (a 5xx); network errors are retried as they come. */
export class Retryable extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
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
 * Runs `attempt` until it succeeds, a non-retryable error comes, or the retries run out. Delay before retry n is
 * uniform in [0, min(max, base × 2ⁿ)] ("full jitter"), so many clients failing together do not retry together.
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
      if (!retryable || n >= policy.retries) throw error instanceof Retryable ? error.cause : error;
      await sleep(Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n), signal);
    }
  }
}

export interface HttpOptions {
  baseUrl: string;
  token: string;
  retry?: Partial<RetryPolicy>;
  onResponse?: (record: ResponseRecord) => void | Promise<void>;
}

export interface RequestOptions {
  /** Only for requests the server applies once however often they arrive (reads, part_urls, complete, abort…). */
  retry?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (If-Match). */
  headers?: Record<string, string>;
}

export class Http {
  readonly retryPolicy: RetryPolicy;

  constructor(private readonly options: HttpOptions) {
    this.retryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** One JSON request; answers the parsed body and throws ApiError for a non-2xx status. */
  async request<T>(method: string, path: string, json?: unknown, options: RequestOptions = {}): Promise<T> {
    const send = async (): Promise<T> => {
      const response = await fetch(this.options.baseUrl.replace(/\/$/, '') + path, {
        method,
        headers: {
          ...options.headers,
          authorization: `Bearer ${this.options.token}`,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: json === undefined ? undefined : JSON.stringify(json),
        signal: options.signal,
      });
      const text = await response.text();
      const isJson = (response.headers.get('content-type') ?? '').includes('json');
      const body = isJson && text ? JSON.parse(text) : text || undefined;
      await this.options.onResponse?.({
        method,
        path,
        status: response.status,
        headers: response.headers,
        body: isJson ? body : undefined,
      });
      if (response.ok) return body as T;
      const error = new ApiError(response.status, body, `${method} ${path}`);
      throw response.status >= 500 ? new Retryable(error) : error;
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
