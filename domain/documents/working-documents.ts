// Parsed documents kept between requests: per document, the WorkingDocument of one stored state (its parse, the
// markdown of each block, the quote index, the placements), so an edit or a read of a document the app has seen
// costs what it touches instead of a parse and a full write-out. The cache itself is the app's, handed in through
// DocumentsDeps (platform/working-document-cache.ts); here is the rule for using it. See docs/documents-model.md §
// The working-document cache.
//
// Correct with any number of processes because an entry is used only for the exact state it was made from: the
// caller reads documents.state_version (db/migrations/018) under the row lock or in its read snapshot and asks for
// that version; any other version (another process wrote, or a write of ours rolled back) is a miss, and the state
// is rebuilt from the revision log and parsed once.
import type { Knex } from 'knex';
import { WorkingDocument } from '../document-engine/index.js';
import { readRevisionState } from './revision-log.js';

/** Which stored state: the document, its revision and documents.state_version, as read from the row. */
export interface StateRef {
  uuid: string;
  revision: number;
  state_version: string;
}

/** The app's parsed documents, each kept for one state (platform/working-document-cache.ts). */
export interface WorkingDocuments {
  /** The working document of that exact state if the app holds it. */
  get(state: StateRef): WorkingDocument | undefined;
  /**
   * Keeps the working document of a state, under the version read with it or returned by the write that made it.
   * Safe before the commit: a version is never handed out twice, so an entry of a write that rolls back is never
   * asked for.
   */
  keep(state: StateRef, document: WorkingDocument): void;
}

/**
 * The working document of a document's stored state at `version`, which the caller read from the row in the same
 * transaction (under the row lock, or in its read snapshot): from the cache, or read and parsed once and kept.
 */
export async function workingDocument(
  knex: Knex,
  cache: WorkingDocuments,
  document: StateRef,
): Promise<WorkingDocument> {
  const hit = cache.get(document);
  if (hit) return hit;
  // The current revision rebuilt from the log: its rows cannot change while the caller holds the lock or its snapshot.
  const state = await readRevisionState(knex, document.uuid, document.revision);
  if (!state) throw new Error(`Document ${document.uuid} has no revision ${document.revision} in its log.`);
  const parsed = WorkingDocument.open(state);
  cache.keep(document, parsed);
  return parsed;
}
