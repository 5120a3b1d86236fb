// The URL rules through the service (spec/webhooks.md § URL rules), with loopback only: the stack allows 127.0.0.0/24
// for the receivers, and every refusal is proven with loopback outside it (127.1.0.1 in every spelling, 0.0.0.0,
// ::1), each watched by a trap listener that must see no connection. Names resolve through the tests' own DNS server
// on loopback. Every other range is proven without traffic in test/unit/webhooks/target.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { call, makeWorkspace } from '../../support/api.js';
import { startTestDns, type TestDnsServer } from '../../support/dns-server.js';
import {
  attemptsOf,
  deliver,
  destinationRow,
  emlMessage,
  makeAdmin,
  makeDestination,
  makeMailbox,
} from '../../support/mail.js';
import { deliveryEnded, eventIdOf } from '../../support/sentinels.js';
import { receiverPool, startTrap, until, type Trap } from '../../support/webhook-receivers.js';

let dns: TestDnsServer;
let traps: Trap[];
const receiver = receiverPool();

beforeAll(async () => {
  const port = Number(process.env.FOLIO_WEBHOOK_DNS_SERVERS!.split(':')[1]);
  dns = await startTestDns(port);
  // 127.0.0.1 catches a connection to 0.0.0.0 (Linux delivers those to the local host).
  traps = await Promise.all(['127.1.0.1', '127.0.0.1', '::1'].map(startTrap));
});

afterAll(async () => {
  await Promise.all(traps.map((trap) => trap.close()));
  await dns.close();
});

afterEach(() => {
  for (const trap of traps) expect(trap.connections, `connections to the trap on ${trap.host}`).toBe(0);
});

const LOOPBACK_OUTSIDE_THE_ALLOWED_RANGE = [
  'https://127.1.0.1/hooks', // dotted
  'https://2130771969/hooks', // decimal
  'https://0x7f010001/hooks', // hex
  'https://0x7f.0x1.0.1/hooks', // hex per part
  'https://017700200001/hooks', // octal
  'https://0177.1.0.1/hooks', // octal first part
  'https://127.1.1/hooks', // short
  'https://127.65537/hooks', // shorter
  'https://[::ffff:127.1.0.1]/hooks', // IPv4-mapped
  'https://[::ffff:7f01:1]/hooks', // IPv4-mapped, hex
  'https://0.0.0.0/hooks',
  'https://0/hooks',
  'https://[::1]/hooks',
  'https://[::]/hooks',
];

describe('URL rules at save', () => {
  it('refuses loopback outside the allowed range in every spelling, with 422 invalid_url', async () => {
    const admin = await makeAdmin();
    for (const url of LOOPBACK_OUTSIDE_THE_ALLOWED_RANGE) {
      const response = await call('POST', '/v1/admin/webhooks', { token: admin.token, json: { url } });
      expect(response.status, url).toBe(422);
      expect(response.body.error, url).toBe('invalid_url');
    }
  });

  it('refuses a name that resolves to a refused address, even when another of its addresses is allowed', async () => {
    dns.set('inward.folio.test', ['127.1.0.1']);
    dns.set('loop6.folio.test', ['::1']);
    dns.set('mixed.folio.test', ['127.0.0.30', '127.1.0.1']);
    dns.set('unspecified.folio.test', ['0.0.0.0']);
    const admin = await makeAdmin();
    for (const host of [
      'inward.folio.test',
      'loop6.folio.test',
      'mixed.folio.test',
      'unspecified.folio.test',
    ]) {
      const response = await call('POST', '/v1/admin/webhooks', {
        token: admin.token,
        json: { url: `https://${host}/hooks` },
      });
      expect(response.status, host).toBe(422);
      expect(response.body.reason, host).toMatch(/resolves to/);
    }
    const allowed = await call('POST', '/v1/admin/webhooks', {
      token: admin.token,
      json: { url: 'https://hooks.folio.test/hooks' },
    });
    expect(allowed.status).toBe(422);
    expect(allowed.body.reason).toMatch(/does not resolve/);
  });
});

