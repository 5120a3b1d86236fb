// One event's delivery to one destination, attempt by attempt. Each attempt is claimed in the database (one row per
// attempt number) before anything is sent, and its result recorded after, so a retried activity or a crashed
// worker can never send two attempts under the same number; counters and state move in the same transaction.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { UnitOfWork } from '../unit-of-work.js';
import { notFound } from '../errors.js';
import { isUuid } from '../uuid.js';
import { EMAIL_RECEIVED, eventId, TEST_ATTEMPTS } from './events.js';
import { invalidTransition } from './errors.js';
import { signingSecrets, type SecretRow } from './secrets.js';

const MAX_ATTEMPTS = 5;

/** X-Service-Delivery-ID: one per attempt, the attempt row's uuid behind a prefix. */
export const deliveryId = (attemptUuid: string) => `whdel_${attemptUuid}`;

/** The attempt uuid a delivery id names (a page cursor is one), or undefined for anything else. */
export const attemptUuidOfDeliveryId = (id: string): string | undefined =>
  id.startsWith('whdel_') && isUuid(id.slice('whdel_'.length)) ? id.slice('whdel_'.length) : undefined;

export interface DeliveryKey {
  destinationUuid: string;
  eventUuid: string;
  /** 0 for the spec's delivery of the event; 1, 2, … for manual resends (docs/extensions.md § Webhooks). */
  round?: number;
}

export interface AttemptKey extends DeliveryKey {
  attempt: number;
  /** The attempts this delivery makes: 5 (the spec), or 1 for a webhook.test. */
  maxAttempts?: number;
}

/** What the workflow learns of an attempt: ids and outcomes only. */
export type AttemptOutcome = 'success' | 'failure' | 'stopped' | 'disabled';

type AttemptPlan =
  | { action: 'finished'; outcome: AttemptOutcome }
  | { action: 'send'; url: string; secrets: string[]; body: Buffer; eventType: string };

const keyOf = (key: DeliveryKey) => ({
  destination_uuid: key.destinationUuid,
  event_uuid: key.eventUuid,
  round: key.round ?? 0,
});

/** The body every attempt of an event sends, byte for byte: identifiers only (spec/webhooks.md § Delivery request). */
export function eventBody(event: {
  uuid: string;
  type: string;
  workspace_uuid: string;
  email_uuid: string | null;
  created_at: Date;
}): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: eventId(event.uuid),
      type: event.type,
      workspace_uuid: event.workspace_uuid,
      // ISO 8601 with an explicit offset: always UTC, written +00:00 rather than Z.
      created_at: event.created_at.toISOString().replace('Z', '+00:00'),
      // webhook.test (an extension) carries no data.
      data: event.type === EMAIL_RECEIVED ? { email_uuid: event.email_uuid } : {},
    }),
  );
}

const IN_FLIGHT = ['scheduled', 'sending', 'waiting'];

/** Ends a delivery that is still in flight; a terminated one stays terminated. */
async function finishDelivery(
  knex: Knex,
  key: DeliveryKey,
  state: 'succeeded' | 'failed' | 'stopped',
): Promise<void> {
  await knex('webhook_deliveries')
    .where(keyOf(key))
    .whereIn('state', IN_FLIGHT)
    .update({ state, finished_at: knex.fn.now(), next_attempt_at: null });
}

/**
 * What attempt n should do: report an outcome already recorded (the activity ran before), close an attempt a crash
 * left claimed but unrecorded, stop because the destination is no longer active, or send.
 */
