// A stack's services listen on ports picked a moment before they start (deploy/local/services.ts freePort): picks made
// together never repeat, and a service that lost its port to another process meanwhile is started again on new ports
// (startOnFreshPorts), while any other failure to start is answered at once.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort, startOnFreshPorts } from '../../../deploy/local/services.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function logFile(): string {
  dir = mkdtempSync(join(tmpdir(), 'folio-fresh-ports-'));
  const file = join(dir, 'service.log');
  // A log kept from an earlier start of the same service: what it says is not this start's failure.
  writeFileSync(file, 'listen tcp 127.0.0.1:20001: bind: address already in use\n');
  return file;
}

/** A service start that fails the first `failures` times, each time logging `line`, then answers its attempt. */
function flakyStart(file: string, failures: number, line: string) {
  const ports: number[] = [];
  const start = async () => {
    const port = await freePort();
    ports.push(port);
    if (ports.length <= failures) {
      appendFileSync(file, `${line.replace('PORT', String(port))}\n`);
      throw new Error('the service exited with code 1');
    }
    return { port, attempt: ports.length };
  };
  return { start, ports };
}

describe('freePort', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never answers the same port twice, though the draw repeats', async () => {
    // The draw repeats the first port thrice before it moves on: a port answered and not yet listened on is still free.
    const random = Math.random;
    const draws = [0.25, 0.25, 0.25];
    vi.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? random());
    const first = await freePort();
    const second = await freePort();
    expect(second).not.toBe(first);
  });

  it('answers distinct ports to picks made at the same time', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_000);
    }
  });
});

describe('startOnFreshPorts', () => {
  it('starts the service again on new ports when its log says a port was taken', async () => {
    const file = logFile();
    const { start, ports } = flakyStart(
      file,
      2,
      'failed listening for HTTP API on 127.0.0.1:PORT: listen tcp 127.0.0.1:PORT: bind: address already in use',
    );
    const started = await startOnFreshPorts(file, start);
    expect(started).toEqual({ port: ports[2], attempt: 3 });
    expect(new Set(ports).size).toBe(3);
  });

  it('gives up after the attempts it was given, with the last failure', async () => {
    const file = logFile();
    const { start, ports } = flakyStart(file, 5, 'ERROR Unable to start: PORT: address already in use');
    await expect(startOnFreshPorts(file, start, 3)).rejects.toThrow('the service exited with code 1');
    expect(ports).toHaveLength(3);
  });

  it('answers any other failure at once, even when an earlier start in the same log lost a port', async () => {
    const file = logFile();
    const { start, ports } = flakyStart(file, 1, 'FATAL: unable to open the database file');
    await expect(startOnFreshPorts(file, start)).rejects.toThrow('the service exited with code 1');
    expect(ports).toHaveLength(1);
  });

  it('answers a failure with no log at all at once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-fresh-ports-'));
    let attempts = 0;
    const failing = async () => {
      attempts += 1;
      throw new Error('not healthy within 60 s');
    };
    await expect(startOnFreshPorts(join(dir, 'never-written.log'), failing)).rejects.toThrow('not healthy');
    expect(attempts).toBe(1);
  });
});
