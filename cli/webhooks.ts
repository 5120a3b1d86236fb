// Operator commands for webhooks: destinations (create, show, switch, secret, history) and deliveries in flight
// (list, retry now, terminate). The on-call runbook is docs/webhooks-on-call.md.
import { userInfo } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import {
  presentAttemptPage,
  presentDailyStats,
  presentDelivery,
  presentDestination,
  presentDestinationWithSecret,
  presentSecrets,
} from '../api/presenters/webhooks.js';
import {
  dailyStats,
  findDelivery,
  listAttempts,
  listDeliveries,
  resendDelivery,
  retryDeliveryNow,
  terminateDelivery,
  type DeliveryStateFilter,
  attemptUuidOfDeliveryId,
} from '../domain/webhooks/deliveries.js';
import {
  changeDestinationStatus,
  createDestination,
  findDestination,
  listDestinations,
  revealSigningSecrets,
  rotateSigningSecret,
  updateDestination,
  type StatusChange,
} from '../domain/webhooks/destinations.js';
import { eventUuidOf, sendTestEvent } from '../domain/webhooks/events.js';
import { targetPolicyFrom } from '../domain/webhooks/target.js';
import type { UnitOfWork } from '../domain/unit-of-work.js';
import { config } from '../platform/config.js';
import { db } from '../platform/database.js';
import { closeTemporalClient } from '../platform/temporal.js';
import { workflowClient } from '../workflows/client.js';

import type { Output } from './output.js';

const destinationDeps = () => ({ masterKey: config().masterKey, policy: targetPolicyFrom(config().webhook) });

function cursorOption(value: string): string {
  const uuid = attemptUuidOfDeliveryId(value);
  if (!uuid)
    throw new InvalidArgumentError(
      'must be a delivery id (whdel_<uuid>), the next_cursor of the page before',
    );
  return uuid;
}

function eventOption(value: string): string {
  const uuid = eventUuidOf(value);
  if (!uuid) throw new InvalidArgumentError('must be an event id (whevt_<uuid>)');
  return uuid;
}

function roundOption(value: string): number {
  const round = Number(value);
  if (!Number.isInteger(round) || round < 0) throw new InvalidArgumentError('must be a whole number from 0');
  return round;
}

function stateOption(value: string): DeliveryStateFilter {
  if (value !== 'waiting' && value !== 'running' && value !== 'done')
    throw new InvalidArgumentError('must be waiting, running or done');
  return value;
}

function limitOption(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new InvalidArgumentError('must be an integer from 1 to 1000');
  return limit;
}

/** A transaction whose retry and terminate requests reach Temporal after the commit; the connection closes after. */
async function withWorkflows<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  try {
    return await workflowClient().runInTransaction(db())(work);
  } finally {
    await closeTemporalClient();
  }
}