async function planAttempt(
  knex: Knex,
  masterKey: Buffer,
  key: AttemptKey,
  rules: RecordRules,
  now = new Date(),
): Promise<AttemptPlan> {
  const delivery = await knex('webhook_deliveries').where(keyOf(key)).first();
  if (!delivery || delivery.state === 'terminated') return { action: 'finished', outcome: 'stopped' };
  const existing = await knex('webhook_attempts')
    .where({ ...keyOf(key), attempt: key.attempt })
    .first();
  if (existing?.outcome === 'pending') {
    // Claimed, then the worker died or the activity timed out before the result was written: the POST may or may
    // not have reached the receiver. The number is spent; the attempt counts as failed (docs/webhooks.md § Crashes).
    const interrupted = { statusCode: null, errorClass: 'interrupted', responseTimeMs: null };
    return { action: 'finished', outcome: await recordAttempt(knex, key, existing.uuid, interrupted, rules) };
  }
  if (existing)
    return {
      action: 'finished',
      outcome: existing.error_class === 'address_refused' ? 'disabled' : existing.outcome,
    };
  const destination = await knex('webhook_destinations').where({ uuid: key.destinationUuid }).first();
  if (!destination || destination.status !== 'active') {
    // Paused or disabled while this delivery waited: it stops before its next attempt and is never replayed.
    await finishDelivery(knex, key, 'stopped');
    return { action: 'finished', outcome: 'stopped' };
  }
  const event = await knex('webhook_events').where({ uuid: key.eventUuid }).first();
  if (!event) return { action: 'finished', outcome: 'stopped' };
  return {
    action: 'send',
    url: destination.url,
    secrets: signingSecrets(masterKey, destination as SecretRow, now),
    body: eventBody(event),
    eventType: event.type,
  };
}

export type ClaimedAttempt =
  | { action: 'finished'; outcome: AttemptOutcome }
  | { action: 'send'; attemptUuid: string; url: string; secrets: string[]; body: Buffer; eventType: string };

/**
 * Claims attempt n, with the delivery id it will send, and answers what to send; or answers the outcome when there is
 * nothing to send (planAttempt). The common case (the delivery in flight, its destination active, its event there,
 * the number unclaimed) is one statement; anything else is worked out by planAttempt one query at a time. A number
 * that another run of the attempt claimed between the plan and the claim throws: the retry then closes that claim.
 */
export async function claimAttempt(
  knex: Knex,
  masterKey: Buffer,
  key: AttemptKey,
  rules: RecordRules,
  now = new Date(),
): Promise<ClaimedAttempt> {
  const attemptUuid = randomUUID();
  const { rows } = await knex.raw(
    `with ready as (
       select w.uuid, w.url, w.secret_wrapped, w.previous_secret_wrapped, w.previous_secret_expires_at,
              e.uuid as event_uuid, e.type, e.workspace_uuid, e.email_uuid, e.created_at
         from webhook_deliveries d
         join webhook_destinations w on w.uuid = d.destination_uuid and w.status = 'active'
         join webhook_events e on e.uuid = d.event_uuid
        where d.destination_uuid = :destination and d.event_uuid = :event and d.round = :round
          and d.state in ('scheduled', 'sending', 'waiting')
     ), claimed as (
       insert into webhook_attempts (uuid, destination_uuid, event_uuid, round, attempt)
       select cast(:attemptUuid as uuid), ready.uuid, ready.event_uuid, cast(:round as integer), cast(:attempt as integer) from ready
       on conflict (destination_uuid, event_uuid, round, attempt) do nothing
       returning uuid
     ), sending as (
       update webhook_deliveries set state = 'sending', attempts = :attempt, next_attempt_at = null
        where destination_uuid = :destination and event_uuid = :event and round = :round
          and state in ('scheduled', 'sending', 'waiting')
          and exists (select 1 from claimed)
     )
     select ready.* from ready, claimed`,
    {
      destination: key.destinationUuid,
      event: key.eventUuid,
      round: key.round ?? 0,
      attempt: key.attempt,
      attemptUuid,
    },
  );
  const ready = rows[0];
  if (ready) {
    const event = { ...ready, uuid: ready.event_uuid };
    return {
      action: 'send',
      attemptUuid,
      url: ready.url,
      secrets: signingSecrets(masterKey, ready as SecretRow, now),
      body: eventBody(event),
      eventType: ready.type,
    };
  }
  const plan = await planAttempt(knex, masterKey, key, rules, now);
  if (plan.action === 'finished') return plan;
  const claimed = await claimNumber(knex, key, attemptUuid);
  if (!claimed) throw new Error(`attempt ${key.attempt} was claimed by another run`);
  return { ...plan, attemptUuid: claimed };
}

