// One email.received event delivered to one destination, as spec/webhooks.md's state table reads: attempt n; a failed
// attempt that the retry schedule follows with another waits its delay (a durable timer) and makes attempt n+1; the
// last failure gives up and counts towards auto-disable. The schedule (domain/webhooks/schedule.ts, read by each
// attempt) decides both: every attempt answers whether another follows and after how long, and this workflow only
// does as it says. `folio delivery retry` cuts the wait short; the numbers stay in sequence. Also the daily purge of
// delivery history, run by a Temporal Schedule.
import {
  condition,
  defineSignal,
  log,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { LOCAL_OUTBOUND_CALL, OUTBOUND_CALL, SCHEDULED_MAINTENANCE } from './activity-profiles.js';

/**
 * Attempts recorded before the retry schedule had one home (2026-11-27) answered a delay after every failure, even
 * the last, and left the count to the workflow: their histories replay by that rule, the spec's five attempts or
 * the input's maxAttempts. Attempts since answer `retryInMs`, and this is never read for them.
 */
const ATTEMPTS_BEFORE_SCHEDULE = 5;

/**
 * One attempt is one activity run. The activity claims its attempt number in the database before it sends, so a
 * Temporal retry of the activity (after a worker crash, noticed through the heartbeat) can never send a second
 * POST under the same number: it finds the claim and closes that attempt as interrupted (docs/webhooks.md § Crashes).
 * The retries therefore add no hidden attempt; they only make sure every claimed attempt ends recorded.
 */
const { attemptWebhookDelivery } = proxyActivities<Activities>(OUTBOUND_CALL);

/**
 * The same attempt as a local activity: it runs in the workflow task that asked for it, so a delivery that succeeds
 * at once is one workflow task and no activity task (7 history events instead of 12), which is most of what a
 * delivery costs the Temporal server (docs/webhooks.md § Throughput and scaling). Used when the input says so.
 */
const { attemptWebhookDelivery: attemptInWorkflowTask } =
  proxyLocalActivities<Activities>(LOCAL_OUTBOUND_CALL);

const { purgeWebhookHistory } = proxyActivities<Activities>(SCHEDULED_MAINTENANCE);

/**
 * Makes a delivery that is waiting between attempts make its next attempt now. `afterAttempt` is the attempt the
 * operator saw finished: the database says "waiting" a moment before the workflow starts its timer, and a request
 * that lands in that moment must still end the wait after that attempt. Without it (older senders), a request that
 * arrives while an attempt runs is ignored.
 */
export const retryWebhookDeliverySignal = defineSignal<[RetryRequest?]>('retryWebhookDelivery');

export interface RetryRequest {
  afterAttempt: number;
}

/** Search attributes of a delivery (registered by deploy/local/services.ts through workflows/client.ts). */
export const WEBHOOK_SEARCH_ATTRIBUTES = {
  destination: 'FolioWebhookDestination',
  event: 'FolioWebhookEvent',
  mailbox: 'FolioMailbox',
  outcome: 'FolioWebhookOutcome',
} as const;

export interface WebhookDeliveryInput {
  destinationUuid: string;
  eventUuid: string;
  /** A manual resend's round (an extension); absent for the spec's delivery. */
  round?: number;
  /** Absent: the retry schedule's attempts. A webhook.test (an extension) makes one. */
  maxAttempts?: number;
  /**
   * Attempts run as local activities: every start since 2026-11-24 (workflows/client.ts) says so. Deliveries started
   * before run theirs as activities to the end, and their histories replay unchanged. A flag in the input rather than
   * patched(), because a patch marker also upserts the TemporalChangeVersion search attribute: one more history event
   * and visibility write in every delivery, the very cost this change removes.
   */
  localAttempts?: boolean;
}

type WebhookDeliveryOutcome = 'succeeded' | 'failed' | 'stopped' | 'disabled';

export interface WebhookDeliveryResult {
  outcome: WebhookDeliveryOutcome;
  /** Attempts made (the last attempt number). */
  attempts: number;
}

function markOutcome(outcome: WebhookDeliveryOutcome | 'waiting'): void {
  upsertSearchAttributes([
    { key: { name: WEBHOOK_SEARCH_ATTRIBUTES.outcome, type: 'KEYWORD' }, value: outcome },
  ]);
}

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  let retryRequests = 0;
  let retryAfterAttempt = 0;
  setHandler(retryWebhookDeliverySignal, (request) => {
    retryRequests++;
    retryAfterAttempt = Math.max(retryAfterAttempt, request?.afterAttempt ?? 0);
  });
  const attemptDelivery = input.localAttempts ? attemptInWorkflowTask : attemptWebhookDelivery;
  for (let attempt = 1; ; attempt++) {
    const result = await attemptDelivery({ ...input, attempt });
    const retryInMs =
      result.outcome !== 'failure'
        ? null
        : result.retryInMs !== undefined
          ? result.retryInMs
          : attempt < (input.maxAttempts ?? ATTEMPTS_BEFORE_SCHEDULE)
            ? (result.retryDelayMs ?? null)
            : null;
    if (retryInMs === null) {
      const outcome: WebhookDeliveryOutcome =
        result.outcome === 'success' ? 'succeeded' : result.outcome === 'failure' ? 'failed' : result.outcome;
      markOutcome(outcome);
      // A success is told by its attempt's one line (the activity's, activities/activity-scope.ts) already; a
      // workflow's own line crosses into the worker through a sink, a cost the common case need not pay.
      if (outcome !== 'succeeded')
        log.info('webhook delivery finished', {
          destinationUuid: input.destinationUuid,
          eventUuid: input.eventUuid,
          outcome,
          attempts: attempt,
        });
      return { outcome, attempts: attempt };
    }
    markOutcome('waiting');
    const seen = retryRequests;
    await condition(() => retryRequests !== seen || retryAfterAttempt >= attempt, retryInMs);
  }
}

export interface WebhookHistoryPurgeResult {
  deleted: number;
}

/** Deletes delivery history older than FOLIO_WEBHOOK_HISTORY_RETENTION (30 days), read when the activity runs. */
export async function webhookHistoryPurgeWorkflow(): Promise<WebhookHistoryPurgeResult> {
  return { deleted: await purgeWebhookHistory() };
}
