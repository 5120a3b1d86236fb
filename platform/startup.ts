// A process that starts while a dependency is briefly away (a deploy, a restarting node, object storage still
// initialising) waits for it rather than exit, for as long as an orchestrator would wait on a starting pod; past that
// it exits and the orchestrator starts it again.
import pRetry from 'p-retry';
import { logger } from './logger.js';

/** Runs `attempt` until it succeeds, backing off from 1 s to 15 s, for at most five minutes; `what` names it in the logs. */
export function whenAvailable<T>(what: string, attempt: () => Promise<T>): Promise<T> {
  return pRetry(attempt, {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 1000,
    maxTimeout: 15_000,
    maxRetryTime: 5 * 60_000,
    onFailedAttempt: ({ error, attemptNumber }) =>
      logger.warn(
        { category: 'lifecycle', err: error, attempt: attemptNumber },
        `${what} not available yet; trying again`,
      ),
  });
}