/** Claims attempt n: its row, with the delivery id it will send. Undefined when another run claimed it first. */
async function claimNumber(knex: Knex, key: AttemptKey, attemptUuid: string): Promise<string | undefined> {
  return knex.transaction(async (tx) => {
    const [row] = await tx('webhook_attempts')
      .insert({ uuid: attemptUuid, ...keyOf(key), attempt: key.attempt })
      .onConflict(['destination_uuid', 'event_uuid', 'round', 'attempt'])
      .ignore()
      .returning('uuid');
    if (!row) return undefined;
    await tx('webhook_deliveries')
      .where(keyOf(key))
      .whereIn('state', IN_FLIGHT)
      .update({ state: 'sending', attempts: key.attempt, next_attempt_at: null });
    return row.uuid as string;
  });
}

export interface AttemptResult {
  statusCode: number | null;
  errorClass: string | null;
  responseTimeMs: number | null;
}

export interface RecordRules {
  /** FOLIO_WEBHOOK_DISABLE_AFTER: exhausted events in a row that disable the destination. */
  disableAfter: number;
  /** The wait before the next attempt, shown by `folio delivery list` as next_attempt_at. */
  retryDelayMs: number;
  /** The URL check refused the target: disable the destination now, with this reason, and try no more. */
  disableReason?: string;
}

