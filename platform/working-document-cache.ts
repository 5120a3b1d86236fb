// One app's cache of parsed documents (the Documents domain's WorkingDocuments, domain/documents/working-documents.ts):
// per document, the parse of one stored state, so an edit or a read of a document this app has seen costs what it
// touches instead of a parse and a full write-out. Built by each composition root (api/services.ts), so two apps in
// one process keep their own. See docs/documents-model.md § The working-document cache.
//
// Correct with any number of processes because an entry is used only for the exact state it was made from: the caller
// asks for the documents.state_version it read under the row lock or in its read snapshot; any other version is a
// miss. Change notifications only drop entries that another process made old, so memory is not spent on them;
// nothing depends on them arriving.
import { LRUCache } from 'lru-cache';

/**
 * Bytes of memory an entry holds per character of its markdown: its JSON, nodes, block strings and units. Measured on
 * a 1 MB sample document (2026-11-24): 68 bytes, some of it the writer's content cache, which has a bound of its own.
 */
const BYTES_PER_CHARACTER = 64;
/** The cache's bound on the app's memory. */
const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

/** Which stored state: the document, its revision and documents.state_version, as read from the row. */
interface CachedState {
  uuid: string;
  revision: number;
  state_version: string;
}

/** How the cache hears of other processes' writes: the live channel's subscribe (LiveHub) of the same app. */
export type FollowChanges = (
  documentUuid: string,
  listener: (event: { event: string; revision?: number }) => void,
) => Promise<() => void>;

interface Entry<Parsed> {
  version: string;
  revision: number;
  document: Parsed;
}

/** `Parsed` is the domain's WorkingDocument; the cache needs only its markdown, to count its memory. */
export class WorkingDocumentCache<Parsed extends { readonly markdown: string }> {
  /** The subscriptions of the documents held, each ended when its document leaves the cache. */
  private readonly following = new Map<string, Promise<() => void>>();
  private readonly entries: LRUCache<string, Entry<Parsed>>;
  private readonly follow: FollowChanges | undefined;

  constructor(options: { follow?: FollowChanges; maxBytes?: number } = {}) {
    this.follow = options.follow;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.entries = new LRUCache<string, Entry<Parsed>>({
      maxSize: maxBytes,
      dispose: (_entry, documentUuid, reason) => {
        // Replaced by a newer state of the same document: still followed.
        if (reason === 'set') return;
        const unsubscribe = this.following.get(documentUuid);
        this.following.delete(documentUuid);
        void unsubscribe?.then((end) => end());
      },
      // A document larger than a quarter of the cache is parsed per request rather than pushing out everything else.
      maxEntrySize: maxBytes / 4,
      sizeCalculation: (entry) => Math.max(1, entry.document.markdown.length * BYTES_PER_CHARACTER),
    });
  }

  /** The parse of that exact state if this app holds it. */
  get(state: CachedState): Parsed | undefined {
    const hit = this.entries.get(state.uuid);
    return hit?.version === String(state.state_version) ? hit.document : undefined;
  }

  /**
   * Keeps the parse of a state under the version read with it, or returned by the write that made it. Safe before
   * the commit: a version is never handed out twice, so an entry of a write that rolls back is never asked for.
   */
  keep(state: CachedState, document: Parsed): void {
    const uuid = state.uuid;
    this.entries.set(uuid, { version: String(state.state_version), revision: state.revision, document });
    if (this.follow && this.entries.has(uuid) && !this.following.has(uuid)) {
      this.following.set(
        uuid,
        // A lost channel only keeps an old entry in memory a while longer: never used, it is pushed out in time.
        this.follow(uuid, (event) =>
          event.revision === undefined
            ? this.entries.delete(uuid)
            : this.forgetOlderThan(uuid, event.revision),
        ).catch(() => () => undefined),
      );
    }
  }

  /**
   * Another process changed a document (a change notification): an entry of an older revision will not be asked for
   * again, so its memory is given back. An entry at the notified revision may still be current (our own write).
   */
  private forgetOlderThan(documentUuid: string, revision: number): void {
    const entry = this.entries.peek(documentUuid);
    if (entry && entry.revision < revision) this.entries.delete(documentUuid);
  }
}
