// Reading an inbound SMTP message (ingress/smtp.ts): whole up to FOLIO_SMTP_MAX_BYTES, and past it dropped piece by
// piece, so a sender streaming far more than the limit never makes the process hold more than the limit.
import { Readable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../../../ingress/smtp.js';

const MB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A stream of `count` fresh 1 MB pieces that records, after each piece past `from`, the bytes of the pieces already
 * yielded that are still reachable (held by the reader) once garbage is collected. Counted by weak references to the
 * pieces themselves, not by the process's memory, which other test files running beside this one also move.
 */
function measuredStream(count: number, from: number): { stream: Readable; retained: number[] } {
  const retained: number[] = [];
  const yielded: WeakRef<Buffer>[] = [];
  const stream = Readable.from(
    (async function* pieces() {
      for (let i = 0; i < count; i++) {
        if (i > from) {
          // A turn of the event loop first: a weak reference keeps its target alive until the current job ends.
          await new Promise((resolve) => setImmediate(resolve));
          gc();
          retained.push(yielded.filter((piece) => piece.deref() !== undefined).length * MB);
        }
        const piece = Buffer.alloc(MB, i % 256);
        yielded.push(new WeakRef(piece));
        yield piece;
      }
    })(),
    { objectMode: false },
  );
  return { stream, retained };
}

describe('reading an inbound SMTP message', () => {
  it('answers the whole message when it is within the limit', async () => {
    const pieces = [Buffer.from('Subject: hi\r\n\r\n'), Buffer.from('body\r\n')];
    const raw = await readMessage(Readable.from(pieces), 100);
    expect(raw?.toString()).toBe('Subject: hi\r\n\r\nbody\r\n');
    expect(await readMessage(Readable.from([Buffer.alloc(100)]), 100)).toHaveLength(100);
  });

  it('answers undefined for a message one byte over the limit, or one the SMTP parser marked as over it', async () => {
    expect(await readMessage(Readable.from([Buffer.alloc(60), Buffer.alloc(41)]), 100)).toBeUndefined();
    const marked = Object.assign(Readable.from([Buffer.alloc(10)]), { sizeExceeded: true });
    expect(await readMessage(marked, 100)).toBeUndefined();
  });

  it('reads 10x the limit to its end while holding no more than the limit', async () => {
    const limit = 4 * MB;
    const { stream, retained } = measuredStream(40, 8);
    expect(await readMessage(stream, limit)).toBeUndefined();
    expect(stream.readableEnded).toBe(true);
    // Holding every piece (the old reader) retains 9..39 MB at these points; dropping them retains about one piece.
    expect(retained).toHaveLength(31);
    expect(Math.max(...retained), `bytes retained while reading: ${retained.join(', ')}`).toBeLessThan(limit);
  });
});
