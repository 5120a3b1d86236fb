// Document content: reading it, and the writes that make a revision (edit, suggest, accept, reject, delete a
// suggestion). Each write runs in the caller's transaction with the document row locked, so writes to one
// document serialise and base_revision is checked under the lock. Rendering the answer (markdown, thread
// placement) is CPU work on a snapshot, done after the transaction so the lock is held only for the change.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  acceptSuggestion,
  applyEdit,
  rejectSuggestion,
  removeSuggestion,
  renderMarkdown,
  type DocumentState,
  type EditMode,
} from '../document-engine/index.js';
import { notASuggestion, suggestionNotFound } from '../document-engine/errors.js';
import { atLeast, findVisibleDocument, loadState, type DocumentCaller, type VisibleDocument } from './documents.js';
import { conflict, documentTrashed, forbiddenNotAuthor, invalidBaseRevision, type NeededRole } from './errors.js';
import { notifyDocumentChange } from './live.js';
import { findThread, insertMessage, loadThreadRecords, placeThreads, type ThreadRecord, type ThreadView } from './threads.js';

/** document_content before presentation. */
export interface ContentView {
  uuid: string;
  revision: number;
  markdown: string;
  threads: ThreadView[];
}

/** What a content view is rendered from: read under the lock, rendered after it. */
export interface ContentSnapshot {
  uuid: string;
  revision: number;
  state: DocumentState;
  threads: ThreadRecord[];
}

/** Builds the response body of a write from a content view; the route passes its presenter. */
export type ContentPresenter = (view: ContentView, extra?: { suggestions?: string[] }) => Record<string, unknown>;

export interface WriteResponse {
  status: number;
  body: Record<string, unknown>;
}

/** How a content write ended, before its answer is rendered (see settleWrite). */
export type WriteOutcome =
  | { kind: 'applied'; status: number; snapshot: ContentSnapshot; suggestions?: string[]; body?: Record<string, unknown> }
  | { kind: 'replayed'; status: number; body: Record<string, unknown> }
  | { kind: 'conflict' };

export async function contentSnapshot(knex: Knex, documentUuid: string, revision: number, state: DocumentState): Promise<ContentSnapshot> {
  return { uuid: documentUuid, revision, state, threads: await loadThreadRecords(knex, documentUuid) };
}

export function renderContent(snapshot: ContentSnapshot): ContentView {
  return {
    uuid: snapshot.uuid,
    revision: snapshot.revision,
    markdown: renderMarkdown(snapshot.state),
    threads: placeThreads(snapshot.threads, snapshot.state),
  };
}

/** The content as a caller reads it: any role. */
export async function readContent(knex: Knex, caller: DocumentCaller, documentUuid: string): Promise<ContentView> {
  const snapshot = await knex.transaction(
    async (tx) => {
      const document = await findVisibleDocument(tx, caller, documentUuid);
      const row = await tx('documents').where({ uuid: document.uuid }).first('revision', 'state');
      return contentSnapshot(tx, document.uuid, row.revision as number, row.state as DocumentState);
    },
    // One snapshot for the document row and its threads.
    { isolationLevel: 'repeatable read', readOnly: true },
  );
  return renderContent(snapshot);
}

/**
 * Turns a write's outcome into its answer, after its transaction: renders an applied change, passes a stored
 * batch response through, and answers a conflict with the document as it now is (read without the lock).
 */
export async function settleWrite(
  knex: Knex,
  caller: DocumentCaller,
  documentUuid: string,
  outcome: WriteOutcome,
  present: ContentPresenter,
): Promise<WriteResponse> {
  switch (outcome.kind) {
    case 'replayed':
      return { status: outcome.status, body: outcome.body };
    case 'conflict':
      throw conflict(present(await readContent(knex, caller, documentUuid)));
    case 'applied':
      return {
        status: outcome.status,
        body: outcome.body ?? present(renderContent(outcome.snapshot), outcome.suggestions ? { suggestions: outcome.suggestions } : undefined),
      };
  }
}

