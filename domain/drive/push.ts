// Drive device push: the server-managed push clients operators create (APNs token auth, Web Push VAPID), the
// subscriptions devices register against them (spec/drive.md § Push subscriptions), and who a committed batch of
// changes must reach. Sending is I/O and lives in activities/push.ts. Decisions: docs/drive-push.md.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';
import { notFound } from '../errors.js';
import { parseBoundedJson } from '../bounded-json.js';
import { isUuid } from '../uuid.js';
import { readChanges } from './changes-feed.js';
import {
  decryptChunk,
  encryptChunk,
  generateDataKey,
  unwrapDataKey,
  wrapDataKey,
  type MasterKey,
} from './crypto.js';
import { invalidField } from './errors.js';
import { sealDeviceToken } from './sealed-tokens.js';

export const PUSH_CLIENT_KINDS = ['apns', 'webpush'] as const;
export type PushClientKind = (typeof PUSH_CLIENT_KINDS)[number];

/** Where a Web Push client may send, unless its operator names others: the browsers' push services. */
export const DEFAULT_WEBPUSH_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.notify.windows.com',
];

export interface ApnsSettings {
  key_id: string;
  team_id: string;
  topic: string;
  environment: 'production' | 'sandbox';
  /** host:port of an APNs-compatible gateway instead of Apple's host for the environment (a relay, or a test server). */
  address: string | null;
}

export interface WebPushSettings {
  public_key: string;
  subject: string;
  endpoint_origins: string[];
}

export interface PushClientRow {
  uuid: string;
  workspace_uuid: string | null;
  kind: PushClientKind;
  settings: ApnsSettings | WebPushSettings;
  credential_key_wrapped: Buffer;
  credential_sealed: Buffer;
  created_at: Date;
}

export interface PushSubscriptionRow {
  uuid: string;
  workspace_uuid: string;
  user_uuid: string;
  push_client_uuid: string;
  /** The device token (lower-case hex), sealed under the master key (sealed-tokens.ts): only the sender opens it. */
  device_token_key_wrapped: Buffer;
  device_token_sealed: Buffer;
  container_identifier: string;
  domain_identifier: string;
  created_at: Date;
  updated_at: Date;
  unregistered_at: Date | null;
  unregistered_reason: string | null;
}

export type NewPushClient =
  | {
      kind: 'apns';
      workspaceUuid: string | null;
      key: string;
      keyId: string;
      teamId: string;
      topic: string;
      environment: 'production' | 'sandbox';
      address?: string;
    }
  | {
      kind: 'webpush';
      workspaceUuid: string | null;
      subject: string;
      publicKey?: string;
      privateKey?: string;
      endpointOrigins?: string[];
    };

/** An operator's mistake in `folio push-client create`: the message names the option. */
class PushClientOptionError extends Error {}

const optionError = (message: string) => new PushClientOptionError(message);

// The credential is sealed like file bytes: a fresh key wrapped by the master key, the client uuid bound in.
function seal(masterKey: Buffer, clientUuid: string, secret: string) {
  const key = generateDataKey();
  return {
    credential_key_wrapped: wrapDataKey(masterKey, clientUuid, key),
    credential_sealed: encryptChunk(key, clientUuid, 0, 1, Buffer.from(secret, 'utf8')),
  };
}

/** The signing key of a client (APNs .p8 PEM, or the VAPID private key): only the sender reads it, never shown. */
export function pushClientCredential(masterKey: Buffer, client: PushClientRow): string {
  const key = unwrapDataKey(masterKey, client.uuid, client.credential_key_wrapped);
  return decryptChunk(key, client.uuid, 0, 1, client.credential_sealed).toString('utf8');
}

