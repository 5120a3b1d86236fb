// Activities of the Drive push fan-out (workflows/push.ts): who a workspace's new changes concern, one push to one
// device over APNs (@parse/node-apn, token auth) or Web Push (web-push, VAPID, aes128gcm), and the cursor. A device the
// push service reports gone is unregistered; 429, 5xx and network failures are thrown for Temporal to retry.
import apn from '@parse/node-apn';
import webpush from 'web-push';
import {
  advancePushCursor,
  collectPushTargets,
  findPushDelivery,
  markPushSubscriptionGone,
  pushClientCredential,
  pushPayload,
  recordPushSent,
  webPushTarget,
  type ApnsSettings,
  type PushClientRow,
  type PushTargets,
  type WebPushSettings,
} from '../domain/drive/push.js';
import { openDeviceToken } from '../domain/drive/sealed-tokens.js';
import { noteOnActivityLine } from './activity-scope.js';
import type { ActivityDeps } from './deps.js';
import { permanent } from './failures.js';

export type PushOutcome = 'sent' | 'unregistered' | 'skipped';

/** APNs reasons that mean this token will never be delivered to (the app was removed, or it is not this app's). */
const APNS_GONE_REASONS = new Set([
  'BadDeviceToken',
  'Unregistered',
  'DeviceTokenNotForTopic',
  'ExpiredToken',
]);

/** A push's outcome, told on its activity's line. */
const noted = (outcome: PushOutcome): PushOutcome => {
  noteOnActivityLine({ push_outcome: outcome });
  return outcome;
};

/** Whether a push service status is worth another try: rate limits, its own errors, timeouts. */
const transientStatus = (status: number) => status === 429 || status === 408 || status >= 500;

class PushFailure extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'PushFailure';
  }
}

/** One APNs HTTP/2 session per client, reused across sends, rebuilt when the client's row changes (it never does). */
const providers = new Map<string, apn.Provider>();

function apnsProvider(deps: ActivityDeps, client: PushClientRow): apn.Provider {
  const existing = providers.get(client.uuid);
  if (existing) return existing;
  const settings = client.settings as ApnsSettings;
  const provider = new apn.Provider({
    token: {
      key: pushClientCredential(deps.masterKey, client),
      keyId: settings.key_id,
      teamId: settings.team_id,
    },
    production: settings.environment === 'production',
    // node-apn takes the host and the port apart (http2 connects with the port of its options).
    ...(settings.address
      ? { address: settings.address.replace(/:\d+$/, ''), port: Number(settings.address.split(':').pop()) }
      : {}),
    // Temporal owns retries and their backoff; node-apn's own would hide attempts from the history.
    connectionRetryLimit: 0,
    requestTimeout: deps.settings().push.timeoutMs,
  } as apn.ProviderOptions);
  providers.set(client.uuid, provider);
  return provider;
}

async function sendApns(
  deps: ActivityDeps,
  client: PushClientRow,
  token: string,
  payload: object,
): Promise<'sent' | { gone: string }> {
  const settings = client.settings as ApnsSettings;
  const note = new apn.Notification();
  note.rawPayload = payload;
  note.topic = settings.topic;
  note.pushType = 'fileprovider';
  // Kept by APNs for a day while the device is offline; a newer push with the same collapse id replaces it.
  note.expiry = Math.floor(Date.now() / 1000) + 86_400;
  note.collapseId = 'folio-drive-changes';
  const result = await apnsProvider(deps, client).send(note, token);
  const failure = result.failed[0];
  if (!failure) return 'sent';
  // node-apn reports a timeout, an aborted stream or a session error as a text status ('(timeout)'): no answer.
  const status =
    typeof failure.status === 'number' || /^\d+$/.test(String(failure.status))
      ? Number(failure.status)
      : undefined;
  const reason = (failure.response as { reason?: string } | undefined)?.reason;
  if ((status === 410 || status === 400) && reason && APNS_GONE_REASONS.has(reason)) return { gone: reason };
  if (status === 410) return { gone: reason ?? 'Unregistered' };
  const message =
    `APNs answered ${status ?? 'no status'} ${reason ?? (failure.error as Error | undefined)?.message ?? ''}`.trim();
  // A send that never got an answer (connection refused, timeout) is transient like a 5xx.
  if (status === undefined || transientStatus(status)) {
    // A broken session is dropped so the next attempt connects afresh.
    if (status === undefined) {
      void providers.get(client.uuid)?.shutdown();
      providers.delete(client.uuid);
    }
    throw new PushFailure(message, status);
  }
  throw permanent(new PushFailure(message, status));
}

async function sendWebPush(
  deps: ActivityDeps,
  client: PushClientRow,
  token: string,
  payload: object,
): Promise<'sent' | { gone: string }> {
  const settings = client.settings as WebPushSettings;
  // Checked again at send time: the client's allowed origins may have been narrowed since the device registered.
  const target = webPushTarget(token, settings);
  if (!target) return { gone: 'endpoint not allowed' };
  try {
    await webpush.sendNotification(target, JSON.stringify(payload), {
      vapidDetails: {
        subject: settings.subject,
        publicKey: settings.public_key,
        privateKey: pushClientCredential(deps.masterKey, client),
      },
      TTL: 86_400,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
      // A push service replaces an undelivered message with the same topic: one pending "something changed" per device.
      topic: 'foliodrivechanges',
      timeout: deps.settings().push.timeoutMs,
    });
    return 'sent';
  } catch (error) {
    const status = error instanceof webpush.WebPushError ? error.statusCode : undefined;
    if (status === 404 || status === 410) return { gone: `http ${status}` };
    const message =
      status === undefined
        ? `Web Push send failed: ${(error as Error).message}`
        : `the push service answered ${status}`;
    if (status === undefined || transientStatus(status)) throw new PushFailure(message, status);
    throw permanent(new PushFailure(message, status));
  }
}

export function createPushActivities(deps: ActivityDeps) {
  return {
    async collectDrivePushTargets(input: { workspaceUuid: string }): Promise<PushTargets> {
      return collectPushTargets(deps.db, input.workspaceUuid);
    },

    async advanceDrivePushCursor(input: { workspaceUuid: string; throughSeq: string }): Promise<void> {
      await advancePushCursor(deps.db, input.workspaceUuid, input.throughSeq);
    },

    /** One push to one device. Idempotent enough: a retry after a lost answer pushes again, and a push says only "look". */
    async sendDrivePush(input: { subscriptionUuid: string }): Promise<PushOutcome> {
      const delivery = await findPushDelivery(deps.db, input.subscriptionUuid);
      if (!delivery) return noted('skipped');
      const { subscription, client } = delivery;
      const payload = pushPayload(client.kind, subscription);
      // On the activity's one line (activities/activity-scope.ts): ids and the outcome, never the device token.
      noteOnActivityLine({
        subscription_uuid: subscription.uuid,
        push_client_uuid: client.uuid,
        workspace_uuid: subscription.workspace_uuid,
        kind: client.kind,
      });
      const token = openDeviceToken(deps.masterKey, subscription);
      const result =
        client.kind === 'apns'
          ? await sendApns(deps, client, token, payload)
          : await sendWebPush(deps, client, token, payload);
      if (result === 'sent') {
        await recordPushSent(deps.db, subscription.uuid);
        return noted('sent');
      }
      await markPushSubscriptionGone(deps.db, subscription.uuid, result.gone);
      noteOnActivityLine({ reason: result.gone });
      return noted('unregistered');
    },
  };
}