const isSuccess = (result: AttemptResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300 && !result.errorClass;

/**
 * Records a claimed attempt's result once (a second record of the same attempt changes nothing) and moves the
 * counters: a 2xx resets the destination's consecutive-failure counter; a fifth failure counts one exhausted event,
 * and the DISABLE_AFTER-th in a row disables the destination with the reason and time.
 */
export async function recordAttempt(
  knex: Knex,
  key: AttemptKey,
  attemptUuid: string,
  result: AttemptResult,
  rules: RecordRules,
): Promise<AttemptOutcome> {
  const success = isSuccess(result);
  if (success && !rules.disableReason && (await recordSuccess(knex, key, attemptUuid, result)))
    return 'success';
  return knex.transaction(async (tx) => {
    const [recorded] = await tx('webhook_attempts')
      .where({ uuid: attemptUuid, outcome: 'pending' })
      .update({
        outcome: success ? 'success' : 'failure',
        status_code: result.statusCode,
        error_class: rules.disableReason ? 'address_refused' : result.errorClass,
        response_time_ms: result.responseTimeMs,
        finished_at: tx.fn.now(),
      })
      .returning('*');
    if (!recorded) {
      const row = await tx('webhook_attempts').where({ uuid: attemptUuid }).first();
      return row?.error_class === 'address_refused'
        ? 'disabled'
        : row?.outcome === 'success'
          ? 'success'
          : 'failure';
    }
    // Only the spec's own deliveries of email.received move the auto-disable counter: a webhook.test or a manual
    // resend never does (docs/extensions.md § Webhooks).
    const counted =
      (key.round ?? 0) === 0 &&
      (await tx('webhook_events').where({ uuid: key.eventUuid }).first('type'))?.type === EMAIL_RECEIVED;
    if (success) {
      if (counted)
        await tx('webhook_destinations')
          .where({ uuid: key.destinationUuid })
          .update({ consecutive_failures: 0 });
      await finishDelivery(tx, key, 'succeeded');
      return 'success';
    }
    if (rules.disableReason) {
      await disable(tx, key.destinationUuid, rules.disableReason);
      await finishDelivery(tx, key, 'stopped');
      return 'disabled';
    }
    if (key.attempt < (key.maxAttempts ?? MAX_ATTEMPTS)) {
      await tx('webhook_deliveries')
        .where(keyOf(key))
        .whereIn('state', IN_FLIGHT)
        .update({
          state: 'waiting',
          next_attempt_at: tx.raw(`now() + (? * interval '1 millisecond')`, [rules.retryDelayMs]),
        });
      return 'failure';
    }
    await finishDelivery(tx, key, 'failed');
    if (!counted) return 'failure';
    const [destination] = await tx('webhook_destinations')
      .where({ uuid: key.destinationUuid })
      .increment('consecutive_failures', 1)
      .returning(['consecutive_failures', 'status']);
    if (
      destination &&
      destination.status === 'active' &&
      destination.consecutive_failures >= rules.disableAfter
    ) {
      await disable(
        tx,
        key.destinationUuid,
        `${destination.consecutive_failures} consecutive events failed all ${MAX_ATTEMPTS} attempts`,
      );
    }
    return 'failure';
  });
}

/**
 * The common case of recordAttempt in one statement: a 2xx recorded, the destination's counter reset (written only
 * when it is not 0 already, so deliveries to one destination do not queue on its row) and the delivery finished.
 * False when the attempt was recorded before; recordAttempt then answers what was recorded.
 */
async function recordSuccess(
  knex: Knex,
  key: AttemptKey,
  attemptUuid: string,
  result: AttemptResult,
): Promise<boolean> {
  const { rows } = await knex.raw(
    `with recorded as (
       update webhook_attempts
          set outcome = 'success', status_code = :statusCode, error_class = null, response_time_ms = :responseTimeMs, finished_at = now()
        where uuid = :attemptUuid and outcome = 'pending'
       returning uuid
     ), reset as (
       update webhook_destinations set consecutive_failures = 0
        where uuid = :destination and consecutive_failures <> 0 and exists (select 1 from recorded)
          -- Only the spec's own deliveries of email.received move the counter (recordAttempt's rule).
          and cast(:round as integer) = 0
          and exists (select 1 from webhook_events where uuid = :event and type = :counted)
     ), finished as (
       update webhook_deliveries set state = 'succeeded', finished_at = now(), next_attempt_at = null
        where destination_uuid = :destination and event_uuid = :event and round = :round
          and state in ('scheduled', 'sending', 'waiting')
          and exists (select 1 from recorded)
     )
     select uuid from recorded`,
    {
      statusCode: result.statusCode,
      responseTimeMs: result.responseTimeMs,
      attemptUuid,
      destination: key.destinationUuid,
      event: key.eventUuid,
      round: key.round ?? 0,
      counted: EMAIL_RECEIVED,
    },
  );
  return rows.length > 0;
}

async function disable(tx: Knex.Transaction, destinationUuid: string, reason: string): Promise<void> {
  await tx('webhook_destinations').where({ uuid: destinationUuid }).whereNot({ status: 'disabled' }).update({
    status: 'disabled',
    disabled_reason: reason,
    disabled_at: tx.fn.now(),
    updated_at: tx.fn.now(),
  });
}

/** Records who stopped a delivery and why, then has Temporal end its workflow after the commit. 409 once finished. */
export async function terminateDelivery(
  unit: UnitOfWork,
  key: DeliveryKey,
  by: { actor: string; reason: string },
): Promise<DeliveryRow> {
  const [row] = await unit
    .tx('webhook_deliveries')
    .where(keyOf(key))
    .whereIn('state', IN_FLIGHT)
    .update({
      state: 'terminated',
      terminated_by: by.actor,
      terminated_reason: by.reason,
      finished_at: unit.tx.fn.now(),
      next_attempt_at: null,
    })
    .returning('*');
  if (!row) throw deliveryNotInFlight(await findDelivery(unit.tx, key));
  unit.workflows.terminateWebhookDelivery(key, `terminated by ${by.actor}: ${by.reason}`);
  return row;
}

/** Makes a delivery that waits between attempts attempt now (its next number); 409 unless it is waiting. */
export async function retryDeliveryNow(unit: UnitOfWork, key: DeliveryKey): Promise<DeliveryRow> {
  const delivery = await findDelivery(unit.tx, key);
  if (delivery?.state !== 'waiting') throw deliveryNotInFlight(delivery);
  unit.workflows.retryWebhookDelivery({ ...key, afterAttempt: delivery.attempts });
  return delivery;
}

export interface DeliveryRow {
  destination_uuid: string;
  event_uuid: string;
  round: number;
  workspace_uuid: string;
  mailbox_uuid: string | null;
  state: string;
  attempts: number;
  next_attempt_at: Date | null;
  terminated_by: string | null;
  terminated_reason: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export type DeliveryStateFilter = 'waiting' | 'running' | 'done';
const STATES: Record<DeliveryStateFilter, string[]> = {
  waiting: ['waiting'],
  running: ['scheduled', 'sending'],
  done: ['succeeded', 'failed', 'stopped', 'terminated'],
};

/** Deliveries newest first; without a state filter, those in flight (waiting or running). */
export async function listDeliveries(
  knex: Knex,
  filter: { workspaceUuid?: string; destinationUuid?: string; state?: DeliveryStateFilter; limit?: number },
): Promise<DeliveryRow[]> {
  const query = knex('webhook_deliveries')
    .whereIn('state', filter.state ? STATES[filter.state] : [...STATES.waiting, ...STATES.running])
    .orderBy('created_at', 'desc')
    .limit(filter.limit ?? 100);
  if (filter.workspaceUuid) query.where({ workspace_uuid: filter.workspaceUuid });
  if (filter.destinationUuid) query.where({ destination_uuid: filter.destinationUuid });
  return query;
}

export async function findDelivery(knex: Knex, key: DeliveryKey): Promise<DeliveryRow | undefined> {
  return knex('webhook_deliveries').where(keyOf(key)).first();
}

function deliveryNotInFlight(delivery: DeliveryRow | undefined) {
  return delivery ? invalidTransition(`That delivery is ${delivery.state}.`) : notFound('No such delivery.');
}

export interface AttemptRow {
  uuid: string;
  destination_uuid: string;
  event_uuid: string;
  round: number;
  attempt: number;
  outcome: 'pending' | 'success' | 'failure';
  status_code: number | null;
  error_class: string | null;
  response_time_ms: number | null;
  started_at: Date;
  finished_at: Date | null;
}

/** An attempt with the type of the event it carried (`email.received`, or the extension's `webhook.test`). */
export interface TypedAttemptRow extends AttemptRow {
  event_type: string;
}

/** Attempts newest first, a page at a time: `after` is the uuid of the last attempt of the page before. */
export async function listAttempts(
  knex: Knex,
  destinationUuid: string,
  page: { limit: number; after?: string; eventUuid?: string },
): Promise<TypedAttemptRow[]> {
  const query = knex('webhook_attempts as a')
    .join('webhook_events as e', 'e.uuid', 'a.event_uuid')
    .where({ 'a.destination_uuid': destinationUuid })
    .orderBy([
      { column: 'a.started_at', order: 'desc' },
      { column: 'a.uuid', order: 'desc' },
    ])
    .limit(page.limit)
    .select('a.*', 'e.type as event_type');
  if (page.eventUuid) query.where({ 'a.event_uuid': page.eventUuid });
  // Compared in the database, at its microsecond precision, so no row between two pages is skipped.
  if (page.after)
    query.whereRaw(
      '(a.started_at, a.uuid) < (select started_at, uuid from webhook_attempts where uuid = ?)',
      [page.after],
    );
  return query;
}

/** Each destination's most recent finished attempt (the destinations list shows its outcome and time). */
export async function lastFinishedAttempts(
  knex: Knex,
  destinationUuids: string[],
): Promise<Map<string, AttemptRow>> {
  if (!destinationUuids.length) return new Map();
  const rows: AttemptRow[] = await knex('webhook_attempts')
    .distinctOn('destination_uuid')
    .whereIn('destination_uuid', destinationUuids)
    .whereNot({ outcome: 'pending' })
    .orderBy([{ column: 'destination_uuid' }, { column: 'started_at', order: 'desc' }])
    .select('*');
  return new Map(rows.map((row) => [row.destination_uuid, row]));
}

export interface DailyStats {
  day: string;
  attempts: number;
  successes: number;
  failures: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

/** The last `days` days (UTC, today included), one row per day even when it had no attempt. */
export async function dailyStats(knex: Knex, destinationUuid: string, days = 7): Promise<DailyStats[]> {
  const { rows } = await knex.raw(
    `select to_char(d.day, 'YYYY-MM-DD') as day,
            count(a.uuid)::int as attempts,
            count(a.uuid) filter (where a.outcome = 'success')::int as successes,
            count(a.uuid) filter (where a.outcome = 'failure')::int as failures,
            percentile_cont(0.5) within group (order by a.response_time_ms) as p50_ms,
            percentile_cont(0.95) within group (order by a.response_time_ms) as p95_ms
       from generate_series((now() at time zone 'utc')::date - (? - 1), (now() at time zone 'utc')::date, interval '1 day') as d(day)
       left join webhook_attempts a
         on a.destination_uuid = ? and a.outcome <> 'pending'
        and a.started_at >= d.day at time zone 'utc' and a.started_at < (d.day + interval '1 day') at time zone 'utc'
      group by d.day order by d.day`,
    [days, destinationUuid],
  );
  return rows.map((row: DailyStats) => ({
    ...row,
    p50_ms: row.p50_ms === null ? null : Math.round(Number(row.p50_ms)),
    p95_ms: row.p95_ms === null ? null : Math.round(Number(row.p95_ms)),
  }));
}

/**
 * Deletes delivery history older than the cutoff: attempts, finished deliveries, and events no delivery names any
 * more, a bounded batch per statement so a large backlog never holds one long transaction. Answers the attempts deleted.
 */
export async function purgeWebhookHistory(knex: Knex, cutoff: Date, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await knex('webhook_attempts')
      .whereIn('uuid', knex('webhook_attempts').where('started_at', '<', cutoff).select('uuid').limit(batch))
      .delete();
    total += deleted;
    if (deleted < batch) break;
  }
  await knex('webhook_deliveries').whereNotIn('state', IN_FLIGHT).where('finished_at', '<', cutoff).delete();
  await knex('webhook_events')
    .where('created_at', '<', cutoff)
    .whereNotExists(
      knex('webhook_deliveries').whereRaw('webhook_deliveries.event_uuid = webhook_events.uuid'),
    )
    .delete();
  return total;
}

/**
 * A manual resend of one past event to one destination (an extension, docs/extensions.md § Webhooks; GitHub's
 * redeliver): a new delivery of the same event id, round n + 1, its attempts numbered from 1 again and signed anew.
 * Only an event the destination was sent in the first place (round 0 exists) can be resent: an event that occurred
 * while the destination was paused or disabled never had a delivery, and is never replayed. Refused while the
 * destination is not active or another delivery of the event to it is in flight.
 */
export async function resendDelivery(unit: UnitOfWork, key: DeliveryKey): Promise<DeliveryRow> {
  const { tx } = unit;
  if (!isUuid(key.destinationUuid)) throw notFound();
  const destination = await tx('webhook_destinations')
    .where({ uuid: key.destinationUuid })
    .forUpdate()
    .first('status');
  const rounds: DeliveryRow[] = await tx('webhook_deliveries')
    .where({ destination_uuid: key.destinationUuid, event_uuid: key.eventUuid })
    .orderBy('round');
  const original = rounds[0];
  if (!destination || !original || original.round !== 0) {
    throw notFound(
      'That event was never sent to this destination (not subscribed, or paused or disabled when it occurred); missed events are never replayed.',
    );
  }
  if (destination.status !== 'active')
    throw invalidTransition(`The destination is ${destination.status}; resume or enable it first.`);
  const inFlight = rounds.find((row) => IN_FLIGHT.includes(row.state));
  if (inFlight)
    throw invalidTransition(
      `A delivery of that event to this destination is still ${inFlight.state} (round ${inFlight.round}).`,
    );
  const round = rounds[rounds.length - 1]!.round + 1;
  const [row] = await tx('webhook_deliveries')
    .insert({
      ...keyOf({ ...key, round }),
      workspace_uuid: original.workspace_uuid,
      mailbox_uuid: original.mailbox_uuid,
    })
    .returning('*');
  const event = await tx('webhook_events').where({ uuid: key.eventUuid }).first('type');
  await unit.workflows.startWebhookDelivery({
    ...key,
    round,
    workspaceUuid: original.workspace_uuid,
    mailboxUuid: original.mailbox_uuid,
    maxAttempts: event.type === EMAIL_RECEIVED ? MAX_ATTEMPTS : TEST_ATTEMPTS,
  });
  return row as DeliveryRow;
}
