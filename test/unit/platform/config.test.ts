import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../platform/config.js';
import { parseDuration } from '../../../platform/duration.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ FOLIO_MASTER_KEY: KEY });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.uploadExpiryMs).toBe(24 * 3_600_000);
    expect(config.documentTrashRetentionMs).toBe(30 * 86_400_000);
    expect(config.webhook.retryDelaysMs).toEqual([60_000, 300_000, 1_800_000, 7_200_000]);
    expect(config.webhook.allowedPrivateCidrs).toEqual([]);
  });

  it('sets the Documents limits the spec leaves open, and lets the environment lower them', () => {
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).documentLimits).toEqual({
      maxBytes: 2_000_000,
      maxThreads: 2_000,
      liveStreamsPerUser: 20,
    });
    const small = loadConfig({
      FOLIO_MASTER_KEY: KEY,
      FOLIO_DOCUMENT_MAX_BYTES: '1000',
      FOLIO_DOCUMENT_MAX_THREADS: '3',
      FOLIO_LIVE_STREAMS_PER_USER: '1',
    });
    expect(small.documentLimits).toEqual({ maxBytes: 1000, maxThreads: 3, liveStreamsPerUser: 1 });
    expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_DOCUMENT_MAX_THREADS: '0' })).toThrow(
      /FOLIO_DOCUMENT_MAX_THREADS/,
    );
  });

  it('keeps webhook connections 4 s by default; 0s keeps none, and a bad duration is refused', () => {
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).webhook.keepAliveMs).toBe(4_000);
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_WEBHOOK_KEEP_ALIVE: '0s' }).webhook.keepAliveMs).toBe(0);
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_WEBHOOK_KEEP_ALIVE: '30s' }).webhook.keepAliveMs).toBe(
      30_000,
    );
    expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_WEBHOOK_KEEP_ALIVE: 'forever' })).toThrow(
      /FOLIO_WEBHOOK_KEEP_ALIVE/,
    );
  });

  it('sets the public link rate limits, and lets the environment change them', () => {
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).publicLinkRate).toEqual({
      perIp: 300,
      perToken: 1200,
      windowMs: 60_000,
    });
    const set = loadConfig({
      FOLIO_MASTER_KEY: KEY,
      FOLIO_PUBLIC_LINK_RATE_PER_IP: '5',
      FOLIO_PUBLIC_LINK_RATE_PER_TOKEN: '7',
      FOLIO_PUBLIC_LINK_RATE_WINDOW: '1h',
    });
    expect(set.publicLinkRate).toEqual({ perIp: 5, perToken: 7, windowMs: 3_600_000 });
    expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_PUBLIC_LINK_RATE_PER_TOKEN: '0' })).toThrow(
      /FOLIO_PUBLIC_LINK_RATE_PER_TOKEN/,
    );
  });

  it('names every bad variable in one message', () => {
    const attempt = () =>
      loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_PORT: 'eighty', FOLIO_UPLOAD_EXPIRY: 'soon' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/FOLIO_PORT/);
    expect(attempt).toThrow(/FOLIO_UPLOAD_EXPIRY: "soon" is not a duration/);
  });

  it('refuses to start in production without a master key', () => {
    expect(() => loadConfig({ FOLIO_ENV: 'production' })).toThrow(/FOLIO_MASTER_KEY: required in production/);
  });

  it('refuses a master key that is not 32 bytes', () => {
    expect(() => loadConfig({ FOLIO_MASTER_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /must be 32 bytes/,
    );
  });

  it('parses durations in ms, s, m, h and d', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('30d')).toBe(2_592_000_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('10')).toBeUndefined();
    expect(parseDuration('ten s')).toBeUndefined();
  });
  it('sets the shutdown timings, a ready delay of 0 included', () => {
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).shutdown).toEqual({ readyDelayMs: 0, graceMs: 30_000 });
    expect(
      loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_SHUTDOWN_READY_DELAY: '5s', FOLIO_SHUTDOWN_GRACE: '1m' })
        .shutdown,
    ).toEqual({ readyDelayMs: 5_000, graceMs: 60_000 });
    expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_SHUTDOWN_GRACE: '0s' })).toThrow(
      /FOLIO_SHUTDOWN_GRACE/,
    );
  });

  it('serves HTTPS only with both a certificate and a key file that exist, and builds https public URLs then', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-config-'));
    writeFileSync(join(dir, 'a.crt'), 'cert');
    writeFileSync(join(dir, 'a.key'), 'key');
    try {
      expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).tls).toBeUndefined();
      const tls = loadConfig({
        FOLIO_MASTER_KEY: KEY,
        FOLIO_TLS_CERT: join(dir, 'a.crt'),
        FOLIO_TLS_KEY: join(dir, 'a.key'),
      });
      expect(tls.tls).toEqual({ certFile: join(dir, 'a.crt'), keyFile: join(dir, 'a.key') });
      expect(tls.publicUrl).toBe('https://127.0.0.1:8080');
      expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_TLS_CERT: join(dir, 'a.crt') })).toThrow(
        /FOLIO_TLS_KEY: required when FOLIO_TLS_CERT is set/,
      );
      expect(() =>
        loadConfig({
          FOLIO_MASTER_KEY: KEY,
          FOLIO_TLS_CERT: join(dir, 'a.crt'),
          FOLIO_TLS_KEY: join(dir, 'missing.key'),
        }),
      ).toThrow(/FOLIO_TLS_KEY: no file at/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('trusts no proxy by default, and the number of hops it is told', () => {
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).trustProxyHops).toBe(0);
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_TRUST_PROXY: '2' }).trustProxyHops).toBe(2);
    expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_TRUST_PROXY: 'yes' })).toThrow(
      /FOLIO_TRUST_PROXY/,
    );
  });

  it('reaches Temporal over plain TCP by default, and over TLS or mTLS with the files it is given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-config-'));
    for (const name of ['ca.pem', 'client.pem', 'client.key']) writeFileSync(join(dir, name), name);
    try {
      expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).temporal.tls).toBeUndefined();
      expect(loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_TEMPORAL_TLS: 'true' }).temporal.tls).toEqual({});
      const mtls = loadConfig({
        FOLIO_MASTER_KEY: KEY,
        FOLIO_TEMPORAL_TLS_CA: join(dir, 'ca.pem'),
        FOLIO_TEMPORAL_TLS_CERT: join(dir, 'client.pem'),
        FOLIO_TEMPORAL_TLS_KEY: join(dir, 'client.key'),
        FOLIO_TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
      }).temporal.tls;
      expect(mtls).toEqual({
        serverRootCACertificate: Buffer.from('ca.pem'),
        clientCertPair: { crt: Buffer.from('client.pem'), key: Buffer.from('client.key') },
        serverNameOverride: 'temporal.internal',
      });
      const cloud = loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_TEMPORAL_API_KEY: 'key' }).temporal;
      expect(cloud).toMatchObject({ tls: {}, apiKey: 'key' });
      expect(() =>
        loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_TEMPORAL_TLS_CERT: join(dir, 'client.pem') }),
      ).toThrow(/FOLIO_TEMPORAL_TLS_KEY: required/);
      expect(() =>
        loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_TEMPORAL_TLS_CA: join(dir, 'nope.pem') }),
      ).toThrow(/FOLIO_TEMPORAL_TLS_CA: no file at/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('holds the master key with its id and the previous keys of a rotation', () => {
    const previous = Buffer.alloc(32, 1).toString('base64');
    const older = Buffer.alloc(32, 2).toString('base64');
    expect(loadConfig({ FOLIO_MASTER_KEY: KEY }).masterKey.keyId).toBe(0);
    const rotating = loadConfig({
      FOLIO_MASTER_KEY: KEY,
      FOLIO_MASTER_KEY_ID: '2',
      FOLIO_PREVIOUS_MASTER_KEYS: `0:${older}, 1:${previous}`,
    }).masterKey;
    expect(rotating.keyId).toBe(2);
    expect(Buffer.from(rotating)).toEqual(Buffer.from(KEY, 'base64'));
    expect([...rotating.previousKeys!.entries()]).toEqual([
      [0, Buffer.from(older, 'base64')],
      [1, Buffer.from(previous, 'base64')],
    ]);
    expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_PREVIOUS_MASTER_KEYS: `0:${previous}` })).toThrow(
      /key id 0 is given twice/,
    );
    expect(() =>
      loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_MASTER_KEY_ID: '1', FOLIO_PREVIOUS_MASTER_KEYS: previous }),
    ).toThrow(/each entry is <id 0-255>/);
    expect(() =>
      loadConfig({
        FOLIO_MASTER_KEY: KEY,
        FOLIO_MASTER_KEY_ID: '1',
        FOLIO_PREVIOUS_MASTER_KEYS: '0:c2hvcnQ=',
      }),
    ).toThrow(/FOLIO_PREVIOUS_MASTER_KEYS: must be 32 bytes/);
    expect(() => loadConfig({ FOLIO_MASTER_KEY: KEY, FOLIO_MASTER_KEY_ID: '256' })).toThrow(
      /FOLIO_MASTER_KEY_ID/,
    );
  });
});
