// How a failed command ends (docs/cli.md § Exit codes): an exit code by class of failure, so a script can tell a
// refused token from a missing file from a server that is down, and with --json one error object on stdout.
import { ApiError } from '../clients/typescript/src/index.js';

/** Exit codes by class; the table in docs/cli.md is the contract. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  unavailable: 6,
} as const;

type ExitClass = keyof typeof EXIT;

/** A failure the CLI itself detects (a bad argument, a local file in the way), with its class and code. */
export class CliError extends Error {
  constructor(
    readonly exitClass: Exclude<ExitClass, 'ok'>,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ErrorAnswer {
  error: { code: string; message: string; status: number | null };
}

/** The class an API answer falls in: 401/403 authentication, 404/410 not found, 409/412/name_taken conflict. */
function classOfApiError(error: ApiError): Exclude<ExitClass, 'ok'> {
  if (error.status === 401 || error.status === 403) return 'auth';
  if (error.status === 404 || error.status === 410) return 'notFound';
  if (error.status === 409 || error.status === 412 || error.code === 'name_taken') return 'conflict';
  if (error.status >= 500) return 'unavailable';
  return 'failure';
}

/**
 * An API refusal in words, without the raw body (the answer's `code` and `status` carry those): Documents' (and
 * Email's, the admin API's) error_description; for Drive, whose bodies have none (spec/drive.md § Errors), the code
 * in words and the fields its row adds, such as `storage limit exceeded (pool_bytes: 1073741824)`. A nested object
 * (a precondition failure's `current` item) is left out: it is data, not an explanation.
 */
function apiErrorMessage(error: ApiError): string {
  if (error.description) return error.description;
  const body = typeof error.body === 'object' ? (error.body as Record<string, unknown>) : undefined;
  if (!error.code || !body) return `the server answered ${error.status}`;
  const details = Object.entries(body).flatMap(([name, value]) => {
    if (name === 'error') return [];
    if (Array.isArray(value) && value.every((item) => typeof item !== 'object'))
      return [`${name}: ${value.join(', ')}`];
    return typeof value === 'object' || value === undefined ? [] : [`${name}: ${String(value)}`];
  });
  const words = error.code.replaceAll('_', ' ');
  return details.length ? `${words} (${details.join('; ')})` : words;
}

/** fetch rejects with a TypeError ("fetch failed") when the server cannot be reached at all. */
const isNetworkError = (error: unknown) => error instanceof TypeError && /fetch failed/i.test(error.message);

export function describeError(error: unknown): { exitCode: number; answer: ErrorAnswer } {
  if (error instanceof CliError)
    return {
      exitCode: EXIT[error.exitClass],
      answer: { error: { code: error.code, message: error.message, status: null } },
    };
  if (error instanceof ApiError) {
    return {
      exitCode: EXIT[classOfApiError(error)],
      answer: {
        error: {
          code: error.code ?? `http_${error.status}`,
          message: apiErrorMessage(error),
          status: error.status,
        },
      },
    };
  }
  if (isNetworkError(error)) {
    const cause = (error as TypeError & { cause?: { code?: string } }).cause;
    return {
      exitCode: EXIT.unavailable,
      answer: {
        error: {
          code: 'unreachable',
          message: `the server cannot be reached${cause?.code ? ` (${cause.code})` : ''}`,
          status: null,
        },
      },
    };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT')
    return {
      exitCode: EXIT.notFound,
      answer: { error: { code: 'local_not_found', message: (error as Error).message, status: null } },
    };
  return {
    exitCode: EXIT.failure,
    answer: {
      error: {
        code: 'failed',
        message: error instanceof Error ? error.message : String(error),
        status: null,
      },
    },
  };
}
