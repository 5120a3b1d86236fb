// The objects of the webhook admin API and of the operator CLI (docs/webhooks.md § Admin API), field by field.
import type { AttemptRow, DailyStats, DeliveryRow } from '../../domain/webhooks/deliveries.js';
import { deliveryId } from '../../domain/webhooks/deliveries.js';
import type { Destination } from '../../domain/webhooks/destinations.js';
import { eventId } from '../../domain/webhooks/events.js';
import { webhookDeliveryWorkflowId } from '../../workflows/ids.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentDestination(destination: Destination) {
  return {
    object: 'webhook_destination',
    uuid: destination.uuid,
    workspace_uuid: destination.workspace_uuid,
    url: destination.url,
    description: destination.description,
    mailboxes: destination.mailboxes,
    status: destination.status,
    disabled_reason: destination.disabled_reason,
    disabled_at: iso(destination.disabled_at),
    consecutive_failures: destination.consecutive_failures,
    previous_secret_expires_at: iso(destination.previous_secret_expires_at),
    created_at: destination.created_at.toISOString(),
    updated_at: destination.updated_at.toISOString(),
  };
}

/** The create and rotate answers: the destination with its new secret, shown this once. */
export function presentDestinationWithSecret(result: { destination: Destination; signingSecret: string }) {
  return { ...presentDestination(result.destination), signing_secret: result.signingSecret };
}

export function presentSecrets(secrets: {
  signingSecret: string;
  previousSigningSecret: string | null;
  previousExpiresAt: Date | null;
}) {
  return {
    object: 'webhook_signing_secret',
    signing_secret: secrets.signingSecret,
    previous_signing_secret: secrets.previousSigningSecret,
    previous_secret_expires_at: iso(secrets.previousExpiresAt),
  };
}

export function presentDelivery(delivery: DeliveryRow) {
  return {
    object: 'webhook_delivery',
    destination_uuid: delivery.destination_uuid,
    event_id: eventId(delivery.event_uuid),
    round: delivery.round,
    mailbox_uuid: delivery.mailbox_uuid,
    workflow_id: webhookDeliveryWorkflowId(delivery.destination_uuid, delivery.event_uuid, delivery.round),
    state: delivery.state,
    attempts: delivery.attempts,
    next_attempt_at: iso(delivery.next_attempt_at),
    terminated_by: delivery.terminated_by,
    terminated_reason: delivery.terminated_reason,
    created_at: delivery.created_at.toISOString(),
    finished_at: iso(delivery.finished_at),
  };
}

function presentAttempt(attempt: AttemptRow) {
  return {
    object: 'webhook_attempt',
    delivery_id: deliveryId(attempt.uuid),
    event_id: eventId(attempt.event_uuid),
    round: attempt.round,
    attempt: attempt.attempt,
    outcome: attempt.outcome,
    status_code: attempt.status_code,
    error_class: attempt.error_class,
    response_time_ms: attempt.response_time_ms,
    started_at: attempt.started_at.toISOString(),
    finished_at: iso(attempt.finished_at),
  };
}

export function presentDailyStats(day: DailyStats) {
  return {
    day: day.day,
    attempts: day.attempts,
    successes: day.successes,
    failures: day.failures,
    p50_ms: day.p50_ms,
    p95_ms: day.p95_ms,
  };
}

/** A page of attempts; next_cursor is the last one's delivery id, for ?cursor= on the next page (null on the last). */
export function presentAttemptPage(attempts: AttemptRow[], limit: number) {
  const last = attempts.length === limit ? attempts[attempts.length - 1] : undefined;
  return {
    object: 'list',
    data: attempts.map(presentAttempt),
    next_cursor: last ? deliveryId(last.uuid) : null,
  };
}
