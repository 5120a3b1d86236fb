// Operator commands for the server-managed push clients that Drive push subscriptions name (docs/drive-push.md):
// create (APNs token auth or Web Push VAPID), list, remove. Signing keys are stored sealed and never printed.
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { presentPushClient } from '../api/presenters/drive-push.js';
import {
  createPushClient,
  listPushClients,
  PUSH_CLIENT_KINDS,
  removePushClient,
  type NewPushClient,
} from '../domain/drive/push.js';
import { isUuid } from '../domain/uuid.js';
import { config } from '../platform/config.js';
import { db } from '../platform/database.js';

import type { Output } from './output.js';

function uuidOption(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError('must be a uuid');
  return value.toLowerCase();
}

interface CreateOptions {
  kind: NewPushClient['kind'];
  workspace?: string;
  keyFile?: string;
  keyId?: string;
  teamId?: string;
  topic?: string;
  environment: 'production' | 'sandbox';
  apnsAddress?: string;
  subject?: string;
  vapidPublicKey?: string;
  vapidPrivateKey?: string;
  endpointOrigin?: string[];
  json?: boolean;
}

function newClient(options: CreateOptions): NewPushClient {
  const workspaceUuid = options.workspace ?? null;
  if (options.kind === 'apns') {
    const missing = (['keyFile', 'keyId', 'teamId', 'topic'] as const).filter(
      (name) => options[name] === undefined,
    );
    if (missing.length) throw new Error('an APNs client needs --key-file, --key-id, --team-id and --topic');
    // The key is read from a file so it never sits in a shell history or a process list.
    const key = readFileSync(options.keyFile!, 'utf8');
    return {
      kind: 'apns',
      workspaceUuid,
      key,
      keyId: options.keyId!,
      teamId: options.teamId!,
      topic: options.topic!,
      environment: options.environment,
      address: options.apnsAddress,
    };
  }
  if (options.subject === undefined)
    throw new Error('a Web Push client needs --subject (mailto: or https: contact for the push services)');
  return {
    kind: 'webpush',
    workspaceUuid,
    subject: options.subject,
    publicKey: options.vapidPublicKey,
    privateKey: options.vapidPrivateKey,
    endpointOrigins: options.endpointOrigin,
  };
}

export function registerPushCommands(program: Command, output: Output): void {
  const client = program.command('push-client');
  client
    .command('create')
    .description(
      'Create an APNs or Web Push client; prints its uuid (the push_client_uuid devices register with).',
    )
    .addOption(new Option('--kind <kind>', 'provider').choices(PUSH_CLIENT_KINDS).makeOptionMandatory())
    .option(
      '--workspace <uuid>',
      'only devices of this workspace may use it (default: any workspace)',
      uuidOption,
    )
    .option('--key-file <path>', 'APNs: the auth key file (.p8) from the Apple developer account')
    .option('--key-id <id>', 'APNs: the key id')
    .option('--team-id <id>', 'APNs: the team id')
    .option('--topic <topic>', 'APNs: the apns-topic, e.g. com.example.app.pushkit.fileprovider')
    .addOption(
      new Option('--environment <env>', 'APNs: which APNs to send to')
        .choices(['production', 'sandbox'])
        .default('production'),
    )
    .option(
      '--apns-address <host:port>',
      'APNs: an APNs-compatible gateway to send to instead of Apple (a relay; tests)',
    )
    .option('--subject <contact>', 'Web Push: VAPID contact, mailto: or https:')
    .option(
      '--vapid-public-key <base64url>',
      'Web Push: VAPID public key (generated with the private key when both are omitted)',
    )
    .option('--vapid-private-key <base64url>', 'Web Push: VAPID private key')
    .option(
      '--endpoint-origin <origin...>',
      "Web Push: push service origins devices may name (default: the browsers' push services)",
    )
    .option('--json', 'print one JSON object')
    .action(async (options: CreateOptions) => {
      const created = await db().transaction((tx) =>
        createPushClient(tx, config().masterKey, newClient(options)),
      );
      output(presentPushClient(created), options);
    });
  client
    .command('list')
    .description('List push clients (with --workspace: those its devices may use).')
    .option('--workspace <uuid>', 'workspace uuid', uuidOption)
    .option('--json', 'print one JSON object')
    .action(async (options: { workspace?: string; json?: boolean }) => {
      output({ data: (await listPushClients(db(), options.workspace)).map(presentPushClient) }, options);
    });
  client
    .command('remove')
    .description('Remove a push client and every subscription registered against it.')
    .argument('<uuid>', 'push client uuid')
    .option('--json', 'print one JSON object')
    .action(async (uuid: string, options: { json?: boolean }) => {
      output({ ...(await db().transaction((tx) => removePushClient(tx, uuid))), removed: true }, options);
    });
}
