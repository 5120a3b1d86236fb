// The retry schedule, the one home of webhook attempt numbering and delays (issue 23). Like Svix's `retry_schedule`,
// it is the list of waits between attempts, and the number of attempts follows from it: one first attempt, then one
// retry per wait. spec/webhooks.md's schedule is FOLIO_WEBHOOK_RETRY_DELAYS's default, 1m,5m,30m,2h: attempts 1 to
// 5. The delivery's workflow neither counts nor waits by a rule of its own: each attempt answers whether another
// follows and after how long (activities/webhooks.ts), and the record of the attempt writes the same answer into
// the delivery's next_attempt_at (deliveries.ts).

/** The spec's bound (spec/webhooks.md § Limits: the first plus four retries); the attempts table checks it too. */
const SPEC_ATTEMPTS = 5;

/** A webhook.test (an extension, docs/extensions.md § Webhooks) is sent once: its answer is wanted now. */
export const TEST_ATTEMPTS = 1;

export interface RetrySchedule {
  /** The wait after attempt n is `delaysMs[n - 1]`; the last attempt is the one after the last wait. */
  readonly delaysMs: readonly number[];
}

/**
 * The schedule of one delivery: the configured waits, cut short by a delivery that makes fewer attempts (a
 * webhook.test makes one). A wait is at least 1 ms: a zero timeout would make the workflow's wait unbounded.
 */
export function retrySchedule(configuredDelaysMs: readonly number[], maxAttempts?: number): RetrySchedule {
  if (configuredDelaysMs.length > SPEC_ATTEMPTS - 1)
    throw new Error(`a retry schedule has at most ${SPEC_ATTEMPTS - 1} waits (spec/webhooks.md § Limits)`);
  const waits = maxAttempts === undefined ? configuredDelaysMs : configuredDelaysMs.slice(0, maxAttempts - 1);
  return { delaysMs: waits.map((ms) => Math.max(1, ms)) };
}

/** How many attempts the schedule makes. */
export const attemptsOf = (schedule: RetrySchedule): number => schedule.delaysMs.length + 1;

/** The wait after a failed attempt n before attempt n + 1, or null when n was the last attempt. */
export function delayAfter(schedule: RetrySchedule, attempt: number): number | null {
  return schedule.delaysMs[attempt - 1] ?? null;
}
