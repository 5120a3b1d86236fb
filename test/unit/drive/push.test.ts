// The pure rules of Drive push (domain/drive/push.ts): which Web Push endpoints a client may send to, what a Web Push
// device token must hold, and what a push payload carries (docs/drive-push.md).
import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WEBPUSH_ORIGINS,
  endpointAllowed,
  pushPayload,
  webPushTarget,
  type WebPushSettings,
} from '../../../domain/drive/push.js';

const settings = (origins: string[]): WebPushSettings => ({
  public_key: 'k',
  subject: 'mailto:a@b.c',
  endpoint_origins: origins,
});

function browserToken(endpoint: string, overrides: object = {}): string {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const json = {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    ...overrides,
  };
  return Buffer.from(JSON.stringify(json)).toString('hex');
}

describe('endpointAllowed', () => {
  it('accepts an https endpoint on an allowed origin, with its port, and subdomains under a wildcard', () => {
    expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/abc', DEFAULT_WEBPUSH_ORIGINS)).toBe(true);
    expect(endpointAllowed('https://db5p.notify.windows.com/w/?token=x', DEFAULT_WEBPUSH_ORIGINS)).toBe(true);
    expect(endpointAllowed('https://127.0.0.1:8443/push/x', ['https://127.0.0.1:8443'])).toBe(true);
  });

  it('refuses other hosts, ports, schemes, credentials and look-alike suffixes', () => {
    expect(endpointAllowed('https://fcm.googleapis.com.attacker.example/x', DEFAULT_WEBPUSH_ORIGINS)).toBe(
      false,
    );
    expect(endpointAllowed('https://evilnotify.windows.com/x', DEFAULT_WEBPUSH_ORIGINS)).toBe(false);
    expect(endpointAllowed('http://fcm.googleapis.com/x', DEFAULT_WEBPUSH_ORIGINS)).toBe(false);
    expect(endpointAllowed('https://fcm.googleapis.com:8443/x', DEFAULT_WEBPUSH_ORIGINS)).toBe(false);
    expect(endpointAllowed('https://user:pw@fcm.googleapis.com/x', DEFAULT_WEBPUSH_ORIGINS)).toBe(false);
    expect(endpointAllowed('https://127.0.0.1:8444/x', ['https://127.0.0.1:8443'])).toBe(false);
    expect(endpointAllowed('not a url', DEFAULT_WEBPUSH_ORIGINS)).toBe(false);
  });
});

describe('webPushTarget', () => {
  it('reads the hex of a PushSubscription JSON', () => {
    const target = webPushTarget(
      browserToken('https://fcm.googleapis.com/fcm/send/abc'),
      settings(DEFAULT_WEBPUSH_ORIGINS),
    );
    expect(target).toEqual({
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      keys: { p256dh: expect.any(String), auth: expect.any(String) },
    });
  });

  it('refuses tokens that are not one: not JSON, missing keys, wrong key sizes, an endpoint not allowed', () => {
    const allowed = settings(DEFAULT_WEBPUSH_ORIGINS);
    expect(webPushTarget('a1'.repeat(32), allowed)).toBeUndefined();
    expect(webPushTarget(Buffer.from('null').toString('hex'), allowed)).toBeUndefined();
    expect(
      webPushTarget(
        browserToken('https://fcm.googleapis.com/x', { keys: { p256dh: 'AAAA', auth: 'AAAA' } }),
        allowed,
      ),
    ).toBeUndefined();
    expect(
      webPushTarget(browserToken('https://fcm.googleapis.com/x', { keys: undefined }), allowed),
    ).toBeUndefined();
    expect(webPushTarget(browserToken('https://169.254.169.254/latest/meta-data'), allowed)).toBeUndefined();
  });
});

describe('pushPayload', () => {
  const subscription = {
    container_identifier: 'NSFileProviderWorkingSetContainerItemIdentifier',
    domain_identifier: '6f1c7d1e-8b0a-4b7e-9f57-0d3f5e0f2a11',
  };

  it('gives APNs exactly the File Provider keys, and Web Push the same facts with a type; nothing about the change', () => {
    expect(pushPayload('apns', subscription)).toEqual({
      'container-identifier': subscription.container_identifier,
      domain: subscription.domain_identifier,
    });
    expect(pushPayload('webpush', subscription)).toEqual({
      type: 'drive.changes',
      container_identifier: subscription.container_identifier,
      domain_identifier: subscription.domain_identifier,
    });
  });
});
