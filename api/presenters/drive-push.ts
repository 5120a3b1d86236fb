// The exact drive_push_subscription object of spec/drive.md (the device token is never returned), and the push
// client the operator CLI prints (its signing key is never returned either).
import type {
  ApnsSettings,
  PushClientRow,
  PushSubscriptionRow,
  WebPushSettings,
} from '../../domain/drive/push.js';

export function presentPushSubscription(subscription: PushSubscriptionRow) {
  return {
    object: 'drive_push_subscription',
    uuid: subscription.uuid,
    push_client_uuid: subscription.push_client_uuid,
    container_identifier: subscription.container_identifier,
    domain_identifier: subscription.domain_identifier,
    created_at: subscription.created_at.toISOString(),
    updated_at: subscription.updated_at.toISOString(),
    unregistered_at: subscription.unregistered_at?.toISOString() ?? null,
  };
}

export function presentPushClient(client: PushClientRow) {
  const common = {
    uuid: client.uuid,
    kind: client.kind,
    workspace_uuid: client.workspace_uuid,
    created_at: client.created_at.toISOString(),
  };
  if (client.kind === 'apns') {
    const settings = client.settings as ApnsSettings;
    return {
      ...common,
      key_id: settings.key_id,
      team_id: settings.team_id,
      topic: settings.topic,
      environment: settings.environment,
      apns_address: settings.address,
    };
  }
  const settings = client.settings as WebPushSettings;
  return {
    ...common,
    vapid_public_key: settings.public_key,
    subject: settings.subject,
    endpoint_origins: settings.endpoint_origins,
  };
}
