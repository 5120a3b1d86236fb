// The delivery-time URL check and the pinned connect, without sending a packet anywhere: resolvers are a test DNS
// server on loopback (answering private, link-local, CGNAT, unique-local, documentation and multicast addresses) or a
// function, and the connect is only ever handed the judged address, checked here through the lookup it is given.
import { EventEmitter } from 'node:events';
import { Agent } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { LookupAddress } from 'node:dns';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedCidrs } from '../../../domain/webhooks/address-policy.js';
import { createHostResolver, judgeTarget, type TargetPolicy } from '../../../domain/webhooks/target.js';
import {
  createWebhookTransport,
  errorClassOf,
  pinnedLookup,
  type SendRequest,
} from '../../../platform/webhook-transport.js';
import { freeUdpPort, startTestDns, type TestDnsServer } from '../../support/dns-server.js';

const INWARD = [
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '127.0.0.1',
  '0.0.0.0',
  '192.0.2.10',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '198.18.0.1',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'ff02::1',
  '2001:db8::1',
  '::1',
  '::ffff:10.0.0.1',
  '64:ff9b::a00:1',
];

const fixed = (answers: Record<string, string[]>): TargetPolicy => ({
  allowedPrivate: [],
  resolve: async (hostname) => answers[hostname] ?? [],
});

