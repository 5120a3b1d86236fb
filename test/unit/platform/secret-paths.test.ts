// The one redaction of logged paths: every segment a route declares secret, in any case or encoding, and Folio's
// prefixed secrets anywhere (platform/secret-paths.ts, docs/operations.md § Secrets in logs).
import { describe, expect, it } from 'vitest';
import { declareSecretSegment, redactPath } from '../../../platform/secret-paths.js';
import { loggedPath } from '../../../api/middleware/request-context.js';
// The routes declare their secret segments as their modules load, as the API's app does.
import '../../../api/routes/drive/public-links.js';
import knexFactory from 'knex';
import { adminApp } from '../../../api/admin-app/index.js';
import { targetPolicyFrom } from '../../../domain/webhooks/target.js';

const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345';
const SIGN_IN = 'folio_sl_' + 'Q'.repeat(43);
const UUID = '6b0f4c36-0d8b-4f3e-9a55-0c9f1a2b3c4d';

adminApp({
  url: new URL('http://127.0.0.1:8080/admin'),
  limits: { idleMs: 60_000, absoluteMs: 600_000 },
  // Mounting it declares the secret segment; nothing here sends a request, so nothing is connected to.
  db: knexFactory({ client: 'pg' }),
  runInTransaction: () => Promise.reject(new Error('no request is made here')),
  webhooks: {
    masterKey: Buffer.alloc(32),
    policy: targetPolicyFrom({ allowedPrivateCidrs: [], dnsServers: [] }),
    secretOverlapMs: 0,
    retryDelaysMs: [],
  },
});

describe('loggedPath', () => {
  it('leaves a public link token out of /s/<token> in any case, and keeps what follows it', () => {
    expect(loggedPath(`/s/${TOKEN}`)).toBe('/s/<token>');
    expect(loggedPath(`/S/${TOKEN}`)).toBe('/S/<token>');
    expect(loggedPath(`/s/${TOKEN}/${UUID}`)).toBe(`/s/<token>/${UUID}`);
    expect(loggedPath(`/%73/${TOKEN}`)).toBe('/%73/<token>');
    expect(loggedPath(`//s//${TOKEN}`)).toBe('//s//<token>');
    expect(loggedPath(`/s/${TOKEN}?download=1`)).toBe('/s/<token>');
  });

  it('leaves an admin sign-in link secret out of <admin path>/sign-in/<token>, in any case, declared by the admin app', () => {
    expect(loggedPath('/admin/sign-in/not-a-folio-token-shape')).toBe('/admin/sign-in/<token>');
    expect(loggedPath('/ADMIN/Sign-In/not-a-folio-token-shape')).toBe('/ADMIN/Sign-In/<token>');
    expect(loggedPath('/admin/sign-in')).toBe('/admin/sign-in');
  });

  it("leaves out any segment shaped like one of Folio's prefixed secrets, wherever it is", () => {
    expect(loggedPath(`/anything/${SIGN_IN}/more`)).toBe('/anything/<secret>/more');
    expect(loggedPath(`/v1/x/${SIGN_IN.toUpperCase()}`)).toBe('/v1/x/<secret>');
    expect(loggedPath(`/sign-in/${SIGN_IN}`)).toBe('/sign-in/<secret>');
  });

  it('leaves every other path as it is, and never logs a query string', () => {
    expect(loggedPath(`/v1/drive/files/${UUID}`)).toBe(`/v1/drive/files/${UUID}`);
    expect(loggedPath('/v1/drive/files?parent=x&token=y')).toBe('/v1/drive/files');
    expect(loggedPath('/s')).toBe('/s');
    expect(loggedPath('/')).toBe('/');
  });

  it('covers a route declared later the same way', () => {
    expect(redactPath('/invite/abc/accept')).toBe('/invite/abc/accept');
    declareSecretSegment('/Invite', '<invite>');
    expect(redactPath('/INVITE/abc/accept')).toBe('/INVITE/<invite>/accept');
  });

  it('takes time linear in the path', () => {
    const long = `/s/${'a/'.repeat(200_000)}`;
    const started = performance.now();
    expect(redactPath(long).startsWith('/s/<token>/a/')).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