describe('URL rules at delivery', () => {
  it('disables a destination whose saved literal address is refused now, without retry and without a connection', async () => {
    // As if the operator narrowed FOLIO_WEBHOOK_ALLOWED_PRIVATE_CIDRS after these were saved.
    for (const url of [
      'https://2130771969/hooks',
      'https://[::ffff:7f01:1]/hooks',
      'https://0.0.0.0/hooks',
      'https://[::1]/hooks',
    ]) {
      const workspace = await makeWorkspace();
      const mailbox = await makeMailbox(workspace.uuid);
      const destination = await makeDestination(workspace.uuid, 'https://127.0.0.31/hooks', [mailbox.uuid]);
      await db()('webhook_destinations').where({ uuid: destination.uuid }).update({ url });
      const result = await deliver(mailbox.uuid, emlMessage());
      // Sentinel: the delivery's workflow has closed after one attempt; the traps (checked after the test) would
      // already have counted a connection from it, and no retry can follow.
      expect(await deliveryEnded(destination.uuid, eventIdOf(result)), url).toEqual({
        outcome: 'disabled',
        attempts: 1,
      });
      const row = await destinationRow(destination.uuid);
      expect(row.status, url).toBe('disabled');
      expect(row.disabled_reason, url).toMatch(/not a public one|IPv4-compatible/);
      const attempts = await attemptsOf(destination.uuid);
      expect(attempts.map((attempt) => [attempt.attempt, attempt.error_class, attempt.status_code])).toEqual([
        [1, 'address_refused', null],
      ]);
    }
  });

  it('disables a destination whose name now resolves inward, at once and without retry', async () => {
    const target = await receiver('127.0.0.32');
    dns.set('turns.folio.test', ['127.0.0.32']);
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const destination = await makeDestination(workspace.uuid, 'https://turns.folio.test/hooks', [
      mailbox.uuid,
    ]);
    dns.set('turns.folio.test', ['127.1.0.1']);
    const result = await deliver(mailbox.uuid, emlMessage());
    // Sentinel: the delivery's workflow has closed after one attempt, so no retry and no connection can follow.
    expect(await deliveryEnded(destination.uuid, eventIdOf(result))).toEqual({
      outcome: 'disabled',
      attempts: 1,
    });
    const row = await destinationRow(destination.uuid);
    expect(row.status).toBe('disabled');
    expect(row.disabled_reason).toBe(
      'turns.folio.test resolves to 127.1.0.1: 127.1.0.1 is a loopback address, not a public one',
    );
    expect((await attemptsOf(destination.uuid)).map((attempt) => attempt.error_class)).toEqual([
      'address_refused',
    ]);
    expect(
      (await db()('webhook_deliveries').where({ destination_uuid: destination.uuid }).first()).state,
    ).toBe('stopped');
    expect(target.requests).toHaveLength(0);
  });

  it('connects to the address it checked when the answer changes between the check and the connect (rebinding)', async () => {
    const target = await receiver('127.0.0.33');
    dns.set('rebind.folio.test', ['127.0.0.33']);
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const destination = await makeDestination(workspace.uuid, 'https://rebind.folio.test/hooks', [
      mailbox.uuid,
    ]);
    // The first answer at delivery is the receiver; every answer after it is loopback outside the allowed range.
    dns.set('rebind.folio.test', { addresses: ['127.0.0.33'], then: ['127.1.0.1'] });
    const before = dns.queries('rebind.folio.test');
    await deliver(mailbox.uuid, emlMessage());
    const [request] = await target.waitFor(1);
    await until(
      'succeeded',
      async () =>
        (await db()('webhook_deliveries').where({ destination_uuid: destination.uuid }).first()).state ===
        'succeeded',
    );
    expect(request!.headers.host).toBe('rebind.folio.test');
    expect(request!.servername).toBe('rebind.folio.test');
    // One A and one AAAA question for the check; the connect asked nothing more.
    expect(dns.queries('rebind.folio.test') - before).toBe(2);
  });

  it('checks the certificate against the hostname, not the address it connects to', async () => {
    // The leaf covers 127.0.0.34 and *.folio.test, not hooks.elsewhere.test.
    const target = await receiver('127.0.0.34');
    dns.set('hooks.elsewhere.test', ['127.0.0.34']);
    const workspace = await makeWorkspace();
    const mailbox = await makeMailbox(workspace.uuid);
    const destination = await makeDestination(workspace.uuid, 'https://hooks.elsewhere.test/hooks', [
      mailbox.uuid,
    ]);
    await deliver(mailbox.uuid, emlMessage());
    await until('first attempt recorded', async () =>
      (await attemptsOf(destination.uuid)).some((attempt) => attempt.outcome === 'failure'),
    );
    expect((await attemptsOf(destination.uuid))[0]).toMatchObject({ attempt: 1, error_class: 'tls_error' });
    expect(target.requests).toHaveLength(0);
  });
});
