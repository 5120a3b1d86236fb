// The engine's stored state of a document (JSON, kept as JSONB) and the reads over it: markdown and thread placement.
import { Node as PMNode, type Mark } from 'prosemirror-model';
import { parseMarkdown } from './markdown.js';
import { serializeInline } from './markdown-inline-writer.js';
import type { WriteContext } from './markdown-units.js';
import { rememberSources } from './markdown-write-cache.js';
import { serializeDoc, type SerializedDocument } from './markdown-writer.js';
import { normalizeDoc } from './normalize.js';
import { steps } from './steps.js';
import { blockSuggestion, isInlineTextblock, marks, nodes, schema } from './schema.js';

/** ProseMirror's JSON form of a node. */
export interface NodeJSON {
  type: string;
  attrs?: Record<string, unknown>;
  content?: NodeJSON[];
  marks?: MarkJSON[];
  text?: string;
}

export interface MarkJSON {
  type: string;
  attrs?: Record<string, unknown>;
}

/** A change of inline formatting a suggestion proposes, written {==text==}: marks to add, mark types to take off. */
export interface FormatChange {
  add: MarkJSON[];
  remove: string[];
}

/** A change of block type a suggestion proposes, written {==¶==}. */
export interface BlockTypeChange {
  type: 'paragraph' | 'heading' | 'code_block';
  attrs: Record<string, unknown>;
}

export interface CommentAnchor {
  id: string;
  kind: 'comment';
  /** `document` for a comment on the whole document (no marks); `text` for one anchored by comment marks. */
  scope: 'text' | 'document';
  /** The text the comment was made on, shown once that text is gone. */
  quote: string | null;
}

export interface SuggestionAnchor {
  id: string;
  kind: 'suggestion';
  /** The n of {>>sN<<}. */
  ref: number;
  status: 'open' | 'closed';
  resolution: 'accepted' | 'rejected' | null;
  format: FormatChange | null;
  blockType: BlockTypeChange | null;
}

export type ThreadAnchor = CommentAnchor | SuggestionAnchor;

/**
 * What the engine keeps per document. Messages, authors, timestamps, resolved/open of comments and the revision
 * live in the database; the engine keeps only what the text needs: the document and, per thread, how it is anchored.
 */
export interface DocumentState {
  version: 1;
  doc: NodeJSON;
  threads: ThreadAnchor[];
}

export type Placement = 'attached' | 'document' | 'detached';

export interface ThreadPlacement {
  placement: Placement;
  /** The text the thread is on: plain text, blocks separated by newlines. */
  quote: string | null;
  /** For a suggestion, the text it adds, as markdown. */
  suggested_text: string | null;
  /** For a format suggestion, the quote as markdown with the suggested formatting. */
  suggested_format: string | null;
}

/** The in-memory form the operations work on. */
export interface Working {
  doc: PMNode;
  threads: ThreadAnchor[];
}

export function emptyDocumentState(): DocumentState {
  return { version: 1, doc: nodes.doc.create().toJSON() as NodeJSON, threads: [] };
}

/** A new document from markdown. CriticMarkup is refused: a new document has no suggestions to name. */
export function stateFromMarkdown(markdown: string): DocumentState {
  return { version: 1, doc: parseMarkdown(markdown).toJSON() as NodeJSON, threads: [] };
}

export function renderMarkdown(state: DocumentState): string {
  return serializeWorking(toWorking(state)).markdown;
}

export function toWorking(state: DocumentState): Working {
  const doc = PMNode.fromJSON(schema, state.doc);
  rememberSources(doc, state.doc.content);
  return { doc, threads: state.threads.map((thread) => ({ ...thread })) };
}

export function fromWorking(working: Working): DocumentState {
  const doc = normalizeDoc(working.doc, openSuggestionIds(working.threads));
  return { version: 1, doc: doc.toJSON() as NodeJSON, threads: working.threads };
}

export const openSuggestionIds = (threads: readonly ThreadAnchor[]) =>
  new Set(threads.filter((thread) => thread.kind === 'suggestion' && thread.status === 'open').map((thread) => thread.id));

export function suggestionRefs(threads: readonly ThreadAnchor[]): Map<number, string> {
  const refs = new Map<number, string>();
  for (const thread of threads) if (thread.kind === 'suggestion' && thread.status === 'open') refs.set(thread.ref, thread.id);
  return refs;
}

function writeContext(threads: readonly ThreadAnchor[]): WriteContext {
  const byId = new Map<string, number>();
  for (const thread of threads) if (thread.kind === 'suggestion' && thread.status === 'open') byId.set(thread.id, thread.ref);
  const signature = [...byId].map(([id, ref]) => `${id}:${ref}`).sort().join(',');
  return { refOf: (id) => byId.get(id) ?? null, suggestionRefs: suggestionRefs(threads), signature };
}

export const serializeWorking = (working: Working): SerializedDocument => serializeDoc(working.doc, writeContext(working.threads));

export const findThread = (threads: readonly ThreadAnchor[], id: string) => threads.find((thread) => thread.id === id);