describe('judgeTarget with a resolver function', () => {
  it('refuses a name when any address it resolves to is not public, as pointing inward', async () => {
    for (const address of INWARD) {
      const verdict = await judgeTarget(
        'https://hooks.example.com/x',
        fixed({ 'hooks.example.com': ['93.184.215.14', address] }),
      );
      expect(verdict, address).toMatchObject({
        allowed: false,
        inward: true,
        reason: expect.stringContaining(address),
      });
    }
  });

  it('answers the first address of a name that resolves only to public addresses, to connect to', async () => {
    const verdict = await judgeTarget(
      'https://hooks.example.com/x?y=1',
      fixed({ 'hooks.example.com': ['93.184.215.14', '2606:4700:4700::1111'] }),
    );
    expect(verdict).toMatchObject({
      allowed: true,
      hostname: 'hooks.example.com',
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('refuses a name that does not resolve, or whose lookup fails, without calling it inward', async () => {
    expect(await judgeTarget('https://gone.example.com/', fixed({}))).toMatchObject({
      allowed: false,
      inward: false,
    });
    const failing: TargetPolicy = {
      allowedPrivate: [],
      resolve: async () => Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
    };
    expect(await judgeTarget('https://slow.example.com/', failing)).toMatchObject({
      allowed: false,
      inward: false,
      reason: expect.stringContaining('ETIMEOUT'),
    });
  });

  it('judges a literal address without any lookup', async () => {
    const policy: TargetPolicy = {
      allowedPrivate: parseAllowedCidrs(['127.0.0.0/24']),
      resolve: async () => {
        throw new Error('no lookup expected');
      },
    };
    expect(await judgeTarget('https://127.0.0.7/', policy)).toMatchObject({
      allowed: true,
      address: '127.0.0.7',
      family: 4,
    });
    expect(await judgeTarget('https://10.1.2.3/', policy)).toMatchObject({ allowed: false, inward: true });
    expect(await judgeTarget('https://[fe80::1]/', policy)).toMatchObject({ allowed: false, inward: true });
  });
});

describe('judgeTarget through a DNS server on loopback', () => {
  let dns: TestDnsServer;
  let port: number;
  beforeAll(async () => {
    port = await freeUdpPort();
    dns = await startTestDns(port);
  });
  afterAll(() => dns.close());

  it('refuses each inward answer the server gives, A or AAAA', async () => {
    const resolve = createHostResolver([`127.0.0.1:${port}`]);
    for (const [index, address] of INWARD.entries()) {
      const name = `inward-${index}.test.example`;
      dns.set(name, [address]);
      const verdict = await judgeTarget(`https://${name}/hooks`, { allowedPrivate: [], resolve });
      expect(verdict, address).toMatchObject({ allowed: false, inward: true });
    }
  });

  it('hands the connect the address it checked when a later answer would be inward (rebinding), with no second lookup', async () => {
    const resolve = createHostResolver([`127.0.0.1:${port}`]);
    for (const [index, address] of INWARD.entries()) {
      const name = `rebind-${index}.test.example`;
      const family = address.includes(':') ? 'AAAA' : 'A';
      // The check's question of that family is answered with a public address; every later answer is the inward one.
      dns.set(name, {
        addresses: [family === 'A' ? '93.184.215.14' : '2606:4700:4700::1111'],
        then: [address],
      });
      const verdict = await judgeTarget(`https://${name}/hooks`, { allowedPrivate: [], resolve });
      if (!verdict.allowed) throw new Error(`${address}: ${verdict.reason}`);
      const asked = dns.queries(name);

      // The connect net.connect would make, replaced: it asks the request's lookup where to go, as net does, and dials
      // nothing; the receiver "answers" 204.
      const dialled: string[] = [];
      const send: SendRequest = (options, onResponse) => {
        const record = (_error: unknown, found: string | LookupAddress[]) =>
          dialled.push(...(typeof found === 'string' ? [found] : found.map((entry) => entry.address)));
        options.lookup!(name, {}, record);
        options.lookup!(name, { all: true }, record);
        const request = Object.assign(new EventEmitter(), {
          end: () =>
            onResponse(
              Object.assign(Readable.from([]), {
                statusCode: 204,
                headers: {},
              }) as unknown as IncomingMessage,
            ),
          destroy: () => undefined,
        });
        expect(options).toMatchObject({ host: verdict.address, servername: name, port: 443 });
        return request as unknown as ClientRequest;
      };
      const result = await createWebhookTransport(send).post(
        verdict,
        Buffer.from('{}'),
        {},
        {
          timeoutMs: 1000,
          keepIdleMs: 4000,
        },
      );
      expect(result, address).toMatchObject({ statusCode: 204, errorClass: null });
      expect(dialled, address).toEqual([verdict.address, verdict.address]);
      expect(dialled, address).not.toContain(address);
      expect(dns.queries(name), address).toBe(asked);
    }
  });

  it('asks for A and AAAA and answers both families; NXDOMAIN is no address', async () => {
    const resolve = createHostResolver([`127.0.0.1:${port}`]);
    dns.set('both.test.example', ['93.184.215.14', '2606:4700:4700::1111']);
    expect(await resolve('both.test.example')).toEqual(['93.184.215.14', '2606:4700:4700::1111']);
    expect(await resolve('nowhere.test.example')).toEqual([]);
  });
});

describe('the pinned connect', () => {
  it('answers the judged address to every lookup, in both callback shapes', () => {
    const lookup = pinnedLookup('93.184.215.14', 4);
    let single: unknown[] = [];
    lookup('rebound.example.com', {}, (...args: unknown[]) => (single = args));
    expect(single).toEqual([null, '93.184.215.14', 4]);
    let all: unknown[] = [];
    lookup('rebound.example.com', { all: true }, (...args: unknown[]) => (all = args));
    expect(all).toEqual([null, [{ address: '93.184.215.14', family: 4 }]]);
  });

  it('dials the judged address, sends SNI and checks the certificate for the name, on port 443', () => {
    const { requestOptions: pinnedRequestOptions } = createWebhookTransport();
    const options = pinnedRequestOptions(
      {
        url: new URL('https://hooks.example.com/in?x=1'),
        hostname: 'hooks.example.com',
        address: '93.184.215.14',
        family: 4,
      },
      { a: 'b' },
    );
    expect(options).toMatchObject({
      method: 'POST',
      host: '93.184.215.14',
      family: 4,
      port: 443,
      path: '/in?x=1',
      servername: 'hooks.example.com',
      agent: false,
      rejectUnauthorized: true,
    });
    expect(options.headers).toMatchObject({ a: 'b', host: 'hooks.example.com' });
    let looked: unknown[] = [];
    options.lookup!('hooks.example.com', {}, (...args: unknown[]) => (looked = args));
    expect(looked).toEqual([null, '93.184.215.14', 4]);
    const literal = pinnedRequestOptions(
      {
        url: new URL('https://[2606:4700::1]/'),
        hostname: '2606:4700::1',
        address: '2606:4700::1',
        family: 6,
      },
      {},
    );
    expect(literal).toMatchObject({ host: '2606:4700::1', family: 6, servername: undefined });
    // One trust store for every POST, holding no TLS session: each new connection makes a full, checked handshake.
    expect(literal.secureContext).toBe(options.secureContext);
    expect(options).not.toHaveProperty('session');
  });

  it('keeps connections for FOLIO_WEBHOOK_KEEP_ALIVE in a pool named by the judged address, resuming no TLS session', () => {
    const target = {
      url: new URL('https://hooks.example.com/'),
      hostname: 'hooks.example.com',
      address: '93.184.215.14',
      family: 4 as const,
    };
    const { requestOptions: pinnedRequestOptions } = createWebhookTransport();
    const kept = pinnedRequestOptions(target, {}, 4000);
    const agent = kept.agent as Agent;
    expect(agent).toBeInstanceOf(Agent);
    expect(agent.options).toMatchObject({ keepAlive: true, timeout: 4000, maxCachedSessions: 0 });
    // One pool per setting, whatever the target; Node names the connections in it by address, port and SNI name.
    expect(pinnedRequestOptions({ ...target, address: '93.184.215.15' }, {}, 4000).agent).toBe(agent);
    expect(agent.getName({ ...kept } as never)).not.toBe(
      agent.getName({ ...pinnedRequestOptions({ ...target, address: '93.184.215.15' }, {}, 4000) } as never),
    );
    expect(pinnedRequestOptions(target, {}, 0).agent).toBe(false);
  });

  it('names error classes', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(errorClassOf(coded('ECONNREFUSED'))).toBe('connection_refused');
    expect(errorClassOf(coded('ECONNRESET'))).toBe('connection_reset');
    expect(errorClassOf(coded('WEBHOOK_TIMEOUT'))).toBe('timeout');
    expect(errorClassOf(coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toBe('tls_error');
    expect(errorClassOf(coded('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('tls_error');
    expect(errorClassOf(coded('DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe('tls_error');
    expect(errorClassOf(coded('EWHATEVER'))).toBe('network_error');
  });
});
