// How a generated method (src/operations.ts) calls its operation: kept apart from http.ts so that the generated
// module and the HTTP layer, which names the generated error codes, do not import each other.

/** Per call of a generated method (FolioApi). */
export interface CallOptions {
  /** Overrides the operation's own rule (reads and batch_id requests are retried, nothing else). */
  retry?: boolean;
  signal?: AbortSignal;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** How a generated method calls its operation (scripts/generate-types.ts writes one per operation). */
export interface OperationSpec {
  method: string;
  /** The document's path template, `{name}` for each path parameter. */
  path: string;
  /** safe: a read; batch: retried when the body has a batch_id; never: not retried unless the call says so. */
  retry: 'safe' | 'batch' | 'never';
  body?: 'json' | 'bytes';
  /** The answer is not JSON: the Response is handed back. */
  raw?: boolean;
}

export interface OperationInput {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  body?: unknown;
}

export interface OperationCaller {
  call<T>(spec: OperationSpec, input: OperationInput | undefined, options?: CallOptions): Promise<T>;
}