/** Makes `state` the document's new revision: row, log entry and a live notification, all in `tx`. */
export async function commitRevision(
  tx: Knex.Transaction,
  document: { uuid: string; revision: number },
  state: DocumentState,
  details: { cause: string; authorUuid: string; batchId?: string; nextSuggestionRef?: number },
): Promise<number> {
  const revision = document.revision + 1;
  const json = JSON.stringify(state);
  await tx('documents')
    .where({ uuid: document.uuid })
    .update({
      state: json,
      revision,
      ...(details.nextSuggestionRef !== undefined ? { next_suggestion_ref: details.nextSuggestionRef } : {}),
    });
  await tx('document_revisions').insert({
    document_uuid: document.uuid,
    revision,
    cause: details.cause,
    state: json,
    author_uuid: details.authorUuid,
    batch_id: details.batchId ?? null,
  });
  await notifyDocumentChange(tx, document.uuid, 'revision', revision);
  return revision;
}

/** Stores a state that changes no markdown (comment anchors) at the same revision, and tells live readers. */
export async function storeStateInPlace(tx: Knex.Transaction, document: { uuid: string; revision: number }, state: DocumentState): Promise<void> {
  await tx('documents').where({ uuid: document.uuid }).update({ state: JSON.stringify(state) });
  await notifyDocumentChange(tx, document.uuid, 'threads', document.revision);
}

/** Loads and locks a document for a content change: visible, the role the change needs, and not in Trash. */
export async function lockForChange(
  tx: Knex.Transaction,
  caller: DocumentCaller,
  documentUuid: string,
  needs: NeededRole,
  action: string,
): Promise<VisibleDocument> {
  const document = await findVisibleDocument(tx, caller, documentUuid, { needs, action, forUpdate: true });
  if (document.trashed_at) throw documentTrashed();
  return document;
}

export interface OperationsInput {
  operations: unknown;
  baseRevision?: number;
  batchId?: string;
  /** Suggest mode: the first message of each suggestion, by operation index (undefined for none). */
  comments?: Array<string | undefined>;
}

/** Structural equality of two JSON values: JSONB does not keep key order, and ProseMirror's attrs have no prototype. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => sameJson(item, (b as unknown[])[i]));
  const left = Object.entries(a as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const right = b as Record<string, unknown>;
  if (left.length !== Object.values(right).filter((value) => value !== undefined).length) return false;
  return left.every(([key, value]) => sameJson(value, right[key]));
}

async function storedBatch(tx: Knex.Transaction, documentUuid: string, userUuid: string, batchId: string | undefined) {
  if (batchId === undefined) return undefined;
  return tx('document_batches').where({ document_uuid: documentUuid, user_uuid: userUuid, batch_id: batchId }).first();
}

/**
 * An edit or a suggestion: operations applied in order as one revision, or nothing. A batch_id already applied
 * answers its stored response; a base_revision behind the document is a conflict (answered by settleWrite).
 * With a batch_id the answer is rendered here, to be stored in the same transaction.
 */
export async function applyOperations(
  tx: Knex.Transaction,
  caller: DocumentCaller,
  documentUuid: string,
  mode: EditMode,
  input: OperationsInput,
  present: ContentPresenter,
): Promise<WriteOutcome> {
  const document = await findVisibleDocument(tx, caller, documentUuid, {
    needs: mode === 'edit' ? 'editor' : 'commenter',
    action: mode === 'edit' ? 'Editing a document' : 'Suggesting changes',
    forUpdate: true,
  });
  const batch = await storedBatch(tx, document.uuid, caller.userUuid, input.batchId);
  if (batch) return { kind: 'replayed', status: batch.response_status as number, body: batch.response as Record<string, unknown> };
  if (document.trashed_at) throw documentTrashed();
  if (input.baseRevision !== undefined) {
    if (input.baseRevision > document.revision) throw invalidBaseRevision();
    if (input.baseRevision < document.revision) return { kind: 'conflict' };
  }

  const current = await loadState(tx, document.uuid);
  let nextRef = document.next_suggestion_ref;
  const result = applyEdit(current, input.operations, { mode, newThreadId: randomUUID, nextRef: () => nextRef++ });
  const changed = result.suggestionThreadIds.length > 0 || !sameJson(result.state.doc, current.doc);
  let revision = document.revision;
  if (changed) {
    revision = await commitRevision(tx, document, result.state, {
      cause: mode,
      authorUuid: caller.userUuid,
      batchId: input.batchId,
      nextSuggestionRef: nextRef,
    });
  }
  if (mode === 'suggest') await recordSuggestions(tx, document.uuid, caller.userUuid, result.state, result.suggestionThreadIds, input.comments ?? []);

  const snapshot = await contentSnapshot(tx, document.uuid, revision, result.state);
  const outcome: WriteOutcome = {
    kind: 'applied',
    status: mode === 'suggest' ? 201 : 200,
    snapshot,
    ...(mode === 'suggest' ? { suggestions: result.suggestionThreadIds } : {}),
  };
  if (input.batchId !== undefined) {
    const body = present(renderContent(snapshot), mode === 'suggest' ? { suggestions: result.suggestionThreadIds } : undefined);
    await tx('document_batches').insert({
      document_uuid: document.uuid,
      user_uuid: caller.userUuid,
      batch_id: input.batchId,
      revision,
      response_status: outcome.status,
      response: JSON.stringify(body),
    });
    outcome.body = body;
  }
  return outcome;
}

