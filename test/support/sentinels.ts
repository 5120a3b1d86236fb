// Sentinels for webhook tests: proof that a delivery sends nothing more, in place of a pause after which nothing was
// seen. A delivery sends only from its workflow, and each attempt ends before the workflow goes on: once the workflow
// has closed, it sends nothing more. One never started (no row, no workflow, no outbox row for the sweep) never sends.
import { WorkflowNotFoundError } from '@temporalio/client';
import { expect } from 'vitest';
import type { StoreResult } from '../../domain/email/messages.js';
import { eventUuidOf } from '../../domain/webhooks/events.js';
import { db } from '../../platform/database.js';
import { temporalClient } from '../../platform/temporal.js';
import { webhookDeliveryWorkflowId } from '../../workflows/ids.js';

/** The event id of a stored mail that fired email.received (`deliver`'s answer); throws for any other. */
export function eventIdOf(result: StoreResult): string {
  if (result.outcome !== 'stored' || !result.event_id) throw new Error(`no event: ${JSON.stringify(result)}`);
  return result.event_id;
}

function workflowIdOf(destinationUuid: string, eventId: string): string {
  const eventUuid = eventUuidOf(eventId);
  if (!eventUuid) throw new Error(`not an event id: ${eventId}`);
  return webhookDeliveryWorkflowId(destinationUuid, eventUuid);
}

/**
 * Waits until the delivery of the event (a `whevt_` id) to the destination has closed, and answers its result.
 * Whatever that delivery sent, the receiver has it by then; nothing it sends can arrive later.
 */
export async function deliveryEnded(
  destinationUuid: string,
  eventId: string,
): Promise<{ outcome: string; attempts: number }> {
  const client = await temporalClient();
  return client.workflow.getHandle(workflowIdOf(destinationUuid, eventId)).result();
}

/**
 * Asserts that the event is never delivered to the destination: no delivery row, no workflow, and no outbox row a
 * sweep could start later. Call it once the transaction that recorded the event has returned: `deliver` and the API
 * start what a transaction asked for before they return, and leave in the outbox what they could not start.
 */
export async function expectNeverDelivered(destinationUuid: string, eventId: string): Promise<void> {
  const eventUuid = eventUuidOf(eventId);
  const workflowId = workflowIdOf(destinationUuid, eventId);
  expect(
    await db()('webhook_deliveries').where({ destination_uuid: destinationUuid, event_uuid: eventUuid }),
  ).toEqual([]);
  expect(await db()('workflow_outbox').where({ workflow_id: workflowId })).toEqual([]);
  const client = await temporalClient();
  await expect(client.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(
    WorkflowNotFoundError,
  );
}
