// Accepting, rejecting and deleting a suggestion: applying its change, taking it back, or dropping its marks.
import type { Mark } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { notASuggestion, suggestionClosed, suggestionNotFound, suggestionNotInDocument } from './errors.js';
import { blocksMarkedBy, collapseSpaces, dissolveBlock, markedRanges } from './ranges.js';
import { nodes, schema } from './schema.js';
import {
  findThread,
  fromWorking,
  toWorking,
  type DocumentState,
  type SuggestionAnchor,
  type Working,
} from './state.js';

/** Applies a suggestion: removed text goes, added text stays unmarked, a format change is made. Closes it. */
export function acceptSuggestion(state: DocumentState, threadId: string): DocumentState {
  const working = toWorking(state);
  const thread = openSuggestion(working, threadId);
  const tr = new Transform(working.doc);
  applyFormat(tr, thread);
  unmark(tr, thread.id, 'insert');
  removeText(tr, thread.id, 'delete');
  dissolveBlocks(tr, thread.id, 'delete');
  return close(working, tr, thread, 'accepted');
}

/** Takes a suggestion back: added text goes, removed text stays unmarked, formatting is left as it was. Closes it. */
export function rejectSuggestion(state: DocumentState, threadId: string): DocumentState {
  const working = toWorking(state);
  const thread = openSuggestion(working, threadId);
  const tr = takeBack(working, thread);
  return close(working, tr, thread, 'rejected');
}

/**
 * A deleted suggestion: its marks go as a reject removes them, and the engine forgets the thread. Deleting a closed
 * suggestion only forgets it.
 */
export function removeSuggestion(state: DocumentState, threadId: string): DocumentState {
  const working = toWorking(state);
  const thread = findThread(working.threads, threadId);
  if (!thread) throw suggestionNotFound();
  if (thread.kind !== 'suggestion') throw notASuggestion();
  const tr = thread.status === 'open' ? takeBack(working, thread) : new Transform(working.doc);
  return fromWorking({ doc: tr.doc, threads: working.threads.filter((t) => t.id !== threadId) });
}

function openSuggestion(working: Working, threadId: string): SuggestionAnchor {
  const thread = findThread(working.threads, threadId);
  if (!thread) throw suggestionNotFound();
  if (thread.kind !== 'suggestion') throw notASuggestion();
  if (thread.status !== 'open') throw suggestionClosed();
  const owned = (mark: Mark) => isOwn(mark, threadId);
  if (markedRanges(working.doc, owned).length === 0 && blocksMarkedBy(working.doc, threadId).length === 0) {
    throw suggestionNotInDocument();
  }
  return thread;
}

function takeBack(working: Working, thread: SuggestionAnchor): Transform {
  const tr = new Transform(working.doc);
  unmark(tr, thread.id, 'format');
  unmark(tr, thread.id, 'delete');
  removeText(tr, thread.id, 'insert');
  dissolveBlocks(tr, thread.id, 'insert');
  return tr;
}

function close(
  working: Working,
  tr: Transform,
  thread: SuggestionAnchor,
  resolution: 'accepted' | 'rejected',
): DocumentState {
  const threads = working.threads.map((t) =>
    t.id === thread.id ? { ...thread, status: 'closed' as const, resolution } : t,
  );
  return fromWorking({ doc: tr.doc, threads });
}

const TYPES = { insert: 'suggest_insert', delete: 'suggest_delete', format: 'suggest_format' } as const;
type Kind = keyof typeof TYPES;

const isOwn = (mark: Mark, thread: string, kind?: Kind) =>
  (kind ? mark.type.name === TYPES[kind] : mark.type.name.startsWith('suggest_')) &&
  mark.attrs.thread === thread;

/** Drops a thread's marks of one kind (the text stays) and clears its block markers of that kind. */
function unmark(tr: Transform, thread: string, kind: Kind) {
  const type = schema.marks[TYPES[kind]];
  tr.removeMark(0, tr.doc.content.size, type.create({ thread }));
  for (const pos of blocksMarkedBy(tr.doc, thread, kind)) {
    const node = tr.doc.nodeAt(pos)!;
    tr.setNodeMarkup(pos, undefined, { ...node.attrs, suggestion: null });
  }
}

/** Removes the text a thread marks with one kind, last range first so earlier positions hold. */
function removeText(tr: Transform, thread: string, kind: Kind) {
  const ranges = markedRanges(tr.doc, (mark) => isOwn(mark, thread, kind));
  for (const range of ranges.reverse()) {
    tr.delete(range.from, range.to);
    collapseSpaces(tr, range.from);
  }
}

/** Dissolves the blocks a thread marks with one kind, last first. */
function dissolveBlocks(tr: Transform, thread: string, kind: Kind) {
  // Empty blocks go before any join, so a block whose text is left joins the block before the removed ones.
  const marked = blocksMarkedBy(tr.doc, thread, kind);
  for (const pos of [...marked].reverse()) {
    const node = tr.doc.nodeAt(pos)!;
    if (node.isTextblock && node.type !== nodes.code_block && node.content.size > 0) continue;
    dissolveBlock(tr, pos);
  }
  for (const pos of [...blocksMarkedBy(tr.doc, thread, kind)].reverse()) dissolveBlock(tr, pos);
}

/** Makes a format suggestion's change on its text, and a block type change on its block. */
function applyFormat(tr: Transform, thread: SuggestionAnchor) {
  const ranges = markedRanges(tr.doc, (mark) => isOwn(mark, thread.id, 'format'));
  for (const range of ranges) {
    for (const type of thread.format?.remove ?? []) {
      const markType = schema.marks[type];
      if (markType) tr.removeMark(range.from, range.to, markType);
    }
    for (const json of thread.format?.add ?? []) tr.addMark(range.from, range.to, schema.markFromJSON(json));
  }
  for (const pos of blocksMarkedBy(tr.doc, thread.id, 'format')) {
    if (!thread.blockType) continue;
    tr.setNodeMarkup(pos, nodes[thread.blockType.type], { ...thread.blockType.attrs, suggestion: null });
  }
  unmark(tr, thread.id, 'format');
}
