// One event's delivery to one destination, attempt by attempt. Each attempt is claimed in the database (one row per
// attempt number) before anything is sent, and its result recorded after, so a retried activity or a crashed
// worker can never send two attempts under the same number; counters and state move in the same transaction.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { UnitOfWork } from '../unit-of-work.js';
import { prepared } from '../prepared.js';
import { notFound } from '../errors.js';
import { isUuid } from '../uuid.js';
import { EMAIL_RECEIVED, eventId } from './events.js';
import { invalidTransition } from './errors.js';
import { attemptsOf, delayAfter, TEST_ATTEMPTS, type RetrySchedule } from './schedule.js';
import { signingSecrets, type SecretRow } from './secrets.js';

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
  /** Fewer attempts than the retry schedule's: 1 for a webhook.test (schedule.ts). */
  maxAttempts?: number;
}

/** What the workflow learns of an attempt: ids and outcomes only. */
export type AttemptOutcome = 'success' | 'failure' | 'stopped' | 'disabled';

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

/** What the claim reads: the destination's URL and secrets and the event the attempt carries. */
interface ReadyRow extends SecretRow {
  url: string;
  event_uuid: string;
  type: string;
  workspace_uuid: string;
  email_uuid: string | null;
  created_at: Date;
}

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

export type ClaimedAttempt =
  | { action: 'finished'; outcome: AttemptOutcome }
  | { action: 'send'; attemptUuid: string; url: string; secrets: string[]; body: Buffer; eventType: string };

/**
 * Claims attempt n, with the delivery id it will send, and answers what to send, in one statement: when the delivery
 * is in flight, its destination active, its event there and the number unclaimed. Anything else claims nothing, and
 * unclaimed() answers the outcome instead.
 */
export async function claimAttempt(
  knex: Knex,
  masterKey: Buffer,
  key: AttemptKey,
  rules: RecordRules,
  now = new Date(),
): Promise<ClaimedAttempt> {
  const attemptUuid = randomUUID();
  const round = key.round ?? 0;
  // Positional bindings, so the pool's connection is asked straight through pg (domain/prepared.ts).
  const { rows } = await prepared<ReadyRow>(
    knex,
    'webhook_claim',
    `with ready as (
       select w.uuid, w.url, w.secret_wrapped, w.previous_secret_wrapped, w.previous_secret_expires_at,
              e.uuid as event_uuid, e.type, e.workspace_uuid, e.email_uuid, e.created_at
         from webhook_deliveries d
         join webhook_destinations w on w.uuid = d.destination_uuid and w.status = 'active'
         join webhook_events e on e.uuid = d.event_uuid
        where d.destination_uuid = ? and d.event_uuid = ? and d.round = ?
          and d.state in ('scheduled', 'sending', 'waiting')
     ), claimed as (
       insert into webhook_attempts (uuid, destination_uuid, event_uuid, round, attempt)
       select cast(? as uuid), ready.uuid, ready.event_uuid, cast(? as integer), cast(? as integer) from ready
       on conflict (destination_uuid, event_uuid, round, attempt) do nothing
       returning uuid
     ), sending as (
       update webhook_deliveries set state = 'sending', attempts = cast(? as integer), next_attempt_at = null
        where destination_uuid = ? and event_uuid = ? and round = ?
          and state in ('scheduled', 'sending', 'waiting')
          and exists (select 1 from claimed)
     )
     select ready.* from ready, claimed`,
    [
      key.destinationUuid,
      key.eventUuid,
      round,
      attemptUuid,
      round,
      key.attempt,
      key.attempt,
      key.destinationUuid,
      key.eventUuid,
      round,
    ],
  );
  const ready = rows[0];
  if (!ready) return { action: 'finished', outcome: await unclaimed(knex, key, rules) };
  return {
    action: 'send',
    attemptUuid,
    url: ready.url,
    secrets: signingSecrets(masterKey, ready, now),
    body: eventBody({ ...ready, uuid: ready.event_uuid }),
    eventType: ready.type,
  };
}

/**
 * Why claimAttempt claimed nothing, one query at a time, as the outcome of attempt n: the outcome already recorded
 * (the activity ran before); a claim a crash left unrecorded, closed now; or "stopped", because the delivery is no
 * longer in flight or its destination no longer active.
 */