function checkApns(input: Extract<NewPushClient, { kind: 'apns' }>): ApnsSettings {
  let key;
  try {
    key = createPrivateKey(input.key);
  } catch {
    throw optionError('--key must be the APNs auth key (.p8, a PEM EC private key)');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw optionError('--key must be a P-256 (ES256) key');
  if (!/^[A-Z0-9]{10}$/.test(input.keyId)) throw optionError('--key-id must be the 10-character key id');
  if (!/^[A-Z0-9]{10}$/.test(input.teamId)) throw optionError('--team-id must be the 10-character team id');
  if (!/^[A-Za-z0-9.-]+$/.test(input.topic))
    throw optionError(
      '--topic must be a bundle id (for File Provider pushes: <bundle id>.pushkit.fileprovider)',
    );
  if (input.address !== undefined && !/^[A-Za-z0-9.-]+:\d{1,5}$/.test(input.address))
    throw optionError('--apns-address must be host:port');
  return {
    key_id: input.keyId,
    team_id: input.teamId,
    topic: input.topic,
    environment: input.environment,
    address: input.address ?? null,
  };
}

/** The VAPID pair as web-push takes it: the raw P-256 public point and private scalar, base64url. */
function vapidKeys(publicKey?: string, privateKey?: string): { publicKey: string; privateKey: string } {
  if (publicKey === undefined && privateKey === undefined) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const jwk = pair.privateKey.export({ format: 'jwk' });
    return { publicKey: rawPublicKey(jwk.x!, jwk.y!), privateKey: jwk.d! };
  }
  if (publicKey === undefined || privateKey === undefined)
    throw optionError('give both --vapid-public-key and --vapid-private-key, or neither');
  const point = Buffer.from(publicKey, 'base64url');
  const scalar = Buffer.from(privateKey, 'base64url');
  if (point.length !== 65 || point[0] !== 4 || scalar.length !== 32)
    throw optionError('VAPID keys are a 65-byte P-256 point and a 32-byte scalar, base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33).toString('base64url'),
    d: privateKey,
  };
  try {
    // The private scalar must produce the given public point, or every push would fail its signature check.
    const derived = createPublicKey(createPrivateKey({ key: jwk, format: 'jwk' })).export({ format: 'jwk' });
    if (derived.x !== jwk.x || derived.y !== jwk.y) throw new Error('mismatch');
  } catch {
    throw optionError('--vapid-private-key does not match --vapid-public-key');
  }
  return { publicKey, privateKey };
}

const rawPublicKey = (x: string, y: string) =>
  Buffer.concat([Buffer.from([4]), Buffer.from(x, 'base64url'), Buffer.from(y, 'base64url')]).toString(
    'base64url',
  );

function checkOrigin(origin: string): string {
  const match = /^https:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.exec(origin);
  if (!match)
    throw optionError(
      `--endpoint-origin ${origin} must be an https origin such as https://push.example.com or https://*.example.com`,
    );
  return origin.toLowerCase();
}

function checkWebPush(input: Extract<NewPushClient, { kind: 'webpush' }>): {
  settings: WebPushSettings;
  privateKey: string;
} {
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(input.subject))
    throw optionError('--subject must be a mailto: address or an https URL (VAPID contact)');
  const keys = vapidKeys(input.publicKey, input.privateKey);
  const origins = (input.endpointOrigins?.length ? input.endpointOrigins : DEFAULT_WEBPUSH_ORIGINS).map(
    checkOrigin,
  );
  return {
    settings: { public_key: keys.publicKey, subject: input.subject, endpoint_origins: [...new Set(origins)] },
    privateKey: keys.privateKey,
  };
}

export async function createPushClient(
  tx: Knex.Transaction,
  masterKey: Buffer,
  input: NewPushClient,
): Promise<PushClientRow> {
  if (input.workspaceUuid !== null) {
    if (
      !isUuid(input.workspaceUuid) ||
      !(await tx('workspaces').where({ uuid: input.workspaceUuid }).first('uuid'))
    )
      throw optionError('--workspace names no workspace');
  }
  const checked =
    input.kind === 'apns'
      ? { settings: checkApns(input), secret: input.key }
      : (({ settings, privateKey }) => ({ settings, secret: privateKey }))(checkWebPush(input));
  const uuid = ((await tx.raw('select gen_random_uuid() as uuid')).rows[0] as { uuid: string }).uuid;
  const [row] = (await tx('push_clients')
    .insert({
      uuid,
      workspace_uuid: input.workspaceUuid,
      kind: input.kind,
      settings: checked.settings,
      ...seal(masterKey, uuid, checked.secret),
    })
    .returning('*')) as PushClientRow[];
  return row!;
}

export async function listPushClients(knex: Knex, workspaceUuid?: string): Promise<PushClientRow[]> {
  const query = knex('push_clients').orderBy('created_at').orderBy('uuid');
  if (workspaceUuid)
    query.where((q) => q.where({ workspace_uuid: workspaceUuid }).orWhereNull('workspace_uuid'));
  return (await query) as PushClientRow[];
}

/** Removes a client and, with it, every subscription registered against it: those devices get no more pushes. */
export async function removePushClient(
  tx: Knex.Transaction,
  uuid: string,
): Promise<{ uuid: string; subscriptions_removed: number }> {
  if (!isUuid(uuid) || !(await tx('push_clients').where({ uuid }).first('uuid')))
    throw optionError(`no push client ${uuid}`);
  const removed = await tx('drive_push_subscriptions').where({ push_client_uuid: uuid }).delete();
  await tx('push_clients').where({ uuid }).delete();
  return { uuid, subscriptions_removed: removed };
}

