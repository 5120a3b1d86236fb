// Failures that no retry can fix: they end the activity at once (ApplicationFailure.nonRetryable) instead of being
// retried forever with backoff. Everything else an activity throws is transient and retried by its profile.
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { AppError } from '../domain/errors.js';

/** The error as a failure Temporal does not retry; the workflow sees it as the activity's failure. */
export function permanent(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure && error.nonRetryable) return error;
  const cause = error instanceof Error ? error : new Error(String(error));
  const type = cause instanceof AppError ? cause.code : cause.name;
  return ApplicationFailure.create({ message: cause.message, type, nonRetryable: true, cause });
}

/** AppError statuses that describe the moment (a conflict, a lock, a rate), so a later attempt may pass. */
const MOMENTARY_STATUSES = new Set([409, 423, 429]);

/**
 * Errors that fail the same way on every attempt: a value the database can never accept (SQLSTATE class 22, such
 * as a malformed uuid in the input) or a domain refusal of the request itself (a 4xx AppError). Bugs and outages
 * stay retryable on purpose: a fixed deploy or a restored service lets the same attempt succeed.
 */
export function neverSucceeds(error: unknown): boolean {
  if (error instanceof AppError)
    return error.status >= 400 && error.status < 500 && !MOMENTARY_STATUSES.has(error.status);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** Runs `work`; an error `isPermanent` recognises (beyond neverSucceeds) ends the activity without retry. */
export async function permanentWhen<T>(
  isPermanent: (error: unknown) => boolean,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isPermanent(error) ? permanent(error) : error;
  }
}

/** Worker interceptor: every activity's neverSucceeds errors end it without retry (worker/main.ts installs it). */
export const permanentFailures: ActivityInterceptorsFactory = () => ({
  inbound: {
    execute: (input, next) => permanentWhen(neverSucceeds, () => next(input)),
  },
});
