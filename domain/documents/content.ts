// Document content: reading it, and the writes that make a revision (edit, suggest, accept, reject, delete a
// suggestion). Each write runs in the request's transaction with the document row locked, so writes to one
// document serialise and base_revision is checked under the lock.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  acceptSuggestion,
  rejectSuggestion,
  removeSuggestion,
  WorkingDocument,
  type DocumentState,
  type EditMode,
  type EditOperation,
} from '../document-engine/index.js';
import { notASuggestion, suggestionNotFound } from '../document-engine/errors.js';
import type { Caller } from '../caller.js';
import { atLeast, type Role } from '../roles.js';
import type { DocumentSettings, DocumentsDeps } from './deps.js';
import { findVisibleDocument, type VisibleDocument } from './documents.js';
import {
  batchIdReused,
  conflict,
  documentTooLarge,
  documentTrashed,
  forbiddenNotAuthor,
  invalidBaseRevision,
  tooManyThreads,
} from './errors.js';
import { notifyDocumentChange } from './live.js';
import { amendRevision, appendRevision, chargeRevisionLog, sameJson, type Charge } from './revision-log.js';
import {
  findThread,
  insertMessage,
  loadThreadRecords,
  placeThreads,
  type ThreadRecord,
  type ThreadRef,
  type ThreadView,
} from './threads.js';
import { workingDocument } from './working-documents.js';

/** document_content before presentation. */
export interface ContentView {
  uuid: string;
  revision: number;
  markdown: string;
  threads: ThreadView[];
}

/** Builds the response body of a write from a content view; the route passes its presenter. */
export type ContentPresenter = (
  view: ContentView,
  extra?: { suggestions?: string[] },
) => Record<string, unknown>;

export interface WriteResponse {
  status: number;
  body: Record<string, unknown>;
}

/** What a content view is rendered from. */
interface ContentSnapshot {
  uuid: string;
  revision: number;
  document: WorkingDocument;
  threads: ThreadRecord[];
}

async function contentSnapshot(
  knex: Knex,
  documentUuid: string,
  revision: number,
  document: WorkingDocument,
): Promise<ContentSnapshot> {
  return { uuid: documentUuid, revision, document, threads: await loadThreadRecords(knex, documentUuid) };
}

/** The markdown comes from the working document's block strings; one walk places every thread. */
function renderContent(snapshot: ContentSnapshot): ContentView {
  return {
    uuid: snapshot.uuid,
    revision: snapshot.revision,
    markdown: snapshot.document.markdown,
    threads: placeThreads(snapshot.threads, snapshot.document),
  };
}

/** The content as a caller reads it: any role. */
export async function readContent(
  knex: Knex,
  deps: DocumentsDeps,
  caller: Caller,
  documentUuid: string,
): Promise<ContentView> {
  const snapshot = await knex.transaction(
    async (tx) => {
      const document = await findVisibleDocument(tx, deps, caller, documentUuid);
      const parsed = await workingDocument(tx, deps.workingDocuments, document);
      return contentSnapshot(tx, document.uuid, document.revision, parsed);
    },
    // One snapshot for the document row and its threads.
    { isolationLevel: 'repeatable read', readOnly: true },
  );
  return renderContent(snapshot);
}

/**
 * Makes `state` the document's new revision: row, log entry (what changed since `previous`) and a live notification,
 * all in `tx`. Returns the revision and the bytes the caller charges to the pool last (chargeRevisionLog): all but
 * deleting a suggestion are charged.
 */
async function commitRevision(
  tx: Knex.Transaction,
  document: { uuid: string; revision: number },
  previous: DocumentState,
  state: DocumentState,
  details: { cause: string; authorUuid: string; batchId?: string; nextSuggestionRef?: number },
): Promise<{ revision: number; charged: number; stateVersion: string }> {
  const revision = document.revision + 1;
  const charge = details.cause === 'remove_suggestion' ? 'free' : 'charged';
  const charged = await appendRevision(tx, document, revision, previous, state, { ...details, charge });
  const [row] = await tx('documents')
    .where({ uuid: document.uuid })
    .update(
      {
        revision,
        ...(details.nextSuggestionRef !== undefined
          ? { next_suggestion_ref: details.nextSuggestionRef }
          : {}),
      },
      ['state_version'],
    );
  await notifyDocumentChange(tx, document.uuid, 'revision', revision);
  return { revision, charged, stateVersion: String(row.state_version) };
}

