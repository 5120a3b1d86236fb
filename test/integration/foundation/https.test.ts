// The API serving HTTPS itself (FOLIO_TLS_CERT/KEY): TLS 1.2+, HTTP/2 and HTTP/1.1 by ALPN, HSTS on every answer, and a
// certificate reloaded on SIGHUP while connections already open keep working. An API process of its own, whose
// certificate files the test may replace; the authority is the suite's test CA.
import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as http2Connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../support/api.js';
import { rememberBearerToken } from '../../support/log-scan.js';
import { startExtraApi, type ExtraApi } from '../../support/extra-api.js';
import { issueLeaf, readTestCertificates } from '../../support/test-ca.js';

const HSTS = 'max-age=31536000';
const caDir = () => process.env.FOLIO_TEST_CA_DIR!;
const ca = () => readTestCertificates().ca;

let api: ExtraApi;
let certDir: string;

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'folio-api-cert-'));
  copyFileSync(join(caDir(), 'leaf.crt'), join(certDir, 'api.crt'));
  copyFileSync(join(caDir(), 'leaf.key'), join(certDir, 'api.key'));
  api = await startExtraApi('api-https', {
    FOLIO_TLS_CERT: join(certDir, 'api.crt'),
    FOLIO_TLS_KEY: join(certDir, 'api.key'),
  });
});

afterAll(async () => {
  await api?.stop();
  rmSync(certDir, { recursive: true, force: true });
});

/** One request on an HTTP/2 session: status, headers and body text. */
function http2Request(
  session: ClientHttp2Session,
  headers: Record<string, string>,
  body?: string,
): Promise<{ headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers);
    let responseHeaders: IncomingHttpHeaders = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (received) => (responseHeaders = received));
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve({ headers: responseHeaders, body: text }));
    stream.on('error', reject);
    stream.end(body);
  });
}

function openHttp2(): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(api.url, { ca: ca() });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

/** The certificate a new TLS handshake is given. */
function servedCertificate(): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: api.port, ca: ca() }, () => {
      resolve(socket.getPeerCertificate());
      socket.end();
    });
    socket.once('error', reject);
  });
}

describe('HTTPS', () => {
  it('answers HTTP/1.1 over TLS with Strict-Transport-Security', async () => {
    const answer = await new Promise<{ status: number; version: string; hsts: unknown; body: string }>(
      (resolve, reject) => {
        get(`${api.url}/healthz`, { ca: ca(), agent: false }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              version: response.httpVersion,
              hsts: response.headers['strict-transport-security'],
              body,
            }),
          );
        }).once('error', reject);
      },
    );
    expect(answer).toEqual({
      status: 200,
      version: '1.1',
      hsts: HSTS,
      body: JSON.stringify({ status: 'ok' }),
    });
  });

  it('negotiates HTTP/2 by ALPN and serves the API on it, HSTS on every answer', async () => {
    const user = await makeUser();
    rememberBearerToken(user.token);
    const session = await openHttp2();
    try {
      expect(session.alpnProtocol).toBe('h2');
      const created = await http2Request(
        session,
        {
          ':method': 'POST',
          ':path': '/v1/drive/folders',
          authorization: `Bearer ${user.token}`,
          'content-type': 'application/json',
        },
        JSON.stringify({ name: 'over http2', parent_uuid: null }),
      );
      expect(created.headers[':status']).toBe(201);
      expect(created.headers['strict-transport-security']).toBe(HSTS);
      expect(JSON.parse(created.body)).toMatchObject({ name: 'over http2', parent_uuid: null });
      const missing = await http2Request(session, { ':path': '/no/such/route' });
      expect(missing.headers[':status']).toBe(404);
      expect(missing.headers['strict-transport-security']).toBe(HSTS);
    } finally {
      session.close();
    }
  });

  it('refuses TLS older than 1.2', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = tlsConnect(
        { host: '127.0.0.1', port: api.port, ca: ca(), minVersion: 'TLSv1', maxVersion: 'TLSv1.1' },
        () => {
          resolve(`connected with ${socket.getProtocol()}`);
          socket.end();
        },
      );
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
    });
    // The server's protocol_version alert, not a refusal of this client's own.
    expect(outcome).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
  });

  it(
    'serves a renewed certificate after SIGHUP, while a connection opened before keeps working',
    { timeout: 120_000 },
    async () => {
      const session = await openHttp2();
      try {
        expect((await http2Request(session, { ':path': '/healthz' })).headers[':status']).toBe(200);
        expect((await servedCertificate()).subject.CN).toBe('folio.test');

        const renewed = issueLeaf(caDir(), 'renewed', 'renewed.folio.test');
        copyFileSync(renewed.certFile, join(certDir, 'api.crt'));
        copyFileSync(renewed.keyFile, join(certDir, 'api.key'));
        api.child.kill('SIGHUP');

        const deadline = Date.now() + 60_000;
        let served = await servedCertificate();
        while (served.subject.CN !== 'renewed.folio.test' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100)); // A poll interval, not an assertion.
          served = await servedCertificate();
        }
        expect(served.subject.CN).toBe('renewed.folio.test');
        expect(served.fingerprint256).toBe(
          new X509Certificate(readFileSync(renewed.certFile)).fingerprint256,
        );

        // The HTTP/2 connection of before the reload: still open, still answering, still on the old certificate.
        expect(session.closed || session.destroyed).toBe(false);
        expect((await http2Request(session, { ':path': '/healthz' })).headers[':status']).toBe(200);
        expect(
          (session.socket as unknown as { getPeerCertificate(): PeerCertificate }).getPeerCertificate()
            .subject.CN,
        ).toBe('folio.test');
      } finally {
        session.close();
      }
    },
  );
});