async function findPushClient(knex: Knex, uuid: string): Promise<PushClientRow | undefined> {
  return (await knex('push_clients').where({ uuid }).first()) as PushClientRow | undefined;
}

// ---- Subscriptions ----------------------------------------------------------------------------------------------

/** Longest device token accepted, in bytes (an APNs token is 32 today; a Web Push subscription's JSON a few hundred). */
const MAX_DEVICE_TOKEN_BYTES = 4096;
const MAX_CONTAINER_IDENTIFIER_LENGTH = 1024;

export interface WebPushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Whether an https endpoint falls under one of the client's allowed origins (`https://*.host` covers subdomains). */
export function endpointAllowed(endpoint: string, origins: string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  return origins.some((origin) => {
    const allowed = new URL(origin.replace('://*.', '://wildcard.'));
    if (allowed.port !== url.port) return false;
    return origin.includes('://*.')
      ? url.hostname.endsWith(allowed.hostname.replace(/^wildcard/, ''))
      : url.hostname === allowed.hostname;
  });
}

/**
 * A Web Push device token is the browser's PushSubscription JSON ({endpoint, keys: {p256dh, auth}}), hex-encoded so
 * that every kind of client sends the spec's hex device_token (docs/drive-push.md).
 */
export function webPushTarget(deviceToken: string, settings: WebPushSettings): WebPushTarget | undefined {
  let parsed: unknown;
  try {
    // A PushSubscription nests two levels (keys); anything deeper is refused before it is parsed.
    parsed = parseBoundedJson(Buffer.from(deviceToken, 'hex').toString('utf8'), 2);
  } catch {
    return undefined;
  }
  const value = parsed as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  const { endpoint, keys } = value ?? {};
  if (typeof endpoint !== 'string' || typeof keys?.p256dh !== 'string' || typeof keys.auth !== 'string')
    return undefined;
  const p256dh = Buffer.from(keys.p256dh, 'base64url');
  if (p256dh.length !== 65 || p256dh[0] !== 4 || Buffer.from(keys.auth, 'base64url').length !== 16)
    return undefined;
  if (!endpointAllowed(endpoint, settings.endpoint_origins)) return undefined;
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

export interface NewSubscription {
  pushClientUuid: string;
  deviceToken: string;
  containerIdentifier: string;
  domainIdentifier: string;
}

async function checkSubscription(knex: Knex, caller: Caller, input: NewSubscription): Promise<string> {
  const client = isUuid(input.pushClientUuid) ? await findPushClient(knex, input.pushClientUuid) : undefined;
  if (!client || (client.workspace_uuid !== null && client.workspace_uuid !== caller.workspaceUuid)) {
    throw invalidField('push_client_uuid', 'push_client_uuid names no push client of this workspace.');
  }
  if (input.domainIdentifier.toLowerCase() !== caller.workspaceUuid) {
    throw invalidField(
      'domain_identifier',
      'domain_identifier must be the UUID of the workspace the access token is for.',
    );
  }
  if (
    input.containerIdentifier.length < 1 ||
    input.containerIdentifier.length > MAX_CONTAINER_IDENTIFIER_LENGTH
  ) {
    throw invalidField(
      'container_identifier',
      `container_identifier must be 1 to ${MAX_CONTAINER_IDENTIFIER_LENGTH} characters.`,
    );
  }
  const token = input.deviceToken.toLowerCase();
  if (!/^([0-9a-f]{2})+$/.test(token) || token.length > MAX_DEVICE_TOKEN_BYTES * 2) {
    throw invalidField(
      'device_token',
      `device_token must be hex (an even number of 0-9a-f digits, at most ${MAX_DEVICE_TOKEN_BYTES} bytes).`,
    );
  }
  if (client.kind === 'apns' && token.length < 16)
    throw invalidField('device_token', 'device_token is too short for an APNs device token.');
  if (client.kind === 'webpush' && !webPushTarget(token, client.settings as WebPushSettings)) {
    throw invalidField(
      'device_token',
      'For a Web Push client, device_token is the hex of the PushSubscription JSON {endpoint, keys: {p256dh, auth}}, with an endpoint the client allows.',
    );
  }
  return token;
}

/**
 * Registers a device, or updates in place the caller's subscription with the same client, container and domain
 * (a new device token, and active again if it was unregistered).
 */
export async function registerPushSubscription(
  tx: Knex.Transaction,
  masterKey: MasterKey,
  caller: Caller,
  input: NewSubscription,
): Promise<PushSubscriptionRow> {
  const token = await checkSubscription(tx, caller, input);
  const othersActive = await tx('drive_push_subscriptions')
    .where({ workspace_uuid: caller.workspaceUuid, unregistered_at: null })
    .whereNot({
      user_uuid: caller.userUuid,
      push_client_uuid: input.pushClientUuid,
      container_identifier: input.containerIdentifier,
    })
    .first('uuid');
  // The sealed token binds the row's uuid: a new row's is chosen here; a registration that updates an existing row
  // (the conflict below) seals the token again under that row's uuid.
  const uuid = randomUUID();
  const [upserted] = (await tx('drive_push_subscriptions')
    .insert({
      uuid,
      workspace_uuid: caller.workspaceUuid,
      user_uuid: caller.userUuid,
      push_client_uuid: input.pushClientUuid,
      ...sealDeviceToken(masterKey, uuid, token),
      container_identifier: input.containerIdentifier,
      domain_identifier: caller.workspaceUuid,
    })
    .onConflict(['user_uuid', 'push_client_uuid', 'container_identifier', 'domain_identifier'])
    .merge({ updated_at: tx.fn.now(), unregistered_at: null, unregistered_reason: null })
    .returning('*')) as PushSubscriptionRow[];
  let row = upserted!;
  if (row.uuid !== uuid) {
    row = (
      (await tx('drive_push_subscriptions')
        .where({ uuid: row.uuid })
        .update(sealDeviceToken(masterKey, row.uuid, token))
        .returning('*')) as PushSubscriptionRow[]
    )[0]!;
  }
  // The fan-out pushes changes after its cursor. With nobody else subscribed it has had nothing to push, so start it
  // at the head of the log rather than at a cursor left from long ago.
  const head = tx('drive_changes').where({ workspace_uuid: caller.workspaceUuid }).max('seq');
  const cursor = tx('drive_push_cursors')
    .insert({
      workspace_uuid: caller.workspaceUuid,
      through_seq: tx.raw(`coalesce((${head.toString()}), 0)`),
    })
    .onConflict('workspace_uuid');
  await (othersActive
    ? cursor.ignore()
    : cursor.merge({ through_seq: tx.raw('excluded.through_seq'), updated_at: tx.fn.now() }));
  return row;
}

/** DELETE: idempotent; a subscription of someone else is 404, as if it did not exist. */
export async function unregisterPushSubscription(
  tx: Knex.Transaction,
  caller: Caller,
  uuid: string,
): Promise<PushSubscriptionRow> {
  const mine = { uuid, workspace_uuid: caller.workspaceUuid, user_uuid: caller.userUuid };
  const [row] = (await tx('drive_push_subscriptions')
    .where(mine)
    .update({
      unregistered_at: tx.raw('coalesce(unregistered_at, now())'),
      unregistered_reason: tx.raw(`coalesce(unregistered_reason, 'user')`),
    })
    .returning('*')) as PushSubscriptionRow[];
  if (!row) throw notFound();
  return row;
}

/** The push service said the device is gone: no more pushes (spec/drive.md § States: "automatic"). */
export async function markPushSubscriptionGone(knex: Knex, uuid: string, reason: string): Promise<void> {
  await knex('drive_push_subscriptions')
    .where({ uuid })
    .whereNull('unregistered_at')
    .update({ unregistered_at: knex.fn.now(), unregistered_reason: reason });
}

export async function recordPushSent(knex: Knex, uuid: string): Promise<void> {
  await knex('drive_push_subscriptions').where({ uuid }).update({ last_pushed_at: knex.fn.now() });
}

/** What a send needs: the active subscription and its client; undefined when it was unregistered meanwhile. */
export async function findPushDelivery(
  knex: Knex,
  subscriptionUuid: string,
): Promise<{ subscription: PushSubscriptionRow; client: PushClientRow } | undefined> {
  const subscription = (await knex('drive_push_subscriptions')
    .where({ uuid: subscriptionUuid })
    .whereNull('unregistered_at')
    .first()) as PushSubscriptionRow | undefined;
  if (!subscription) return undefined;
  const client = await findPushClient(knex, subscription.push_client_uuid);
  return client ? { subscription, client } : undefined;
}

// ---- Fan-out ----------------------------------------------------------------------------------------------------

export interface PushTargets {
  /** The change-log seq the targets cover; the cursor moves here once they are pushed. */
  throughSeq: string;
  subscriptionUuids: string[];
}

/** Pages of the feed read per user while looking for something they can see; each holds up to 1,000 changes. */
const FEED_PAGE = 1000;

/**
 * Whether the user's changes feed, read from `afterSeq`, shows them anything up to `throughSeq`: the push goes to
 * exactly those who would find a change when they re-enumerate (an item they see, or the delete of one they saw).
 */
async function seesChanges(
  knex: Knex,
  caller: Caller,
  afterSeq: string,
  throughSeq: string,
): Promise<boolean> {
  let cursor = {
    phase: 'delta' as const,
    workspaceUuid: caller.workspaceUuid,
    userUuid: caller.userUuid,
    seq: afterSeq,
  };
  for (;;) {
    const page = await readChanges(knex, caller, cursor, FEED_PAGE);
    if (page.entries.length) return true;
    if (!page.hasMore || page.cursor.phase !== 'delta' || BigInt(page.cursor.seq) >= BigInt(throughSeq))
      return false;
    cursor = page.cursor;
  }
}

/** The active subscriptions that the workspace's changes after its push cursor concern. Reads only. */
export async function collectPushTargets(knex: Knex, workspaceUuid: string): Promise<PushTargets> {
  const headRow = (await knex('drive_changes')
    .where({ workspace_uuid: workspaceUuid })
    .max('seq as seq')
    .first()) as { seq: string | null } | undefined;
  const head = String(headRow?.seq ?? 0);
  const cursorRow = (await knex('drive_push_cursors')
    .where({ workspace_uuid: workspaceUuid })
    .first('through_seq')) as { through_seq: string } | undefined;
  if (!cursorRow || BigInt(cursorRow.through_seq) >= BigInt(head))
    return { throughSeq: cursorRow?.through_seq ?? head, subscriptionUuids: [] };
  const floorRow = (await knex('drive_change_log_floors')
    .where({ workspace_uuid: workspaceUuid })
    .first('pruned_through_seq')) as { pruned_through_seq: string } | undefined;
  const users = (await knex('drive_push_subscriptions')
    .distinct('user_uuid')
    .where({ workspace_uuid: workspaceUuid })
    .whereNull('unregistered_at')) as {
    user_uuid: string;
  }[];
  // Behind the pruning floor nobody can tell what changed: push everyone, as their feeds will reseed anyway.
  const pruned = floorRow && BigInt(cursorRow.through_seq) < BigInt(floorRow.pruned_through_seq);
  const concerned: string[] = [];
  for (const { user_uuid } of users) {
    if (
      pruned ||
      (await seesChanges(knex, { userUuid: user_uuid, workspaceUuid }, cursorRow.through_seq, head))
    )
      concerned.push(user_uuid);
  }
  if (!concerned.length) return { throughSeq: head, subscriptionUuids: [] };
  const subscriptions = (await knex('drive_push_subscriptions')
    .select('uuid')
    .where({ workspace_uuid: workspaceUuid })
    .whereNull('unregistered_at')
    .whereIn('user_uuid', concerned)
    .orderBy('uuid')) as { uuid: string }[];
  return { throughSeq: head, subscriptionUuids: subscriptions.map((row) => row.uuid) };
}

/** Moves the cursor forward only: a late or repeated call never takes it back. */
export async function advancePushCursor(
  knex: Knex,
  workspaceUuid: string,
  throughSeq: string,
): Promise<void> {
  await knex('drive_push_cursors')
    .insert({ workspace_uuid: workspaceUuid, through_seq: throughSeq })
    .onConflict('workspace_uuid')
    .merge({
      through_seq: knex.raw('greatest(drive_push_cursors.through_seq, excluded.through_seq)'),
      updated_at: knex.fn.now(),
    });
}

// ---- Payload ----------------------------------------------------------------------------------------------------

/**
 * What a push carries: which File Provider domain and container to re-enumerate, nothing about the change (no
 * names, no content, no item ids). APNs File Provider pushes (push type `fileprovider`) must have exactly these keys;
 * Web Push gets the same facts with a type so a service worker can tell it apart.
 */
export function pushPayload(
  kind: PushClientKind,
  subscription: Pick<PushSubscriptionRow, 'container_identifier' | 'domain_identifier'>,
): object {
  return kind === 'apns'
    ? { 'container-identifier': subscription.container_identifier, domain: subscription.domain_identifier }
    : {
        type: 'drive.changes',
        container_identifier: subscription.container_identifier,
        domain_identifier: subscription.domain_identifier,
      };
}