async function recordSuggestions(
  tx: Knex.Transaction,
  documentUuid: string,
  authorUuid: string,
  state: DocumentState,
  threadUuids: string[],
  comments: Array<string | undefined>,
): Promise<void> {
  const refs = new Map(state.threads.flatMap((thread) => (thread.kind === 'suggestion' ? [[thread.id, thread.ref] as const] : [])));
  // One insert keeps the suggestions in operation order (seq), all with the transaction's created_at.
  await tx('document_threads').insert(
    threadUuids.map((uuid) => ({ uuid, document_uuid: documentUuid, kind: 'suggestion', ref: refs.get(uuid)!, author_uuid: authorUuid, status: 'open' })),
  );
  for (const [index, uuid] of threadUuids.entries()) {
    const body = comments[index];
    if (body !== undefined) await insertMessage(tx, { threadUuid: uuid, authorUuid, body });
  }
}

/** The suggestion thread of a locked document, or the spec's errors for a missing one or a comment. */
async function suggestionThread(tx: Knex.Transaction, documentUuid: string, threadUuid: string) {
  const thread = await findThread(tx, documentUuid, threadUuid, true);
  if (!thread) throw suggestionNotFound();
  if (thread.kind !== 'suggestion') throw notASuggestion();
  return thread;
}

/** Accepts or rejects an open suggestion: the change is applied or taken back, and it closes, in one revision. */
export async function decideSuggestion(
  tx: Knex.Transaction,
  caller: DocumentCaller,
  documentUuid: string,
  threadUuid: string,
  decision: 'accept' | 'reject',
): Promise<WriteOutcome> {
  const document = await lockForChange(tx, caller, documentUuid, 'editor', decision === 'accept' ? 'Accepting a suggestion' : 'Rejecting a suggestion');
  await suggestionThread(tx, document.uuid, threadUuid);
  const state = await loadState(tx, document.uuid);
  // The engine refuses a closed suggestion (suggestion_closed) and one with nothing left (suggestion_not_in_document).
  const next = decision === 'accept' ? acceptSuggestion(state, threadUuid) : rejectSuggestion(state, threadUuid);
  const revision = await commitRevision(tx, document, next, { cause: decision, authorUuid: caller.userUuid });
  await tx('document_threads')
    .where({ uuid: threadUuid })
    .update({ status: 'closed', resolution: decision === 'accept' ? 'accepted' : 'rejected', updated_at: tx.fn.now() });
  return { kind: 'applied', status: 200, snapshot: await contentSnapshot(tx, document.uuid, revision, next) };
}

/**
 * Deletes a suggestion with its messages: its author, or a manager or owner. An open one's marks go as a reject
 * removes them (a new revision); a closed one is only forgotten (same revision).
 */
export async function deleteSuggestion(
  tx: Knex.Transaction,
  caller: DocumentCaller,
  documentUuid: string,
  threadUuid: string,
): Promise<WriteOutcome> {
  const document = await lockForChange(tx, caller, documentUuid, 'commenter', 'Deleting a suggestion');
  const thread = await suggestionThread(tx, document.uuid, threadUuid);
  if (thread.author_uuid !== caller.userUuid && !atLeast(document.my_role, 'manager')) throw forbiddenNotAuthor('Deleting another person\'s suggestion');
  const state = await loadState(tx, document.uuid);
  const next = removeSuggestion(state, threadUuid);
  await tx('document_threads').where({ uuid: threadUuid }).delete();
  let revision = document.revision;
  if (thread.status === 'open') revision = await commitRevision(tx, document, next, { cause: 'remove_suggestion', authorUuid: caller.userUuid });
  else await storeStateInPlace(tx, document, next);
  return { kind: 'applied', status: 200, snapshot: await contentSnapshot(tx, document.uuid, revision, next) };
}