/** Where a thread stands in the document, with its quote and, for a suggestion, what it proposes. */
export function threadPlacement(state: DocumentState, threadId: string): ThreadPlacement {
  return placementIn(toWorking(state), threadId);
}

/** Placement of every thread the engine knows, by id, reading the document once. */
export function threadPlacements(state: DocumentState): Map<string, ThreadPlacement> {
  const working = toWorking(state);
  return new Map(working.threads.map((thread) => [thread.id, placementIn(working, thread.id)]));
}

function placementIn(working: Working, threadId: string): ThreadPlacement {
  const thread = findThread(working.threads, threadId);
  const none: ThreadPlacement = { placement: 'detached', quote: null, suggested_text: null, suggested_format: null };
  // A thread the engine does not know has no text in the document.
  if (!thread) return none;
  if (thread.kind === 'comment') {
    if (thread.scope === 'document') return { ...none, placement: 'document' };
    const range = markedSpan(working.doc, (mark) => mark.type === marks.comment && mark.attrs.thread === threadId);
    if (!range) return { ...none, quote: thread.quote };
    return { ...none, placement: 'attached', quote: working.doc.textBetween(range.from, range.to, '\n', '\n') };
  }
  return suggestionPlacement(working, thread);
}

function markedSpan(doc: PMNode, test: (mark: Mark) => boolean): { from: number; to: number } | null {
  let from = -1;
  let to = -1;
  doc.descendants((node, pos) => {
    steps.count++;
    if (node.isInline && node.marks.some(test)) {
      if (from < 0) from = pos;
      to = pos + node.nodeSize;
    }
  });
  return from < 0 ? null : { from, to };
}

function suggestionPlacement(working: Working, thread: SuggestionAnchor): ThreadPlacement {
  const { doc } = working;
  const ctx = writeContext(working.threads);
  const owned = (type: string) => (mark: Mark) => mark.type.name === type && mark.attrs.thread === thread.id;
  const removed: string[] = [];
  const formatted: PMNode[][] = [];
  const added: string[] = [];
  const addedText: string[] = [];
  let blockMarks = 0;
  let formattedBlock: PMNode | null = null;

  doc.descendants((node) => {
    steps.count++;
    const marker = blockSuggestion(node);
    if (marker?.thread === thread.id) {
      blockMarks++;
      if (marker.kind === 'format') formattedBlock = node;
      if (!node.isTextblock || node.type === nodes.code_block) {
        const one = serializeDoc(nodes.doc.create(null, node.type.create({ ...node.attrs, suggestion: null }, node.content)), ctx).markdown;
        if (marker.kind === 'insert') {
          added.push(one);
          addedText.push(node.textContent);
        } else {
          removed.push(node.textContent);
        }
      }
    }
    if (!isInlineTextblock(node)) return true;
    const del: string[] = [];
    const fmt: PMNode[] = [];
    const ins: PMNode[] = [];
    node.forEach((child) => {
      if (child.marks.some(owned('suggest_delete'))) del.push(child.isText ? child.text! : '\n');
      if (child.marks.some(owned('suggest_format'))) fmt.push(child);
      if (child.marks.some(owned('suggest_insert'))) ins.push(child.mark(child.marks.filter((mark) => !owned('suggest_insert')(mark))));
    });
    if (del.length) removed.push(del.join(''));
    if (fmt.length) formatted.push(fmt);
    if (ins.length) {
      added.push(serializeInline(ins, ctx));
      addedText.push(ins.map((child) => (child.isText ? child.text! : child.type === nodes.hard_break ? '\n' : '')).join(''));
    }
    return false;
  });

  if (!removed.length && !formatted.length && !added.length && blockMarks === 0) {
    return { placement: 'detached', quote: null, suggested_text: null, suggested_format: null };
  }
  const formattedText = formatted.map((run) => run.map((child) => (child.isText ? child.text! : '')).join(''));
  const quoteParts = removed.length || formatted.length ? [...removed, ...formattedText] : addedText;
  let suggestedFormat: string | null = null;
  if (thread.format && formatted.length) {
    const change = thread.format;
    suggestedFormat = formatted.map((run) => serializeInline(run.map((child) => child.mark(applyFormat(child.marks, change))), ctx)).join('\n');
  }
  const block = formattedBlock as PMNode | null;
  if (thread.blockType && block) {
    const changed = nodes[thread.blockType.type].create({ ...thread.blockType.attrs, suggestion: null }, block.content);
    suggestedFormat = serializeDoc(nodes.doc.create(null, changed), ctx).markdown;
  }
  return {
    placement: 'attached',
    quote: quoteParts.join('\n') || (block ? block.textContent : null),
    suggested_text: added.length ? added.join('\n\n') : null,
    suggested_format: suggestedFormat,
  };
}

/** The marks a run has once a format change is applied, without the suggestion's own anchor. */
export function applyFormat(set: readonly Mark[], change: FormatChange): readonly Mark[] {
  let out: readonly Mark[] = set.filter((mark) => mark.type !== marks.suggest_format && !change.remove.includes(mark.type.name));
  for (const json of change.add) out = schema.markFromJSON(json).addToSet(out);
  return out;
}
