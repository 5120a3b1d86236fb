// A local APNs provider API (HTTP/2 over TLS with the suite's test CA, on 127.0.0.1): it checks what Apple checks of a
// token-auth push — the ES256 provider JWT against the team's key, apns-topic and apns-push-type, a JSON payload — and
// answers 200 with an apns-id, or whatever status and reason a test commands, so cleanup and retry paths run for real.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  verify,
  type KeyObject,
} from 'node:crypto';
import { createSecureServer, constants, type Http2SecureServer, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { readTestCertificates } from './test-ca.js';
import { until } from './webhook-receivers.js';

interface ApnsRequest {
  deviceToken: string;
  headers: Record<string, string>;
  payload: unknown;
  /** Why the server refused the provider token, or null when it verified. */
  jwtProblem: string | null;
}

/** The answer to one request; `hold` delays it until the promise settles (a gate the test opens). */
type ApnsReply = { status: number; reason?: string; retryAfter?: number; hold?: Promise<void> };

export interface ApnsServer {
  /** host:port, for `folio push-client create --apns-address`. */
  address: string;
  /** The team's key as Apple issues it (a .p8 PEM), its id and the team id. */
  keyPem: string;
  keyId: string;
  teamId: string;
  topic: string;
  requests: ApnsRequest[];
  /** How the next requests are answered (by the 1-based index of the request); default 200. */
  answer(reply: (index: number, request: ApnsRequest) => ApnsReply): void;
  waitFor(count: number, timeoutMs?: number): Promise<ApnsRequest[]>;
  close(): Promise<void>;
}

function base64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Verifies `bearer <jwt>` the way APNs does: ES256 over header.claims, the key id, the team id, a recent iat. */
function checkProviderToken(
  authorization: string | undefined,
  publicKey: KeyObject,
  keyId: string,
  teamId: string,
): string | null {
  const match = /^bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(authorization ?? '');
  if (!match) return 'MissingProviderToken';
  const [, header, claims, signature] = match as unknown as [string, string, string, string];
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) return 'InvalidProviderToken';
  const head = base64urlJson(header);
  const body = base64urlJson(claims);
  if (head.alg !== 'ES256' || head.kid !== keyId || body.iss !== teamId) return 'InvalidProviderToken';
  const age = Date.now() / 1000 - Number(body.iat);
  if (!(age > -60 && age < 3600)) return 'ExpiredProviderToken';
  return null;
}

async function startApnsServer(options: { topic?: string } = {}): Promise<ApnsServer> {
  const certificates = readTestCertificates();
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const keyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const publicKey = createPublicKey(createPrivateKey(keyPem));
  const keyId = 'ABC123DEFG';
  const teamId = 'TEAM123456';
  const topic = options.topic ?? 'com.example.folio.pushkit.fileprovider';
  const requests: ApnsRequest[] = [];
  let reply: (index: number, request: ApnsRequest) => ApnsReply = () => ({ status: 200 });

  const respond = (stream: ServerHttp2Stream, { status, reason, retryAfter }: ApnsReply) => {
    if (stream.destroyed) return;
    const headers: Record<string, string | number> = {
      [constants.HTTP2_HEADER_STATUS]: status,
      'apns-id': randomUUID(),
    };
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
    if (status === 200) {
      stream.respond(headers, { endStream: true });
      return;
    }
    stream.respond({ ...headers, 'content-type': 'application/json' });
    stream.end(
      JSON.stringify(
        status === 410
          ? { reason: reason ?? 'Unregistered', timestamp: Date.now() }
          : { reason: reason ?? 'InternalServerError' },
      ),
    );
  };

  const server: Http2SecureServer = createSecureServer({ key: certificates.key, cert: certificates.cert });
  server.on('stream', (stream, rawHeaders) => {
    const pieces: Buffer[] = [];
    stream.on('data', (piece: Buffer) => pieces.push(piece));
    stream.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(rawHeaders).map(([key, value]) => [key, String(value)]),
      );
      const path = headers[':path'] ?? '';
      const deviceToken = /^\/3\/device\/([0-9a-fA-F]+)$/.exec(path)?.[1];
      if (headers[':method'] !== 'POST' || !deviceToken)
        return respond(stream, { status: 404, reason: 'BadPath' });
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(pieces).toString('utf8'));
      } catch {
        payload = undefined;
      }
      const request: ApnsRequest = {
        deviceToken,
        headers,
        payload,
        jwtProblem: checkProviderToken(headers.authorization, publicKey, keyId, teamId),
      };
      requests.push(request);
      // What Apple refuses whatever the test commands: a bad provider token, topic or push type, or no JSON payload.
      if (request.jwtProblem) return respond(stream, { status: 403, reason: request.jwtProblem });
      if (headers['apns-topic'] !== topic) return respond(stream, { status: 400, reason: 'TopicDisallowed' });
      if (headers['apns-push-type'] !== 'fileprovider')
        return respond(stream, { status: 400, reason: 'InvalidPushType' });
      if (payload === undefined || typeof payload !== 'object')
        return respond(stream, { status: 400, reason: 'PayloadEmpty' });
      const answer = reply(requests.length, request);
      if (answer.hold) void answer.hold.then(() => respond(stream, answer));
      else respond(stream, answer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<import('node:http2').ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  return {
    address: `127.0.0.1:${port}`,
    keyPem,
    keyId,
    teamId,
    topic,
    requests,
    answer(next) {
      reply = next;
    },
    waitFor: (count, timeoutMs) =>
      until(`${count} APNs requests`, () => requests.length >= count && requests, timeoutMs ?? 30_000),
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A test file's APNs servers, each closed after the test that started it. */
export function apnsServerPool(): (options?: { topic?: string }) => Promise<ApnsServer> {
  const opened: ApnsServer[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });
  return async (options) => {
    const started = await startApnsServer(options);
    opened.push(started);
    return started;
  };
}
