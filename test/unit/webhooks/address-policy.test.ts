// The SSRF address matrix of spec/webhooks.md § URL rules, judged without any network traffic.
import { describe, expect, it } from 'vitest';
import { judgeAddress, judgeWebhookUrl, parseAllowedCidrs } from '../../../domain/webhooks/address-policy.js';

const refused = (text: string, allowed: string[] = []) =>
  expect(judgeAddress(text, parseAllowedCidrs(allowed)).allowed, text).toBe(false);
const allowed = (text: string, allow: string[] = []) =>
  expect(judgeAddress(text, parseAllowedCidrs(allow)).allowed, text).toBe(true);

describe('judgeAddress', () => {
  it('allows public unicast addresses, IPv4 and IPv6', () => {
    for (const address of [
      '93.184.215.14',
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
    ])
      allowed(address);
  });

  it('refuses every non-public IPv4 range', () => {
    const cases = [
      '127.0.0.1',
      '127.1.0.1',
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '192.0.2.10',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '192.0.0.8',
      '240.0.0.1',
    ];
    for (const address of cases) refused(address);
  });

  it('refuses every non-public IPv6 range, and IPv4 hidden in IPv6 forms', () => {
    const cases = [
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456:789a::1',
      'ff02::1',
      '2001:db8::1',
      'fec0::1',
      '3fff::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::127.0.0.1',
      '::7f00:1',
      '64:ff9b::a00:1',
      '::ffff:0:10.0.0.1',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    ];
    for (const address of cases) refused(address);
  });

  it('lets the operator allow a narrow private range and nothing beside it', () => {
    const allow = ['127.0.0.0/24'];
    allowed('127.0.0.1', allow);
    allowed('::ffff:127.0.0.5', allow);
    refused('127.1.0.1', allow);
    refused('10.0.0.1', allow);
    refused('::1', allow);
  });

  it('judges a mapped public address as public', () => {
    allowed('::ffff:8.8.8.8');
  });

  it('refuses text that is not an address', () => {
    refused('not-an-ip');
    refused('');
  });

  it('refuses a bad allow-list entry by name', () => {
    expect(() => parseAllowedCidrs(['127.0.0.0/33'])).toThrow(/127.0.0.0\/33/);
  });
});

describe('judgeWebhookUrl', () => {
  const allow = parseAllowedCidrs(['127.0.0.0/24']);

  it('accepts https on 443 with a domain name, leaving the address to the delivery-time check', () => {
    const verdict = judgeWebhookUrl('https://hooks.example.com/folio?x=1');
    expect(verdict).toMatchObject({
      allowed: true,
      hostname: 'hooks.example.com',
      literalAddress: undefined,
    });
    expect(judgeWebhookUrl('https://hooks.example.com:443/').allowed).toBe(true);
  });

  it('refuses other schemes, ports, credentials and local names', () => {
    for (const url of [
      'http://hooks.example.com/',
      'https://hooks.example.com:8443/',
      'ftp://hooks.example.com/',
      'https://user:pw@hooks.example.com/',
      'https://localhost/',
      'https://printer/',
      'https://a.localhost/',
      'not a url',
    ]) {
      expect(judgeWebhookUrl(url, allow).allowed, url).toBe(false);
    }
  });

  it('refuses loopback outside the allowed range in every IPv4 spelling, and IPv6 loopback forms', () => {
    // 127.1.0.1 as decimal, hex, octal, short and mapped forms; 0.0.0.0 and ::1.
    const spellings = [
      'https://127.1.0.1/',
      'https://2130771969/',
      'https://0x7f010001/',
      'https://0x7f.1.0.1/',
      'https://017700200001/',
      'https://0177.1.0.1/',
      'https://127.1.1/',
      'https://127.65537/',
      'https://[::ffff:127.1.0.1]/',
      'https://[::ffff:7f01:1]/',
      'https://0.0.0.0/',
      'https://0/',
      'https://[::1]/',
      'https://[::]/',
    ];
    for (const url of spellings) expect(judgeWebhookUrl(url, allow).allowed, url).toBe(false);
  });

  it('accepts a literal address inside the allowed range, in any spelling', () => {
    for (const url of [
      'https://127.0.0.7/',
      'https://2130706439/',
      'https://0x7f.0.0.7/',
      'https://[::ffff:127.0.0.7]/',
    ]) {
      expect(judgeWebhookUrl(url, allow), url).toMatchObject({
        allowed: true,
        literalAddress: expect.any(String),
      });
    }
  });
});
