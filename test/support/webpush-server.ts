// A local Web Push service (HTTPS with the suite's test CA, on 127.0.0.1): it hands out browser-like subscriptions,
// checks each push's VAPID authorization (RFC 8292: an ES256 JWT for this origin under the key in `k`) and decrypts the
// aes128gcm body with the subscription's own keys (RFC 8291/8188, written here from the RFCs, independently of the
// library that encrypted it). It answers 201, or whatever status a test commands (404/410 gone, 429, 5xx).
import {
  createECDH,
  createDecipheriv,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { readTestCertificates } from './test-ca.js';
import { until } from './webhook-receivers.js';

interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

interface WebPushRequest {
  subscriptionId: string;
  headers: Record<string, string>;
  /** Why the VAPID authorization was refused, or null. */
  vapidProblem: string | null;
  /** The VAPID claims and the public key that signed them. */
  claims: Record<string, unknown> | null;
  vapidKey: string | null;
  /** The decrypted payload, parsed as JSON (undefined when it did not decrypt). */
  payload: unknown;
}

type WebPushReply = { status: number };

export interface WebPushServer {
  origin: string;
  /** A new browser subscription: its JSON, and the device_token a client registers (the JSON, hex-encoded). */
  subscribe(): { json: PushSubscriptionJson; deviceToken: string; id: string };
  requests: WebPushRequest[];
  answer(reply: (index: number, request: WebPushRequest) => WebPushReply): void;
  waitFor(count: number, timeoutMs?: number): Promise<WebPushRequest[]>;
  close(): Promise<void>;
}

interface Subscriber {
  ecdh: ECDH;
  auth: Buffer;
}

function checkVapid(
  authorization: string | undefined,
  origin: string,
): { problem: string | null; claims: Record<string, unknown> | null; key: string | null } {
  const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+),\s*k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) return { problem: 'no vapid authorization', claims: null, key: null };
  const [, header, body, signature, k] = match as unknown as [string, string, string, string, string];
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4)
    return { problem: 'k is not a P-256 point', claims: null, key: k };
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${body}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (!ok || head.alg !== 'ES256') return { problem: 'bad signature', claims, key: k };
  if (claims.aud !== origin) return { problem: `aud ${String(claims.aud)} is not ${origin}`, claims, key: k };
  const expiresIn = Number(claims.exp) - Date.now() / 1000;
  if (!(expiresIn > 0 && expiresIn <= 24 * 3600))
    return { problem: 'exp not within 24 hours', claims, key: k };
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
    return { problem: 'no sub contact', claims, key: k };
  return { problem: null, claims, key: k };
}

/** RFC 8291 + RFC 8188: one aes128gcm record, keyed from the sender's key in the header and the subscriber's keys. */
function decrypt(body: Buffer, subscriber: Subscriber): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = subscriber.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, subscriber.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

async function startWebPushServer(): Promise<WebPushServer> {
  const certificates = readTestCertificates();
  const subscribers = new Map<string, Subscriber>();
  const requests: WebPushRequest[] = [];
  let reply: (index: number, request: WebPushRequest) => WebPushReply = () => ({ status: 201 });
  let origin = '';
  const server: Server = createServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([key, value]) => [key, String(value)]),
      );
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      const subscriber = id ? subscribers.get(id) : undefined;
      if (req.method !== 'POST' || !id || !subscriber) {
        res.writeHead(404).end();
        return;
      }
      const vapid = checkVapid(headers.authorization, origin);
      let payload: unknown;
      try {
        if (headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        payload = JSON.parse(decrypt(Buffer.concat(pieces), subscriber).toString('utf8'));
      } catch {
        payload = undefined;
      }
      const request: WebPushRequest = {
        subscriptionId: id,
        headers,
        vapidProblem: vapid.problem,
        claims: vapid.claims,
        vapidKey: vapid.key,
        payload,
      };
      requests.push(request);
      // What a push service refuses whatever the test commands.
      if (vapid.problem) return void res.writeHead(403).end(vapid.problem);
      if (payload === undefined) return void res.writeHead(400).end('payload does not decrypt');
      if (!headers.ttl) return void res.writeHead(400).end('TTL header required');
      const { status } = reply(requests.length, request);
      res
        .writeHead(
          status,
          status === 201 ? { location: `${origin}/message/${randomBytes(8).toString('hex')}` } : {},
        )
        .end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomBytes(12).toString('base64url');
      subscribers.set(id, { ecdh, auth });
      const json = {
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
      return { json, deviceToken: Buffer.from(JSON.stringify(json)).toString('hex'), id };
    },
    requests,
    answer(next) {
      reply = next;
    },
    waitFor: (count, timeoutMs) =>
      until(`${count} Web Push requests`, () => requests.length >= count && requests, timeoutMs ?? 30_000),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function webPushServerPool(): () => Promise<WebPushServer> {
  const opened: WebPushServer[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });
  return async () => {
    const started = await startWebPushServer();
    opened.push(started);
    return started;
  };
}
