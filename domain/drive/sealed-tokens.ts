// The tokens Drive keeps at rest but must read back: public-link tokens (the sharing settings show them) and push device
// tokens (the sender needs them). Neither is stored in clear: each is sealed under a key the master key wraps, and a
// link also keeps the SHA-256 of its token, the one form a visitor's token is looked up by. Decisions:
// docs/drive-sharing.md § Tokens, docs/drive-push.md § Device tokens at rest.
import { hash } from 'node:crypto';
import { openSecret, sealSecret, type MasterKey } from './crypto.js';

// Bound into each sealed value with its row's uuid, so a value moved to another row or kind of token does not open.
const LINK_TOKEN = 'public link token';
const DEVICE_TOKEN = 'device token';

/** What a link is looked up by: the SHA-256 of its token, so the lookup's timing tells a guesser nothing. */
export const publicLinkTokenHash = (token: string): Buffer => hash('sha256', token, 'buffer');

export interface SealedLinkToken {
  token_hash: Buffer;
  token_key_wrapped: Buffer;
  token_sealed: Buffer;
}

/** The columns of drive_public_links that hold a token: its hash, and the token sealed with the link's uuid bound in. */
export function sealPublicLinkToken(masterKey: MasterKey, linkUuid: string, token: string): SealedLinkToken {
  const { keyWrapped, sealed } = sealSecret(masterKey, LINK_TOKEN, linkUuid, Buffer.from(token, 'utf8'));
  return { token_hash: publicLinkTokenHash(token), token_key_wrapped: keyWrapped, token_sealed: sealed };
}

export function openPublicLinkToken(
  masterKey: MasterKey,
  link: { uuid: string; token_key_wrapped: Buffer; token_sealed: Buffer },
): string {
  return openSecret(masterKey, LINK_TOKEN, link.uuid, {
    keyWrapped: link.token_key_wrapped,
    sealed: link.token_sealed,
  }).toString('utf8');
}

export interface SealedDeviceToken {
  device_token_key_wrapped: Buffer;
  device_token_sealed: Buffer;
}

/**
 * The columns of drive_push_subscriptions that hold a device token (an APNs token, or a Web Push subscription with its
 * endpoint and keys), the subscription's uuid bound in. Nothing looks a subscription up by its token, so no hash is kept.
 */
export function sealDeviceToken(
  masterKey: MasterKey,
  subscriptionUuid: string,
  token: string,
): SealedDeviceToken {
  const { keyWrapped, sealed } = sealSecret(
    masterKey,
    DEVICE_TOKEN,
    subscriptionUuid,
    Buffer.from(token, 'utf8'),
  );
  return { device_token_key_wrapped: keyWrapped, device_token_sealed: sealed };
}

/** A subscription's device token, for the send activity only: never returned, logged or put in a workflow input. */
export function openDeviceToken(
  masterKey: MasterKey,
  subscription: { uuid: string } & SealedDeviceToken,
): string {
  const sealed = {
    keyWrapped: subscription.device_token_key_wrapped,
    sealed: subscription.device_token_sealed,
  };
  return openSecret(masterKey, DEVICE_TOKEN, subscription.uuid, sealed).toString('utf8');
}
