// Activities of webhook delivery: one attempt (plan, URL check, claim, signed POST to the checked address, record),
// and the purge of old delivery history. An attempt logs one line, its activity's (activities/activity-scope.ts),
// with ids, numbers and outcomes only: never a subject, an e-mail address, a body, a header or a secret.
import { Context } from '@temporalio/activity';
import {
  claimAttempt,
  deliveryId,
  NO_ANSWER,
  purgeWebhookHistory,
  recordAttempt,
  type AttemptKey,
  type AttemptOutcome,
  type AttemptResult,
  type RecordRules,
} from '../domain/webhooks/deliveries.js';
import { eventId } from '../domain/webhooks/events.js';
import { delayAfter, retrySchedule } from '../domain/webhooks/schedule.js';
import { signatureHeader } from '../domain/webhooks/signature.js';
import { judgeTarget, targetPolicyFrom, type TargetPolicy } from '../domain/webhooks/target.js';
import type { Config } from '../platform/config.js';
import { webhookAttempts } from '../platform/metrics.js';
import { noteOnActivityLine } from './activity-scope.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export interface AttemptActivityResult {
  outcome: AttemptOutcome;
  /**
   * After a failure, the wait before the next attempt by the retry schedule (FOLIO_WEBHOOK_RETRY_DELAYS, read now);
   * null when no attempt follows (the last failed, or the outcome is not a failure). The workflow does as it says.
   */
  retryInMs?: number | null;
  /**
   * Only in results recorded before 2026-11-27 (replayed histories): the delay after every failure, the last
   * included, the count being the workflow's. Never written now.
   */
  retryDelayMs?: number;
}

/** What an attempt's line tells of the answer (never its headers or body, which the admin app shows). */
const answerFields = (result: AttemptResult) => ({
  status_code: result.statusCode,
  error_class: result.errorClass,
  response_time_ms: result.responseTimeMs,
});

export function createWebhookActivities(deps: ActivityDeps) {
  // One resolver per configuration, not one per attempt (each is a DNS channel of its own).
  const policies = new WeakMap<object, TargetPolicy>();
  const policyOf = (settings: Config['webhook']) => {
    if (!policies.has(settings)) policies.set(settings, targetPolicyFrom(settings));
    return policies.get(settings)!;
  };

  async function attempt(key: AttemptKey): Promise<AttemptActivityResult> {
    const settings = deps.settings().webhook;
    const rules: RecordRules = {
      disableAfter: settings.disableAfter,
      schedule: retrySchedule(settings.retryDelaysMs, key.maxAttempts),
    };
    // Named first, so the line of an attempt that throws (and is retried) names them too. `attempt` on the line is
    // Temporal's try of this activity; `webhook_attempt` is the delivery's numbered attempt (X-Service-Attempt).
    noteOnActivityLine({
      destination_uuid: key.destinationUuid,
      event_id: eventId(key.eventUuid),
      ...(key.round ? { round: key.round } : {}),
      webhook_attempt: key.attempt,
    });
    const recorded = (outcome: AttemptOutcome): AttemptActivityResult => {
      webhookAttempts.inc({ outcome });
      return done(outcome);
    };
    const done = (outcome: AttemptOutcome): AttemptActivityResult => {
      const retryInMs = outcome === 'failure' ? delayAfter(rules.schedule, key.attempt) : null;
      noteOnActivityLine(
        { webhook_outcome: outcome, ...(outcome === 'failure' ? { retry_in_ms: retryInMs } : {}) },
        { warn: outcome === 'disabled' },
      );
      return { outcome, retryInMs };
    };

    const claim = await claimAttempt(deps.db, deps.masterKey, key, rules);
    if (claim.action === 'finished') return done(claim.outcome);
    const { attemptUuid } = claim;
    const delivery = deliveryId(attemptUuid);
    noteOnActivityLine({ delivery_id: delivery });

    // Judged again at every attempt (after the claim, so the number is spent whatever the verdict), and the
    // connection goes to the address judged here.
    const target = await judgeTarget(claim.url, policyOf(settings));
    if (!target.allowed) {
      const unsent = { ...NO_ANSWER, errorClass: 'dns_error' };
      // The error class as recorded (recordAttempt records a refused inward address as such); the reason names the
      // host and the address it resolved to, never the URL's path or query (they may hold a receiver's token).
      noteOnActivityLine({
        ...answerFields(unsent),
        error_class: target.inward ? 'address_refused' : unsent.errorClass,
        target_refused: target.reason,
      });
      return recorded(
        await recordAttempt(
          deps.db,
          key,
          attemptUuid,
          unsent,
          target.inward ? { ...rules, disableReason: target.reason } : rules,
        ),
      );
    }

    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Folio-Webhooks/1',
      'x-service-signature': signatureHeader(claim.secrets, timestamp, claim.body),
      'x-service-event': claim.eventType,
      'x-service-delivery-id': delivery,
      'x-service-attempt': String(key.attempt),
    };
    const result = await deps.webhookTransport.post(target, claim.body, headers, {
      timeoutMs: settings.timeoutMs,
      keepIdleMs: settings.keepAliveMs,
    });
    noteOnActivityLine(answerFields(result));
    return recorded(await recordAttempt(deps.db, key, attemptUuid, result, rules));
  }

  return {
    /**
     * One numbered attempt; safe to retry (the claim keeps a number from being sent twice). Run as a local activity
     * it does not heartbeat: its workflow task's timeout notices a dead worker instead.
     */
    async attemptWebhookDelivery(input: AttemptKey): Promise<AttemptActivityResult> {
      return Context.current().info.isLocal ? attempt(input) : heartbeating(() => attempt(input));
    },

    /** Deletes history older than FOLIO_WEBHOOK_HISTORY_RETENTION; deleting what is gone deletes nothing. */
    async purgeWebhookHistory(): Promise<number> {
      const cutoff = new Date(Date.now() - deps.settings().webhook.historyRetentionMs);
      return heartbeating(() => purgeWebhookHistory(deps.db, cutoff));
    },
  };
}
