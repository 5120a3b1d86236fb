// The app's cache of parsed documents (platform/working-document-cache.ts): an entry answers only the exact state it
// was kept for, and the change notifications it follows give memory back without ever being needed for correctness.
// See docs/documents-model.md § The working-document cache.
import { describe, expect, it } from 'vitest';
import { WorkingDocumentCache, type FollowChanges } from '../../../platform/working-document-cache.js';

type Listener = Parameters<FollowChanges>[1];

/** A live channel held in the test's hand: who follows which document, and when they stop. */
function channel() {
  const listeners = new Map<string, Listener>();
  const ended: string[] = [];
  let stopped: () => void = () => undefined;
  const nextStop = () => new Promise<void>((resolve) => (stopped = resolve));
  const follow: FollowChanges = async (documentUuid, listener) => {
    listeners.set(documentUuid, listener);
    return () => {
      ended.push(documentUuid);
      stopped();
    };
  };
  return { follow, listeners, ended, nextStop };
}

const parsed = (markdown: string) => ({ markdown });
const state = (uuid: string, revision: number, version: number) => ({
  uuid,
  revision,
  state_version: String(version),
});

describe('the working-document cache', () => {
  it('answers only the exact state version an entry was kept for', () => {
    const cache = new WorkingDocumentCache<{ markdown: string }>();
    const kept = parsed('Text.');
    cache.keep(state('a', 2, 10), kept);
    expect(cache.get(state('a', 2, 10))).toBe(kept);
    // A comment changes the state at the same revision: another version is a miss.
    expect(cache.get(state('a', 2, 11))).toBeUndefined();
    expect(cache.get(state('b', 2, 10))).toBeUndefined();
  });

  it("lets an entry go when another process's newer revision is heard, and keeps it for its own revision", async () => {
    const live = channel();
    const cache = new WorkingDocumentCache<{ markdown: string }>({ follow: live.follow });
    cache.keep(state('a', 3, 20), parsed('Three.'));
    await Promise.resolve();
    const listener = live.listeners.get('a')!;
    listener({ event: 'threads', revision: 3 });
    expect(cache.get(state('a', 3, 20))).toBeDefined();
    listener({ event: 'revision', revision: 4 });
    expect(cache.get(state('a', 3, 20))).toBeUndefined();
  });

  it('lets every entry of a document go on a resync, and stops following a document it no longer holds', async () => {
    const live = channel();
    const cache = new WorkingDocumentCache<{ markdown: string }>({ follow: live.follow });
    cache.keep(state('a', 1, 5), parsed('One.'));
    // A newer state of the same document replaces the entry and stays followed once.
    cache.keep(state('a', 2, 6), parsed('Two.'));
    await Promise.resolve();
    expect(live.ended).toEqual([]);
    const stop = live.nextStop();
    live.listeners.get('a')!({ event: 'resync' });
    expect(cache.get(state('a', 2, 6))).toBeUndefined();
    await stop;
    expect(live.ended).toEqual(['a']);
  });

  it('keeps no document larger than a quarter of its bound, and follows none it does not keep', async () => {
    const live = channel();
    const cache = new WorkingDocumentCache<{ markdown: string }>({ follow: live.follow, maxBytes: 64 * 400 });
    cache.keep(state('small', 1, 1), parsed('x'.repeat(100)));
    cache.keep(state('large', 1, 2), parsed('x'.repeat(101)));
    await Promise.resolve();
    expect(cache.get(state('small', 1, 1))).toBeDefined();
    expect(cache.get(state('large', 1, 2))).toBeUndefined();
    expect([...live.listeners.keys()]).toEqual(['small']);
  });
});
