// A document held parsed between requests: its stored state, the ProseMirror document made from it, and what is read
// off it (markdown, thread placements) worked out once. The API keeps one per document and revision
// (domain/documents/working-documents.ts), so an edit costs the blocks it touches rather than the whole document.
//
// Immutable: an edit makes a new WorkingDocument and leaves this one as it was (ProseMirror nodes never change, and
// the new state shares the JSON of the blocks it kept). What the writer caches per block (markdown-write-cache.ts) and
// the normalizer's checks (normalize.ts) are keyed by node, so they stay valid for as long as the nodes are kept.
import { applyOperationsTo, type EditOptions } from './engine.js';
import type { EditOperation } from './operations.js';
import {
  placementsOf,
  serializeWorking,
  toWorking,
  type DocumentState,
  type ThreadPlacement,
  type Working,
} from './state.js';

export class WorkingDocument {
  private markdownText: string | undefined;
  private placed: Map<string, ThreadPlacement> | undefined;

  private constructor(
    /** The engine state, as the revision log stores it. No one may change it. */
    readonly state: DocumentState,
    readonly working: Working,
  ) {}

  /** A document read from its stored state: the one full parse. */
  static open(state: DocumentState): WorkingDocument {
    return new WorkingDocument(state, toWorking(state));
  }

  /** The markdown, assembled from the markdown of each block (written once per block node). */
  get markdown(): string {
    this.markdownText ??= serializeWorking(this.working).markdown;
    return this.markdownText;
  }

  /**
   * Placements by thread id of the threads asked for; one walk of the document places every thread the engine knows,
   * and is kept for later reads of this document.
   */
  placements(threadIds: readonly string[]): Map<string, ThreadPlacement> {
    this.placed ??= placementsOf(this.working);
    const all = this.placed;
    return new Map(
      threadIds.map((id) => [
        id,
        all.get(id) ?? { placement: 'detached', quote: null, suggested_text: null, suggested_format: null },
      ]),
    );
  }

  /** applyOperations: this document with the operations applied, as a new WorkingDocument. */
  edit(
    ops: readonly EditOperation[],
    options: EditOptions,
  ): { document: WorkingDocument; suggestionThreadIds: string[] } {
    const result = applyOperationsTo(this.working, ops, options);
    return {
      document: new WorkingDocument(result.state, result.working),
      suggestionThreadIds: result.suggestionThreadIds,
    };
  }
}
