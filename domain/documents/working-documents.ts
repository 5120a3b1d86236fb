// The API process's cache of parsed documents: per document, the WorkingDocument of one stored state (its parse, the
// markdown of each block, the quote index, the placements), so an edit or a read of a document this process has
// seen costs what it touches instead of a parse and a full write-out. See docs/documents-model.md § The working-document cache.
//
// Correct with any number of API processes because an entry is used only for the exact state it was made from: the
// caller reads documents.state_version (db/migrations/018) under the row lock or in its read snapshot and asks for
// that version; any other version (another process wrote, or a write of ours rolled back) is a miss, and the state
// is rebuilt from the revision log and parsed once. Change notifications (live.ts) only drop entries that another process made
// old, so memory is not spent on them; nothing depends on them arriving.
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { WorkingDocument } from '../document-engine/index.js';
import { readRevisionState } from './revision-log.js';

/**
 * Bytes of memory an entry holds per character of its markdown: its JSON, nodes, block strings and units. Measured on
 * a 1 MB sample document (2026-11-24): 68 bytes, some of it the writer's content cache, which has a bound of its own.
 */
const BYTES_PER_CHARACTER = 64;
/** The cache's bound on this process's memory. */
const CACHE_BYTES = 512 * 1024 * 1024;

/** Which stored state: the document, its revision and documents.state_version, as read from the row. */
export interface StateRef {
  uuid: string;
  revision: number;
  state_version: string;
}

interface Entry {
  version: string;
  revision: number;
  document: WorkingDocument;
}

/** How the cache hears of other processes' writes: the live channel's subscribe (LiveHub), handed in by the edge. */
export type FollowChanges = (
  documentUuid: string,
  listener: (event: { event: string; revision?: number }) => void,
) => Promise<() => void>;

let follow: FollowChanges | undefined;
/** The subscriptions of the documents held, each ended when its document leaves the cache. */
const following = new Map<string, Promise<() => void>>();

const cache = new LRUCache<string, Entry>({
  maxSize: CACHE_BYTES,
  dispose: (_entry, documentUuid, reason) => {
    // Replaced by a newer state of the same document: still followed.
    if (reason === 'set') return;
    const unsubscribe = following.get(documentUuid);
    following.delete(documentUuid);
    void unsubscribe?.then((end) => end());
  },
  // A document larger than a quarter of the cache is parsed per request rather than pushing out everything else.
  maxEntrySize: CACHE_BYTES / 4,
  sizeCalculation: (entry) => Math.max(1, entry.document.markdown.length * BYTES_PER_CHARACTER),
});

/**
 * The working document of a document's stored state at `version`, which the caller read from the row in the same
 * transaction (under the row lock, or in its read snapshot): from the cache, or read and parsed once and kept.
 */
export async function workingDocument(knex: Knex, document: StateRef): Promise<WorkingDocument> {
  const hit = cachedWorkingDocument(document);
  if (hit) return hit;
  // The current revision rebuilt from the log: its rows cannot change while the caller holds the lock or its snapshot.
  const state = await readRevisionState(knex, document.uuid, document.revision);
  if (!state) throw new Error(`Document ${document.uuid} has no revision ${document.revision} in its log.`);
  const parsed = WorkingDocument.open(state);
  keepWorkingDocument(document, parsed);
  return parsed;
}

/** The working document of that exact state if this process holds it; for a caller holding neither lock nor snapshot. */
export function cachedWorkingDocument(document: StateRef): WorkingDocument | undefined {
  const hit = cache.get(document.uuid);
  return hit?.version === String(document.state_version) ? hit.document : undefined;
}

/**
 * Keeps the working document of a state just written, under the version the write returned. Safe before the commit:
 * a version is never handed out twice, so an entry of a write that rolls back is never asked for.
 */
export function keepWorkingDocument(document: StateRef, parsed: WorkingDocument): void {
  cache.set(document.uuid, {
    version: String(document.state_version),
    revision: document.revision,
    document: parsed,
  });
  if (follow && cache.has(document.uuid) && !following.has(document.uuid)) {
    const uuid = document.uuid;
    following.set(
      uuid,
      // A lost channel only keeps an old entry in memory a while longer: never used, it is pushed out in time.
      follow(uuid, (event) =>
        event.revision === undefined ? cache.delete(uuid) : forgetOlderThan(uuid, event.revision),
      ).catch(() => () => undefined),
    );
  }
}

/** Has the cache hear of other processes' writes through the live channel; the API calls it once. */
export function followDocumentChanges(subscribe: FollowChanges): void {
  follow = subscribe;
}

/**
 * Another process changed a document (a change notification): an entry of an older revision will not be asked for
 * again, so its memory is given back. An entry at the notified revision may still be current (our own write).
 */
function forgetOlderThan(documentUuid: string, revision: number): void {
  const entry = cache.peek(documentUuid);
  if (entry && entry.revision < revision) cache.delete(documentUuid);
}