export function registerWebhookCommands(program: Command, output: Output): void {
  const webhook = program.command('webhook');
  webhook
    .command('create')
    .description('Create an active destination; prints its signing secret once.')
    .requiredOption('--workspace <uuid>', 'workspace uuid')
    .requiredOption('--url <url>', 'https URL on port 443 whose host resolves to public addresses')
    .option('--mailbox <uuid...>', 'mailboxes to subscribe (none: it receives nothing)')
    .option('--description <text>', 'free text label')
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const created = await db().transaction((tx) =>
        createDestination(tx, destinationDeps(), {
          workspaceUuid: options.workspace,
          url: options.url,
          description: options.description,
          mailboxes: options.mailbox,
        }),
      );
      output(presentDestinationWithSecret(created), options);
    });
  webhook
    .command('list')
    .description("A workspace's destinations.")
    .requiredOption('--workspace <uuid>', 'workspace uuid')
    .option('--json', 'print one JSON object')
    .action(async (options) =>
      output({ data: (await listDestinations(db(), options.workspace)).map(presentDestination) }, options),
    );
  webhook
    .command('show')
    .description(
      'Show a destination: URL, mailboxes, status (with the reason of a disable) and failure counter.',
    )
    .argument('<uuid>', 'destination uuid')
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options) =>
      output(presentDestination(await findDestination(db(), uuid)), options),
    );
  webhook
    .command('update')
    .description(
      'Change the URL (checked again), the description or the mailboxes (the list given replaces the old one).',
    )
    .argument('<uuid>', 'destination uuid')
    .option('--url <url>', 'new URL')
    .option('--description <text>', 'new description')
    .option('--mailbox <uuid...>', 'the mailboxes to subscribe')
    .option('--no-mailboxes', 'subscribe to no mailbox')
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options) => {
      const mailboxes = options.mailboxes === false ? [] : options.mailbox;
      const changes = { url: options.url, description: options.description, mailboxes };
      output(
        presentDestination(
          await db().transaction((tx) => updateDestination(tx, destinationDeps(), { uuid }, changes)),
        ),
        options,
      );
    });
  const switches: [StatusChange, string][] = [
    [
      'pause',
      'Stop deliveries: events while paused are not queued; deliveries in flight stop before their next attempt.',
    ],
    ['resume', 'Resume a paused destination; nothing from the pause is replayed.'],
    ['enable', 'Turn a disabled destination on again, with its counter reset; nothing missed is replayed.'],
  ];
  for (const [change, description] of switches) {
    webhook
      .command(change)
      .description(description)
      .argument('<uuid>', 'destination uuid')
      .option('--json', 'print one JSON object')
      .action(async (uuid: string, options) =>
        output(
          presentDestination(await db().transaction((tx) => changeDestinationStatus(tx, { uuid }, change))),
          options,
        ),
      );
  }
  webhook
    .command('rotate-secret')
    .description(
      'Issue a new signing secret; the old one keeps signing too for FOLIO_WEBHOOK_SECRET_OVERLAP (24h).',
    )
    .argument('<uuid>', 'destination uuid')
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options) => {
      const deps = { masterKey: config().masterKey, overlapMs: config().webhook.secretOverlapMs };
      output(
        presentDestinationWithSecret(await db().transaction((tx) => rotateSigningSecret(tx, deps, { uuid }))),
        options,
      );
    });
  webhook
    .command('reveal-secret')
    .description('Print the signing secret (and the previous one while it still signs).')
    .argument('<uuid>', 'destination uuid')
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options) =>
      output(
        presentSecrets(
          await revealSigningSecrets(db(), config().masterKey, { uuid }, { userUuid: null, via: 'cli' }),
        ),
        options,
      ),
    );
  webhook
    .command('deliveries')
    .description(
      'The most recent attempts, newest first: status code or error class, response time, delivery id.',
    )
    .argument('<uuid>', 'destination uuid')
    .option('--limit <n>', 'attempts per page', limitOption, 50)
    .option('--cursor <delivery-id>', 'next_cursor of the page before', cursorOption)
    .option('--event <event-id>', 'only this event', eventOption)
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options) => {
      const destination = await findDestination(db(), uuid);
      const after = options.cursor as string | undefined;
      output(
        presentAttemptPage(
          await listAttempts(db(), destination.uuid, {
            limit: options.limit,
            after,
            eventUuid: options.event,
          }),
          options.limit,
        ),
        options,
      );
    });
  webhook
    .command('stats')
    .description('The last 7 days, per day: attempts, successes, failures, response time p50/p95.')
    .argument('<uuid>', 'destination uuid')
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options) => {
      const destination = await findDestination(db(), uuid);
      output({ data: (await dailyStats(db(), destination.uuid, 7)).map(presentDailyStats) }, options);
    });

  const delivery = program.command('delivery');
  delivery
    .command('list')
    .description('Deliveries, newest first: in flight (waiting or running) unless --state says otherwise.')
    .option('--destination <uuid>', 'one destination')
    .option('--workspace <uuid>', 'one workspace')
    .option('--state <state>', 'waiting, running or done', stateOption)
    .option('--limit <n>', 'at most this many', limitOption, 100)
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const rows = await listDeliveries(db(), {
        destinationUuid: options.destination,
        workspaceUuid: options.workspace,
        state: options.state,
        limit: options.limit,
      });
      output({ data: rows.map(presentDelivery) }, options);
    });
  delivery
    .command('retry')
    .description(
      'Make a delivery waiting between attempts make its next attempt now (the attempt number goes on in sequence).',
    )
    .requiredOption('--destination <uuid>', 'destination uuid')
    .requiredOption('--event <event-id>', 'event id (whevt_…)', eventOption)
    .option('--round <n>', 'a manual resend of the event (0: the first delivery)', roundOption, 0)
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const key = { destinationUuid: options.destination, eventUuid: options.event, round: options.round };
      output(presentDelivery(await withWorkflows((unit) => retryDeliveryNow(unit, key))), options);
    });
  delivery
    .command('terminate')
    .description('Stop a delivery for good, recording who and why; it makes no further attempt.')
    .requiredOption('--destination <uuid>', 'destination uuid')
    .requiredOption('--event <event-id>', 'event id (whevt_…)', eventOption)
    .requiredOption('--reason <text>', 'why, for the record')
    .option('--actor <name>', 'who (default operator:<login name>)')
    .option('--round <n>', 'a manual resend of the event (0: the first delivery)', roundOption, 0)
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const key = { destinationUuid: options.destination, eventUuid: options.event, round: options.round };
      const by = { actor: options.actor ?? `operator:${userInfo().username}`, reason: options.reason };
      output(presentDelivery(await withWorkflows((unit) => terminateDelivery(unit, key, by))), options);
    });
  // Extensions (docs/extensions.md § Webhooks).
  delivery
    .command('resend')
    .description(
      'Send one past event to one destination again: a new delivery of the same event id, attempts numbered from 1.',
    )
    .requiredOption('--destination <uuid>', 'destination uuid')
    .requiredOption('--event <event-id>', 'event id (whevt_…)', eventOption)
    .option('--json', 'print one JSON object')
    .action(async (options) => {
      const key = { destinationUuid: options.destination, eventUuid: options.event };
      output(presentDelivery(await withWorkflows((unit) => resendDelivery(unit, key))), options);
    });
  webhook
    .command('test')
    .description(
      'Send a signed webhook.test event to an active destination (once; recorded; never counts towards disabling).',
    )
    .argument('<uuid>', 'destination uuid')
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options) => {
      const delivered = await withWorkflows(async (unit) => {
        const eventUuid = await sendTestEvent(unit, uuid);
        return (await findDelivery(unit.tx, { destinationUuid: uuid, eventUuid }))!;
      });
      output(presentDelivery(delivered), options);
    });
}
