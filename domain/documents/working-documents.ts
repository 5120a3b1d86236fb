// The API process's cache of parsed documents: per document, the WorkingDocument of one stored state (its parse, the
// markdown of each block, the quote index, the placements), so an edit or a read of a document this process has
// seen costs what it touches instead of a parse and a full write-out. See docs/documents-model.md § The working-document cache.
//
// Correct with any number of API processes because an entry is used only for the exact state it was made from: the
// caller reads documents.state_version (db/migrations/016) under the row lock or in its read snapshot and asks for
// that version; any other version (another process wrote, or a write of ours rolled back) is a miss, and the state
// is read from the row and parsed once. Change notifications (live.ts) only drop entries that another process made
// old, so memory is not spent on them; nothing depends on them arriving.
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { WorkingDocument, type DocumentState } from '../document-engine/index.js';

/** Bytes of memory an entry holds per character of its markdown (nodes, JSON, block texts and units), measured. */
const BYTES_PER_CHARACTER = 40;
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

const cache = new LRUCache<string, Entry>({
  maxSize: CACHE_BYTES,
  // A document larger than a quarter of the cache is parsed per request rather than pushing out everything else.
  maxEntrySize: CACHE_BYTES / 4,
  sizeCalculation: (entry) => Math.max(1, entry.document.markdown.length * BYTES_PER_CHARACTER),
});

/**
 * The working document of a document's stored state at `version`, which the caller read from the row in the same
 * transaction (under the row lock, or in its read snapshot): from the cache, or read and parsed once and kept.
 */
export async function workingDocument(knex: Knex, document: StateRef): Promise<WorkingDocument> {
  const parsed = await workingDocumentIfCurrent(knex, document);
  if (!parsed) throw new Error(`Document ${document.uuid} changed under its lock or read snapshot: its state was read without either.`);
  return parsed;
}

/**
 * workingDocument for a caller that read the version without the lock: undefined when, on a miss, the row already
 * holds another state.
 */
export async function workingDocumentIfCurrent(knex: Knex, document: StateRef): Promise<WorkingDocument | undefined> {
  const hit = cache.get(document.uuid);
  if (hit?.version === String(document.state_version)) return hit.document;
  const row = await knex('documents').where({ uuid: document.uuid }).first('state', 'state_version');
  if (!row || String(row.state_version) !== String(document.state_version)) return undefined;
  const parsed = WorkingDocument.open(row.state as DocumentState);
  keepWorkingDocument(document, parsed);
  return parsed;
}

/**
 * Keeps the working document of a state just written, under the version the write returned. Safe before the commit:
 * a version is never handed out twice, so an entry of a write that rolls back is never asked for.
 */
export function keepWorkingDocument(document: StateRef, parsed: WorkingDocument): void {
  cache.set(document.uuid, { version: String(document.state_version), revision: document.revision, document: parsed });
}

/**
 * Another process changed a document (a change notification): an entry of an older revision will not be asked for
 * again, so its memory is given back. An entry at the notified revision may still be current (our own write).
 */
export function forgetOlderThan(documentUuid: string, revision: number): void {
  const entry = cache.peek(documentUuid);
  if (entry && entry.revision < revision) cache.delete(documentUuid);
}

/** For tests: what the cache holds of a document. */
export const cachedVersion = (documentUuid: string): string | undefined => cache.peek(documentUuid)?.version;
