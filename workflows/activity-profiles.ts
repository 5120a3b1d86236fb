// Named timeout and retry profiles: every proxyActivities in workflows/ uses one of these, chosen by the kind of work.
import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/workflow';

/**
 * Transient failures (a database restart, a storage hiccup) are retried without limit, backing off to a minute:
 * the work must happen eventually, and an error that can never succeed ends the activity at once instead
 * (activities/failures.ts), so nothing loops forever on a permanent fault.
 */
const UNTIL_DONE: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
};

/** One short transaction (a read, a small update): a minute is ample, so a hung connection is noticed soon. */
export const SHORT_DATABASE_STEP: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: UNTIL_DONE,
};

/**
 * One bounded batch of a cascade: a short transaction, plus object removals for a delete. The batch heartbeats
 * throughout (activities/heartbeat.ts), so a killed worker is noticed in seconds and the batch redone elsewhere.
 */
export const CASCADE_BATCH: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: UNTIL_DONE,
};

/**
 * Object-storage work whose size the workflow cannot bound (a document's attachments, retired versions, an expired
 * upload's parts): a generous start-to-close, and heartbeats so that a dead worker is noticed well before it.
 */
export const LONG_STORAGE_WORK: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: UNTIL_DONE,
};

/**
 * One call to a receiver outside Folio (a webhook attempt): the call bounds itself (FOLIO_WEBHOOK_TIMEOUT), and the
 * start-to-close only catches a step that hangs around it. Heartbeats notice a killed worker in seconds; the retries
 * back off to 30 seconds only, not a minute, because the receiver's delivery waits on them. They never make a second
 * call under the same attempt number: the activity claims its number before it sends (activities/webhooks.ts).
 */
export const OUTBOUND_CALL: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { ...UNTIL_DONE, maximumInterval: '30 seconds' },
};

/**
 * The same call run as a local activity, inside the workflow task (workflows/webhook-delivery.ts says why): no
 * heartbeat, because a killed worker is noticed when its workflow task times out (10 seconds) and the attempt runs
 * again on another worker, where the claim keeps it from sending twice. Retries back off to 30 seconds, below the
 * local retry threshold, so they stay inside the workflow task.
 */
export const LOCAL_OUTBOUND_CALL: LocalActivityOptions = {
  startToCloseTimeout: '2 minutes',
  retry: { ...UNTIL_DONE, maximumInterval: '30 seconds' },
};

/**
 * Work a Temporal Schedule repeats (pruning, cleanup, the outbox sweep): heartbeats while it runs, and bounded
 * retries, because the next scheduled run tries again anyway, and a run that keeps failing should end visibly
 * failed in the Temporal UI rather than retry out of sight.
 */
export const SCHEDULED_MAINTENANCE: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { ...UNTIL_DONE, maximumAttempts: 10 },
};

/**
 * Rendering one thumbnail: an image that cannot render ends the activity with its answer (no preview), so these
 * retries are for what may pass later (storage, the database) or a worker that died mid-render. They are few, because
 * an image that kills its worker every time must end as "no preview" rather than take worker after worker down.
 */
export const THUMBNAIL_RENDER: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { ...UNTIL_DONE, maximumInterval: '30 seconds', maximumAttempts: 6 },
};
