// The one error type of Folio. Domain code throws it; api/middleware/errors.ts turns it into the spec's body.

export type ErrorExtras = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly extras: ErrorExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${description}`);
    this.name = 'AppError';
  }
}

const make =
  (status: number, code: string, defaultDescription: string) =>
  (description: string = defaultDescription, extras: ErrorExtras = {}) =>
    new AppError(status, code, description, extras);

// Shared edge errors.
export const invalidBody = make(400, 'invalid_body', 'The request body is not valid.');
export const routeNotFound = make(404, 'not_found', 'No such route.');
export const methodNotAllowed = (method: string, allowed: string[]) =>
  new AppError(
    405,
    'method_not_allowed',
    `This route does not take ${method}; it takes ${allowed.join(', ')}.`,
    {},
    { Allow: allowed.join(', ') },
  );
export const notFound = make(404, 'not_found', 'Not found, or not visible to you.');
export const bodyTooLarge = make(413, 'request_too_large', 'The request body is too large.');
export const internalError = make(500, 'internal_error', 'Something went wrong on our side.');

// Storage, shared by Drive files and document attachments (both specs name these codes).
export const fileTooLarge = (
  maxBytes: number,
  description = `The upload is larger than ${maxBytes} bytes.`,
) => new AppError(413, 'file_too_large', description, { max_bytes: maxBytes });
export const storageLimitExceeded = (poolBytes: number) =>
  new AppError(422, 'storage_limit_exceeded', 'The workspace storage pool is full.', {
    pool_bytes: poolBytes,
  });

// Authentication. The spec leaves these "not shown"; the decisions are in README.md § Authentication.
export const unauthenticated = (description = 'A valid bearer access token is required.') =>
  new AppError(
    401,
    'invalid_token',
    description,
    {},
    {
      'WWW-Authenticate': `Bearer realm="folio", error="invalid_token", error_description="${description}"`,
    },
  );
export const insufficientScope = (scope: string) =>
  new AppError(
    403,
    'insufficient_scope',
    `This request needs the ${scope} scope.`,
    { scope },
    {
      'WWW-Authenticate': `Bearer realm="folio", error="insufficient_scope", scope="${scope}"`,
    },
  );
export const apiKeyRefused = () =>
  new AppError(
    403,
    'forbidden',
    "Workspace API keys cannot act on a person's files or documents; use a user access token.",
  );