async function unclaimed(knex: Knex, key: AttemptKey, rules: RecordRules): Promise<AttemptOutcome> {
  const delivery = await knex('webhook_deliveries').where(keyOf(key)).first();
  if (!delivery || delivery.state === 'terminated') return 'stopped';
  const existing = await knex('webhook_attempts')
    .where({ ...keyOf(key), attempt: key.attempt })
    .first();
  if (existing?.outcome === 'pending') {
    // Claimed, then the worker died or the activity timed out before the result was written: the POST may or may
    // not have reached the receiver. The number is spent; the attempt counts as failed (docs/webhooks.md § Crashes).
    return recordAttempt(knex, key, existing.uuid, INTERRUPTED, rules);
  }
  if (existing) return existing.error_class === 'address_refused' ? 'disabled' : existing.outcome;
  // Finished without this attempt: nothing more is sent for it.
  if (!IN_FLIGHT.includes(delivery.state)) return 'stopped';
  const destination = await knex('webhook_destinations').where({ uuid: key.destinationUuid }).first();
  if (!destination || destination.status !== 'active') {
    // Paused or disabled while this delivery waited: it stops before its next attempt and is never replayed.
    await finishDelivery(knex, key, 'stopped');
    return 'stopped';
  }
  const event = await knex('webhook_events').where({ uuid: key.eventUuid }).first();
  if (!event) return 'stopped';
  // Everything is ready now that was not a moment ago (a destination resumed in between): the activity's retry
  // claims the number then.
  throw new Error(`attempt ${key.attempt} was not ready when claimed; the retry claims it`);
}

export interface AttemptResult {
  statusCode: number | null;
  errorClass: string | null;
  responseTimeMs: number | null;
  /** The receiver's answer (platform/webhook-transport.ts), when one began: stored for the admin app, never logged. */
  responseHeaders: Record<string, string | string[]> | null;
  responseBody: string | null;
}

/** An attempt with no answer: its target was refused, or it was interrupted. */
export const NO_ANSWER = {
  statusCode: null,
  responseTimeMs: null,
  responseHeaders: null,
  responseBody: null,
};
const INTERRUPTED: AttemptResult = { ...NO_ANSWER, errorClass: 'interrupted' };

export interface RecordRules {
  /** FOLIO_WEBHOOK_DISABLE_AFTER: exhausted events in a row that disable the destination. */
  disableAfter: number;
  /** This delivery's: whether a failure is followed by another attempt, and after how long (next_attempt_at). */
  schedule: RetrySchedule;
  /** The URL check refused the target: disable the destination now, with this reason, and try no more. */
  disableReason?: string;
}