/**
 * Stores a state that changes no markdown (comment anchors) at the same revision, recording the change in that
 * revision's log entry, and tells live readers. Returns the bytes to charge to the pool last (chargeRevisionLog).
 */
export async function storeStateInPlace(
  tx: Knex.Transaction,
  document: { uuid: string; revision: number },
  previous: DocumentState,
  state: DocumentState,
  charge: Charge,
): Promise<number> {
  // The log's trigger gives the document a new state_version (db/migrations/018).
  const charged = await amendRevision(tx, document, previous, state, charge);
  await notifyDocumentChange(tx, document.uuid, 'threads', document.revision);
  return charged;
}

/** What a change needs: the least role, and what the change is (for the 403 description). */
interface Access {
  needs: Role;
  action: string;
}

/** Loads and locks a document for a content change: visible, the role the change needs, and not in Trash. */
export async function lockForChange(
  tx: Knex.Transaction,
  deps: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  documentUuid: string,
  access: Access,
): Promise<VisibleDocument> {
  const document = await findVisibleDocument(tx, deps, caller, documentUuid, { ...access, forUpdate: true });
  if (document.trashed_at) throw documentTrashed();
  return document;
}

/**
 * Refuses new threads past the document's cap, counting every thread it holds (open, resolved or closed): each one
 * is stored and placed on reads, so a commenter must not be able to add them without bound. Called under the lock.
 */
export async function checkThreadRoom(
  tx: Knex.Transaction,
  { settings }: Pick<DocumentsDeps, 'settings'>,
  documentUuid: string,
  adding: number,
): Promise<void> {
  const { maxThreads } = settings.documentLimits;
  const [row] = await tx('document_threads').where({ document_uuid: documentUuid }).count({ count: '*' });
  if (Number(row?.count ?? 0) + adding > maxThreads) throw tooManyThreads(maxThreads);
}

/**
 * Refuses a write whose markdown would pass the size cap. A document already past it (the cap was lowered) may
 * still shrink, so only growth past the cap is refused; the current size is measured only on that rare path.
 */
function checkDocumentSize(settings: DocumentSettings, markdown: string, current: WorkingDocument): void {
  const { maxBytes } = settings.documentLimits;
  // UTF-8 is at most 3 bytes per UTF-16 unit: most documents pass without being measured.
  if (markdown.length * 3 <= maxBytes) return;
  const bytes = Buffer.byteLength(markdown, 'utf8');
  if (bytes > maxBytes && bytes > Buffer.byteLength(current.markdown, 'utf8'))
    throw documentTooLarge(maxBytes);
}

/** An edit or a suggestion as the route's schema checked it. In suggest mode an operation's comment opens its thread. */
export interface OperationsInput {
  operations: EditOperation[];
  baseRevision?: number;
  batchId?: string;
}

/** Operations to apply, and how: as an edit, or each as a suggestion. */
export interface OperationsWrite extends OperationsInput {
  mode: EditMode;
}

/**
 * A base_revision behind the document is a conflict, whatever happens meanwhile: revisions only grow. So it is answered
 * without waiting for the row lock (the editors who lost a race are not queued behind the one writing), from one read
 * of the row that also tells whether the lock-holding path must answer instead: a batch_id already applied (its
 * stored response), a document in Trash, a base_revision ahead of the document. The answer is the document at the
 * revision read when this process holds it parsed (the editors of a busy document keep it so); else the locked path
 * answers.
 */
