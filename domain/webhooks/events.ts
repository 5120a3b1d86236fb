// Webhook events and their fan-out: an email.received event is recorded in the transaction that stores the email,
// with one delivery per active destination subscribed to the mailbox, each started through the outbox after commit.
import { randomUUID } from 'node:crypto';
import type { UnitOfWork } from '../unit-of-work.js';
import { notFound } from '../errors.js';
import { prepared } from '../prepared.js';
import { isUuid } from '../uuid.js';
import { invalidTransition } from './errors.js';
import { TEST_ATTEMPTS } from './schedule.js';

const EVENT_ID_PREFIX = 'whevt_';
export const EMAIL_RECEIVED = 'email.received';
/** An extension (docs/extensions.md § Webhooks), outside the spec's single event type: sent only on request. */
export const WEBHOOK_TEST = 'webhook.test';

export const eventId = (eventUuid: string) => `${EVENT_ID_PREFIX}${eventUuid}`;

/** The uuid inside a `whevt_` id (a bare uuid is accepted too), or undefined when it is neither. */
export function eventUuidOf(id: string): string | undefined {
  const uuid = id.startsWith(EVENT_ID_PREFIX) ? id.slice(EVENT_ID_PREFIX.length) : id;
  return isUuid(uuid) ? uuid.toLowerCase() : undefined;
}

/**
 * Records email.received and one delivery per destination that is active now and subscribed to the mailbox. A
 * paused or disabled destination gets no delivery row and no workflow: its events are not queued, so resuming or
 * enabling it later replays nothing (spec/webhooks.md § States and transitions). Answers the event id.
 */
export async function recordEmailReceived(
  unit: UnitOfWork,
  email: { workspaceUuid: string; mailboxUuid: string; emailUuid: string },
): Promise<string> {
  const { tx } = unit;
  const eventUuid = randomUUID();
  // One statement: the event, and a delivery for each active destination subscribed to the mailbox.
  const { rows } = await prepared<{ destination_uuid: string }>(
    tx,
    'webhook_email_received',
    `with event as (
       insert into webhook_events (uuid, workspace_uuid, mailbox_uuid, email_uuid, type) values (:eventUuid::uuid, :workspaceUuid::uuid, :mailboxUuid::uuid, :emailUuid::uuid, :type)
     )
     insert into webhook_deliveries (destination_uuid, event_uuid, workspace_uuid, mailbox_uuid)
     select d.uuid, :eventUuid::uuid, :workspaceUuid::uuid, :mailboxUuid::uuid
       from webhook_subscriptions s join webhook_destinations d on d.uuid = s.destination_uuid
      where s.mailbox_uuid = :mailboxUuid::uuid and s.event_type = :type and d.status = 'active'
     returning destination_uuid`,
    {
      eventUuid,
      workspaceUuid: email.workspaceUuid,
      mailboxUuid: email.mailboxUuid,
      emailUuid: email.emailUuid,
      type: EMAIL_RECEIVED,
    },
  );
  const destinations = rows.map((row) => row.destination_uuid).sort();
  for (const destinationUuid of destinations) {
    await unit.workflows.startWebhookDelivery({
      destinationUuid,
      eventUuid,
      workspaceUuid: email.workspaceUuid,
      mailboxUuid: email.mailboxUuid,
    });
  }
  return eventId(eventUuid);
}

/**
 * Records a webhook.test event and its one delivery to an active destination (409 otherwise), started through the
 * outbox: signed as every delivery is, sent once, kept in the history, and never moving the auto-disable counter.
 * Answers the event's uuid.
 */
export async function sendTestEvent(unit: UnitOfWork, destinationUuid: string): Promise<string> {
  const { tx } = unit;
  if (!isUuid(destinationUuid)) throw notFound();
  const destination = await tx('webhook_destinations')
    .where({ uuid: destinationUuid })
    .forUpdate()
    .first('status', 'workspace_uuid');
  if (!destination) throw notFound();
  if (destination.status !== 'active')
    throw invalidTransition(`The destination is ${destination.status}; resume or enable it first.`);
  const eventUuid = randomUUID();
  const workspaceUuid = destination.workspace_uuid as string;
  await tx('webhook_events').insert({ uuid: eventUuid, workspace_uuid: workspaceUuid, type: WEBHOOK_TEST });
  await tx('webhook_deliveries').insert({
    destination_uuid: destinationUuid,
    event_uuid: eventUuid,
    workspace_uuid: workspaceUuid,
  });
  await unit.workflows.startWebhookDelivery({
    destinationUuid,
    eventUuid,
    workspaceUuid,
    mailboxUuid: null,
    maxAttempts: TEST_ATTEMPTS,
  });
  return eventUuid;
}