const isSuccess = (result: AttemptResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300 && !result.errorClass;

/**
 * Only the spec's own deliveries of email.received move the auto-disable counter: a webhook.test or a manual resend
 * never does (docs/extensions.md § Webhooks). A condition on the delivery's round and its event, given as bindings.
 */
const counted = (round: string, event: string) => `cast(${round} as integer) = 0
  and exists (select 1 from webhook_events where uuid = ${event} and type = '${EMAIL_RECEIVED}')`;

/**
 * Records a claimed attempt's result once (a second record of the same attempt changes nothing, and answers what was
 * recorded) and moves the delivery and the counters by the retry schedule: a 2xx finishes the delivery and resets the
 * destination's consecutive-failure counter; a failure the schedule follows with another attempt sets the delivery
 * waiting until then; the last failure counts one exhausted event, and the DISABLE_AFTER-th in a row disables the
 * destination with the reason and time. A success is one statement (the common case, and the counter is written
 * only when it is not 0 already, so deliveries to one destination do not queue on its row); a failure is one
 * transaction.
 */
export async function recordAttempt(
  knex: Knex,
  key: AttemptKey,
  attemptUuid: string,
  result: AttemptResult,
  rules: RecordRules,
): Promise<AttemptOutcome> {
  if (isSuccess(result) && !rules.disableReason)
    return (await recordRow(knex, key, attemptUuid, result, 'success'))
      ? 'success'
      : recorded(knex, attemptUuid);
  return knex.transaction(async (tx) => {
    // A refused address is recorded as such: a later run of the attempt then answers 'disabled' too.
    const failed = rules.disableReason ? { ...result, errorClass: 'address_refused' } : result;
    if (!(await recordRow(tx, key, attemptUuid, failed, 'failure'))) return recorded(tx, attemptUuid);
    if (rules.disableReason) {
      await disable(tx, key.destinationUuid, rules.disableReason);
      await finishDelivery(tx, key, 'stopped');
      return 'disabled';
    }
    const retryInMs = delayAfter(rules.schedule, key.attempt);
    if (retryInMs !== null) {
      await tx('webhook_deliveries')
        .where(keyOf(key))
        .whereIn('state', IN_FLIGHT)
        .update({
          state: 'waiting',
          next_attempt_at: tx.raw(`now() + (? * interval '1 millisecond')`, [retryInMs]),
        });
      return 'failure';
    }
    await finishDelivery(tx, key, 'failed');
    const { rows } = await tx.raw(
      `update webhook_destinations set consecutive_failures = consecutive_failures + 1
        where uuid = :destination and ${counted(':round', ':event')}
       returning consecutive_failures, status`,
      { destination: key.destinationUuid, event: key.eventUuid, round: key.round ?? 0 },
    );
    const destination = rows[0];
    if (destination?.status === 'active' && destination.consecutive_failures >= rules.disableAfter) {
      await disable(
        tx,
        key.destinationUuid,
        `${destination.consecutive_failures} consecutive events failed all ${attemptsOf(rules.schedule)} attempts`,
      );
    }
    return 'failure';
  });
}

/**
 * Writes the attempt's row, once: false when it was recorded before. A success also finishes the delivery and resets
 * the destination's counter, in the same statement.
 */
async function recordRow(
  knex: Knex,
  key: AttemptKey,
  attemptUuid: string,
  result: AttemptResult,
  outcome: 'success' | 'failure',
): Promise<boolean> {
  const round = key.round ?? 0;
  const success = outcome === 'success';
  // Positional bindings: outside a transaction (a success) the pool's connection is asked straight through pg.
  const { rows } = await prepared<{ uuid: string }>(
    knex,
    'webhook_record',
    `with recorded as (
       update webhook_attempts
          set outcome = ?, status_code = ?, error_class = ?, response_time_ms = ?,
              response_headers = cast(? as jsonb), response_body = ?, finished_at = now()
        where uuid = ? and outcome = 'pending'
       returning uuid
     ), reset as (
       update webhook_destinations set consecutive_failures = 0
        where uuid = ? and consecutive_failures <> 0 and cast(? as boolean)
          and exists (select 1 from recorded) and ${counted('?', '?')}
     ), finished as (
       update webhook_deliveries set state = 'succeeded', finished_at = now(), next_attempt_at = null
        where destination_uuid = ? and event_uuid = ? and round = ?
          and state in ('scheduled', 'sending', 'waiting')
          and cast(? as boolean) and exists (select 1 from recorded)
     )
     select uuid from recorded`,
    [
      outcome,
      result.statusCode,
      success ? null : result.errorClass,
      result.responseTimeMs,
      result.responseHeaders && JSON.stringify(result.responseHeaders),
      result.responseBody,
      attemptUuid,
      key.destinationUuid,
      success,
      round,
      key.eventUuid,
      key.destinationUuid,
      key.eventUuid,
      round,
      success,
    ],
  );
  return rows.length > 0;
}

/** What a row recorded before answers: 'disabled' for a refused address (no retry), else its outcome. */
async function recorded(knex: Knex, attemptUuid: string): Promise<AttemptOutcome> {
  const row = await knex('webhook_attempts').where({ uuid: attemptUuid }).first();
  return row?.error_class === 'address_refused'
    ? 'disabled'
    : row?.outcome === 'success'
      ? 'success'
      : 'failure';
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
  /**
   * The receiver's answer (migration 026): its headers (names lower-case, set-cookie a list) and the first 4 KB of
   * its body as text; null when no answer began. Shown by the admin app only: the admin API's webhook_attempt has
   * the fields the OpenAPI document fixes (docs/webhooks.md § The receiver's answer). It may hold anything: never log it.
   */
  response_headers: Record<string, string | string[]> | null;
  response_body: string | null;
  started_at: Date;
  finished_at: Date | null;
}

/** An attempt with the type of the event it carried (`email.received`, or the extension's `webhook.test`). */
export interface TypedAttemptRow extends AttemptRow {
  event_type: string;
}

/**
 * Attempts newest first, a page at a time: `after` is the uuid of the last attempt of the page before. The admin app
 * narrows them by outcome and by when they started (`from` inclusive, `until` exclusive).
 */
export async function listAttempts(
  knex: Knex,
  destinationUuid: string,
  page: {
    limit: number;
    after?: string;
    eventUuid?: string;
    outcome?: AttemptRow['outcome'];
    from?: Date;
    until?: Date;
  },
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
  if (page.outcome) query.where({ 'a.outcome': page.outcome });
  if (page.from) query.where('a.started_at', '>=', page.from);
  if (page.until) query.where('a.started_at', '<', page.until);
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
  // One statement: the destination, locked (a pause, or another resend of the event, waits for this one), with every
  // round of the event's delivery to it and the event's type (a destination without any: one row, delivery fields null).
  const { rows } = await prepared<Partial<DeliveryRow> & { status: string; event_type: string | null }>(
    tx,
    'webhook_resend_rounds',
    `select w.status, e.type as event_type, d.*
       from webhook_destinations w
       left join webhook_deliveries d on d.destination_uuid = w.uuid and d.event_uuid = ?
       left join webhook_events e on e.uuid = d.event_uuid
      where w.uuid = ?
      order by d.round
        for update of w`,
    [key.eventUuid, key.destinationUuid],
  );
  const destination = rows[0];
  const rounds = rows.filter((row) => row.round !== null) as (DeliveryRow & { event_type: string })[];
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
  await unit.workflows.startWebhookDelivery({
    ...key,
    round,
    workspaceUuid: original.workspace_uuid,
    mailboxUuid: original.mailbox_uuid,
    // An email.received makes the retry schedule's attempts.
    maxAttempts: original.event_type === EMAIL_RECEIVED ? undefined : TEST_ATTEMPTS,
  });
  return row as DeliveryRow;
}
