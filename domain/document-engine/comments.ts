// Comment anchors: marking the quoted text of a new comment, and removing a deleted comment's marks.
import { Transform } from 'prosemirror-transform';
import { notAComment, targetNotFound } from './errors.js';
import { matchQuote, type Occurrence } from './quotes.js';
import { markedRanges } from './ranges.js';
import { marks } from './schema.js';
import {
  findThread,
  fromWorking,
  serializeWorking,
  toWorking,
  type CommentAnchor,
  type DocumentState,
} from './state.js';

export interface CommentTarget {
  /** The quoted text; absent for a comment on the whole document. */
  on?: string;
  occurrence?: Occurrence;
  before?: string;
  after?: string;
}

/**
 * Anchors a new comment thread: marks the quoted text (found as an edit's quote is, so it may raise
 * target_not_found or target_ambiguous), or records a comment on the whole document when `on` is absent.
 */
export function addComment(state: DocumentState, target: CommentTarget, threadId: string): DocumentState {
  const working = toWorking(state);
  if (findThread(working.threads, threadId))
    throw new Error(`Thread ${threadId} is already anchored in this document.`);
  if (target.on === undefined) {
    const thread: CommentAnchor = { id: threadId, kind: 'comment', scope: 'document', quote: null };
    return fromWorking({ ...working, threads: [...working.threads, thread] });
  }
  const query = {
    find: target.on,
    occurrence: target.occurrence,
    before: target.before,
    after: target.after,
  };
  const match = matchQuote(working.doc, serializeWorking(working), query);
  const tr = new Transform(working.doc).addMark(
    match.from,
    match.to,
    marks.comment.create({ thread: threadId }),
  );
  if (
    markedRanges(tr.doc, (mark) => mark.type === marks.comment && mark.attrs.thread === threadId).length === 0
  ) {
    // The quote matched only a rule or other markup: there is no text to hang the comment on.
    throw targetNotFound(undefined, 'The quote holds no text a comment can be anchored on.');
  }
  const quote = tr.doc.textBetween(match.from, match.to, '\n', '\n');
  const thread: CommentAnchor = { id: threadId, kind: 'comment', scope: 'text', quote };
  return fromWorking({ doc: tr.doc, threads: [...working.threads, thread] });
}

/** Removes a deleted comment's marks and forgets the thread. A thread the engine does not know changes nothing. */
export function removeCommentMarks(state: DocumentState, threadId: string): DocumentState {
  const working = toWorking(state);
  const thread = findThread(working.threads, threadId);
  if (!thread) return state;
  if (thread.kind !== 'comment') throw notAComment();
  const tr = new Transform(working.doc).removeMark(
    0,
    working.doc.content.size,
    marks.comment.create({ thread: threadId }),
  );
  return fromWorking({ doc: tr.doc, threads: working.threads.filter((t) => t.id !== threadId) });
}