async function refuseIfBehind(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  request: { documentUuid: string; access: Access; input: OperationsInput },
  present: ContentPresenter,
): Promise<void> {
  const { input } = request;
  const document = await findVisibleDocument(tx, deps, caller, request.documentUuid, request.access);
  // One statement: one snapshot, so a batch stored with the revision it made is seen together with that revision.
  const row = await tx('documents as d')
    .where('d.uuid', document.uuid)
    .first(
      'd.revision',
      'd.state_version',
      'd.trashed_at',
      tx.raw(
        'exists (select 1 from document_batches b where b.document_uuid = d.uuid and b.user_uuid = ? and b.batch_id = ?) as batch_stored',
        [caller.userUuid, input.batchId ?? null],
      ),
    );
  if (!row || row.batch_stored || row.trashed_at || !(input.baseRevision! < row.revision)) return;
  const seen = {
    uuid: document.uuid,
    revision: row.revision as number,
    state_version: String(row.state_version),
  };
  const current = deps.workingDocuments.get(seen);
  if (current)
    throw conflict(present(renderContent(await contentSnapshot(tx, document.uuid, seen.revision, current))));
}

async function storedBatch(
  tx: Knex.Transaction,
  documentUuid: string,
  userUuid: string,
  batchId: string | undefined,
) {
  if (batchId === undefined) return undefined;
  return tx('document_batches')
    .where({ document_uuid: documentUuid, user_uuid: userUuid, batch_id: batchId })
    .first();
}

/**
 * An edit (editor) or a suggestion (commenter; each operation becomes a suggestion with a thread of its own):
 * operations applied in order as one revision, or nothing. A batch_id already applied answers its stored response;
 * a base_revision behind the document is 409 conflict with the document as it is. With a batch_id the answer is
 * stored in the same transaction.
 */
export async function writeOperations(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  documentUuid: string,
  input: OperationsWrite,
  present: ContentPresenter,
): Promise<WriteResponse> {
  const { mode } = input;
  const access: Access = {
    needs: mode === 'edit' ? 'editor' : 'commenter',
    action: mode === 'edit' ? 'Editing a document' : 'Suggesting changes',
  };
  if (input.baseRevision !== undefined)
    await refuseIfBehind(tx, deps, caller, { documentUuid, access, input }, present);
  const document = await findVisibleDocument(tx, deps, caller, documentUuid, {
    ...access,
    forUpdate: true,
  });
  const batch = await storedBatch(tx, document.uuid, caller.userUuid, input.batchId);
  if (batch) {
    // A retry is the same request: one sent to the other endpoint is not, and gets no answer that endpoint never gives.
    if (batch.endpoint !== mode) throw batchIdReused(batch.endpoint as EditMode);
    return { status: batch.response_status as number, body: batch.response as Record<string, unknown> };
  }
  if (document.trashed_at) throw documentTrashed();
  const current = await workingDocument(tx, deps.workingDocuments, document);
  if (input.baseRevision !== undefined) {
    if (input.baseRevision > document.revision) throw invalidBaseRevision();
    if (input.baseRevision < document.revision) {
      throw conflict(
        present(renderContent(await contentSnapshot(tx, document.uuid, document.revision, current))),
      );
    }
  }

  // Suggest mode makes one thread per operation: refused before the engine's work when they would not fit.
  if (mode === 'suggest') await checkThreadRoom(tx, deps, document.uuid, input.operations.length);

  let nextRef = document.next_suggestion_ref;
  const result = current.edit(input.operations, { mode, newThreadId: randomUUID, nextRef: () => nextRef++ });
  const next = result.document;
  // Blocks the edit kept share their JSON with the current state, so this compares only what the edit made.
  const changed = result.suggestionThreadIds.length > 0 || !sameJson(next.state.doc, current.state.doc);
  if (changed) checkDocumentSize(deps.settings, next.markdown, current);
  let revision = document.revision;
  let charged = 0;
  if (changed) {
    let stateVersion: string;
    ({ revision, charged, stateVersion } = await commitRevision(tx, document, current.state, next.state, {
      cause: mode,
      authorUuid: caller.userUuid,
      batchId: input.batchId,
      nextSuggestionRef: nextRef,
    }));
    deps.workingDocuments.keep({ uuid: document.uuid, revision, state_version: stateVersion }, next);
  }
  if (mode === 'suggest')
    await recordSuggestions(
      tx,
      document.uuid,
      caller.userUuid,
      next.state,
      result.suggestionThreadIds,
      input.operations,
    );

  const status = mode === 'suggest' ? 201 : 200;
  const view = renderContent(await contentSnapshot(tx, document.uuid, revision, next));
  const body = present(view, mode === 'suggest' ? { suggestions: result.suggestionThreadIds } : undefined);
  if (input.batchId !== undefined) {
    await tx('document_batches').insert({
      document_uuid: document.uuid,
      user_uuid: caller.userUuid,
      batch_id: input.batchId,
      endpoint: mode,
      revision,
      response_status: status,
      response: JSON.stringify(body),
    });
  }
  // Last, so the workspace row it locks is held only until the commit.
  await chargeRevisionLog(tx, document, charged);
  return { status, body };
}

