// Comment threads: create (anchored on a quote or on the whole document), reply, resolve/reopen, edit a message,
// delete a thread or a message. Comment anchors change no markdown, so these writes keep the revision.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  addComment,
  removeCommentMarks,
  WorkingDocument,
  type CommentTarget,
  type DocumentState,
} from '../document-engine/index.js';
import { notAComment } from '../document-engine/errors.js';
import type { Caller } from '../caller.js';
import { atLeast } from '../roles.js';
import type { DocumentsDeps } from './deps.js';
import type { VisibleDocument } from './documents.js';
import { commentNotFound, forbiddenNotAuthor, forbiddenOwnMessage } from './errors.js';
import { checkThreadRoom, lockForChange, storeStateInPlace } from './content.js';
import {
  findMessage,
  findThread,
  insertMessage,
  loadThreadRecords,
  openingMessageUuid,
  placeThreads,
  type MessageRef,
  type ThreadRef,
  type ThreadRow,
  type ThreadView,
} from './threads.js';
import { notifyDocumentChange } from './live.js';
import { chargeRevisionLog } from './revision-log.js';
import { workingDocument } from './working-documents.js';

/** The thread of a locked document, or 404 comment_not_found. */
async function commentThread(
  tx: Knex.Transaction,
  document: VisibleDocument,
  threadUuid: string,
  kind: 'comment' | 'any',
): Promise<ThreadRow> {
  const thread = await findThread(tx, document.uuid, threadUuid, true);
  if (!thread) throw commentNotFound();
  if (kind === 'comment' && thread.kind !== 'comment') throw notAComment();
  return thread;
}

/** The thread as a comment write answers it, placed in the document's state. */
async function threadView(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  document: VisibleDocument,
  threadUuid: string,
  state?: DocumentState,
): Promise<ThreadView> {
  const [record] = await loadThreadRecords(tx, document.uuid, [threadUuid]);
  if (!record) throw new Error(`Thread ${threadUuid} vanished inside its transaction`);
  return placeThreads(
    [record],
    state ? WorkingDocument.open(state) : await workingDocument(tx, deps.workingDocuments, document),
  )[0]!;
}

const touched = (tx: Knex.Transaction, document: VisibleDocument) =>
  notifyDocumentChange(tx, document.uuid, 'threads', document.revision);

export async function createComment(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  documentUuid: string,
  input: { body: string; target: CommentTarget },
): Promise<ThreadView> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'commenter',
    action: 'Commenting',
  });
  await checkThreadRoom(tx, deps, document.uuid, 1);
  const threadUuid = randomUUID();
  const { state: previous } = await workingDocument(tx, deps.workingDocuments, document);
  const state = addComment(previous, input.target, threadUuid);
  await tx('document_threads').insert({
    uuid: threadUuid,
    document_uuid: document.uuid,
    kind: 'comment',
    author_uuid: caller.userUuid,
    status: 'open',
  });
  await insertMessage(tx, { threadUuid, authorUuid: caller.userUuid, body: input.body });
  const charged = await storeStateInPlace(tx, document, previous, state, 'charged');
  const view = await threadView(tx, deps, document, threadUuid, state);
  // Last, so the workspace row it locks is held only until the commit.
  await chargeRevisionLog(tx, document, charged);
  return view;
}

export async function replyToComment(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  { documentUuid, threadUuid }: ThreadRef,
  body: string,
): Promise<ThreadView> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'commenter',
    action: 'Replying to a comment',
  });
  await commentThread(tx, document, threadUuid, 'comment');
  await insertMessage(tx, { threadUuid, authorUuid: caller.userUuid, body });
  await tx('document_threads').where({ uuid: threadUuid }).update({ updated_at: tx.fn.now() });
  await touched(tx, document);
  return threadView(tx, deps, document, threadUuid);
}

export async function setCommentStatus(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  { documentUuid, threadUuid }: ThreadRef,
  status: 'open' | 'resolved',
): Promise<ThreadView> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'commenter',
    action: status === 'resolved' ? 'Resolving a comment' : 'Reopening a comment',
  });
  const thread = await commentThread(tx, document, threadUuid, 'comment');
  if (thread.status !== status) {
    await tx('document_threads').where({ uuid: threadUuid }).update({ status, updated_at: tx.fn.now() });
    await touched(tx, document);
  }
  return threadView(tx, deps, document, threadUuid);
}

/** Edits a message's body; only its author may. Works on the messages of comments and of suggestions. */
export async function editMessage(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  { documentUuid, threadUuid, messageUuid }: MessageRef,
  body: string,
): Promise<ThreadView> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'commenter',
    action: 'Editing a message',
  });
  await commentThread(tx, document, threadUuid, 'any');
  const message = await findMessage(tx, threadUuid, messageUuid);
  if (!message) throw commentNotFound();
  if (message.author_uuid !== caller.userUuid) throw forbiddenOwnMessage();
  await tx('document_thread_messages').where({ uuid: messageUuid }).update({ body, edited_at: tx.fn.now() });
  await touched(tx, document);
  return threadView(tx, deps, document, threadUuid);
}

/** Deletes a comment thread with its replies and its marks: its author, or a manager or owner. */
export async function deleteComment(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  { documentUuid, threadUuid }: ThreadRef,
): Promise<void> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'commenter',
    action: 'Deleting a comment',
  });
  const thread = await commentThread(tx, document, threadUuid, 'comment');
  if (thread.author_uuid !== caller.userUuid && !atLeast(document.my_role, 'manager'))
    throw forbiddenNotAuthor("Deleting another person's comment");
  await removeThread(tx, deps, document, threadUuid);
}

async function removeThread(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  document: VisibleDocument,
  threadUuid: string,
): Promise<void> {
  const { state: previous } = await workingDocument(tx, deps.workingDocuments, document);
  const state = removeCommentMarks(previous, threadUuid);
  await tx('document_threads').where({ uuid: threadUuid }).delete();
  // Taking a comment out is never charged, so a full workspace can always clean up.
  await storeStateInPlace(tx, document, previous, state, 'free');
}

/**
 * Deletes one message: its author, or a manager or owner. The opening message of a comment takes the whole
 * comment with it (replies and marks); any other message goes alone.
 */
export async function deleteMessage(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  { documentUuid, threadUuid, messageUuid }: MessageRef,
): Promise<void> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: 'commenter',
    action: 'Deleting a message',
  });
  const thread = await commentThread(tx, document, threadUuid, 'any');
  const message = await findMessage(tx, threadUuid, messageUuid);
  if (!message) throw commentNotFound();
  if (message.author_uuid !== caller.userUuid && !atLeast(document.my_role, 'manager'))
    throw forbiddenNotAuthor("Deleting another person's message");
  if (thread.kind === 'comment' && (await openingMessageUuid(tx, threadUuid)) === messageUuid) {
    await removeThread(tx, deps, document, threadUuid);
    return;
  }
  await tx('document_thread_messages').where({ uuid: messageUuid }).delete();
  await touched(tx, document);
}