async function recordSuggestions(
  tx: Knex.Transaction,
  documentUuid: string,
  authorUuid: string,
  state: DocumentState,
  threadUuids: string[],
  operations: readonly EditOperation[],
): Promise<void> {
  const refs = new Map(
    state.threads.flatMap((thread) =>
      thread.kind === 'suggestion' ? [[thread.id, thread.ref] as const] : [],
    ),
  );
  // One insert keeps the suggestions in operation order (seq), all with the transaction's created_at.
  await tx('document_threads').insert(
    threadUuids.map((uuid) => ({
      uuid,
      document_uuid: documentUuid,
      kind: 'suggestion',
      ref: refs.get(uuid)!,
      author_uuid: authorUuid,
      status: 'open',
    })),
  );
  // Suggest mode makes one thread per operation, in order.
  for (const [index, uuid] of threadUuids.entries()) {
    const operation = operations[index];
    const body = operation && 'comment' in operation ? operation.comment : undefined;
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
  deps: DocumentsDeps,
  caller: Caller,
  { documentUuid, threadUuid }: ThreadRef,
  decision: 'accept' | 'reject',
): Promise<ContentView> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'editor',
    action: decision === 'accept' ? 'Accepting a suggestion' : 'Rejecting a suggestion',
  });
  await suggestionThread(tx, document.uuid, threadUuid);
  const { state } = await workingDocument(tx, deps.workingDocuments, document);
  // The engine refuses a closed suggestion (suggestion_closed) and one with nothing left (suggestion_not_in_document).
  const next =
    decision === 'accept' ? acceptSuggestion(state, threadUuid) : rejectSuggestion(state, threadUuid);
  const { revision, charged, stateVersion } = await commitRevision(tx, document, state, next, {
    cause: decision,
    authorUuid: caller.userUuid,
  });
  const parsed = WorkingDocument.open(next);
  deps.workingDocuments.keep({ uuid: document.uuid, revision, state_version: stateVersion }, parsed);
  await tx('document_threads')
    .where({ uuid: threadUuid })
    .update({
      status: 'closed',
      resolution: decision === 'accept' ? 'accepted' : 'rejected',
      updated_at: tx.fn.now(),
    });
  const view = renderContent(await contentSnapshot(tx, document.uuid, revision, parsed));
  // Last, so the workspace row it locks is held only until the commit.
  await chargeRevisionLog(tx, document, charged);
  return view;
}

/**
 * Deletes a suggestion with its messages: its author, or a manager or owner. An open one's marks go as a reject
 * removes them (a new revision); a closed one is only forgotten (same revision).
 */
export async function deleteSuggestion(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  { documentUuid, threadUuid }: ThreadRef,
): Promise<ContentView> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'commenter',
    action: 'Deleting a suggestion',
  });
  const thread = await suggestionThread(tx, document.uuid, threadUuid);
  if (thread.author_uuid !== caller.userUuid && !atLeast(document.my_role, 'manager'))
    throw forbiddenNotAuthor("Deleting another person's suggestion");
  const { state } = await workingDocument(tx, deps.workingDocuments, document);
  const next = removeSuggestion(state, threadUuid);
  await tx('document_threads').where({ uuid: threadUuid }).delete();
  let revision = document.revision;
  // Taking a suggestion out is never charged (revision-log.ts Charge), so there is nothing to reserve.
  if (thread.status === 'open')
    ({ revision } = await commitRevision(tx, document, state, next, {
      cause: 'remove_suggestion',
      authorUuid: caller.userUuid,
    }));
  else await storeStateInPlace(tx, document, state, next, 'free');
  return renderContent(await contentSnapshot(tx, document.uuid, revision, WorkingDocument.open(next)));
}
