// The engine's stored state of a document (JSON, kept as JSONB) and the reads over it: markdown and thread placement.
import { Node as PMNode, type Mark } from 'prosemirror-model';
import { parseMarkdown } from './markdown.js';
import { serializeInline } from './markdown-inline-writer.js';
import type { WriteContext } from './markdown-units.js';
import { blockJson, rememberSources } from './markdown-write-cache.js';
import { serializeDoc, type SerializedDocument } from './markdown-writer.js';
import { normalizeDoc } from './normalize.js';
import { steps } from './steps.js';
import { blockSuggestion, isInlineTextblock, isSuggestionMark, marks, nodes, schema } from './schema.js';

/** ProseMirror's JSON form of a node. */
export interface NodeJSON {
  type: string;
  attrs?: Record<string, unknown>;
  content?: NodeJSON[];
  marks?: MarkJSON[];
  text?: string;
}

interface MarkJSON {
  type: string;
  attrs?: Record<string, unknown>;
}

/** A change of inline formatting a suggestion proposes, written {==text==}: marks to add, mark types to take off. */
export interface FormatChange {
  add: MarkJSON[];
  remove: string[];
}

/** A change of block type a suggestion proposes, written {==¶==}. */
interface BlockTypeChange {
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

type Placement = 'attached' | 'document' | 'detached';

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
  return settle(working).state;
}

/**
 * A working document made final: normalized, and its stored state, which shares the JSON of every block it kept with
 * the state it was read from (blockJson).
 */
export function settle(working: Working): { working: Working; state: DocumentState } {
  const doc = normalizeDoc(working.doc, openSuggestionIds(working.threads));
  const content: NodeJSON[] = [];
  doc.forEach((child) => content.push(blockJson(child) as NodeJSON));
  // As ProseMirror's toJSON writes a doc: no attrs, and no content when empty.
  const json: NodeJSON = content.length ? { type: 'doc', content } : { type: 'doc' };
  return {
    working: { doc, threads: working.threads },
    state: { version: 1, doc: json, threads: working.threads },
  };
}

export const openSuggestionIds = (threads: readonly ThreadAnchor[]) =>
  new Set(
    threads
      .filter((thread) => thread.kind === 'suggestion' && thread.status === 'open')
      .map((thread) => thread.id),
  );

export function suggestionRefs(threads: readonly ThreadAnchor[]): Map<number, string> {
  const refs = new Map<number, string>();
  for (const thread of threads)
    if (thread.kind === 'suggestion' && thread.status === 'open') refs.set(thread.ref, thread.id);
  return refs;
}

function writeContext(threads: readonly ThreadAnchor[]): WriteContext {
  const byId = new Map<string, number>();
  for (const thread of threads)
    if (thread.kind === 'suggestion' && thread.status === 'open') byId.set(thread.id, thread.ref);
  const signature = [...byId]
    .map(([id, ref]) => `${id}:${ref}`)
    .sort()
    .join(',');
  return { refOf: (id) => byId.get(id) ?? null, suggestionRefs: suggestionRefs(threads), signature };
}

export const serializeWorking = (working: Working): SerializedDocument =>
  serializeDoc(working.doc, writeContext(working.threads));

export const findThread = (threads: readonly ThreadAnchor[], id: string) =>
  threads.find((thread) => thread.id === id);

const detached = (): ThreadPlacement => ({
  placement: 'detached',
  quote: null,
  suggested_text: null,
  suggested_format: null,
});

/** Where a thread stands in the document, with its quote and, for a suggestion, what it proposes. */
export function threadPlacement(state: DocumentState, threadId: string): ThreadPlacement {
  return threadPlacements(state, [threadId]).get(threadId)!;
}

/**
 * Placements by thread id, reading the document once for all of them: of the threads asked for (a thread the
 * engine does not know has no text in the document: detached), or of every thread the engine knows.
 */
export function threadPlacements(
  state: DocumentState,
  threadIds?: readonly string[],
): Map<string, ThreadPlacement> {
  return placementsOf(toWorking(state), threadIds);
}

/** threadPlacements of a working document. */
export function placementsOf(working: Working, threadIds?: readonly string[]): Map<string, ThreadPlacement> {
  const placed = placementsIn(working, threadIds === undefined ? undefined : new Set(threadIds));
  if (threadIds === undefined) return placed;
  return new Map(threadIds.map((id) => [id, placed.get(id) ?? detached()]));
}

/** What a suggestion's marks hold, gathered in document order. */
interface SuggestionParts {
  thread: SuggestionAnchor;
  removed: string[];
  formatted: PMNode[][];
  added: string[];
  addedText: string[];
  blockMarks: number;
  formattedBlock: PMNode | null;
}

/** What one text block holds of a suggestion: its removed text, formatted runs and added runs. */
interface BlockParts {
  del: string[];
  fmt: PMNode[];
  ins: PMNode[];
}

/**
 * Placements of the threads the engine knows (those in `only`, when given), in one walk over the document: every
 * comment's span and every suggestion's parts are gathered as their marks are met, so the work is the document's
 * size plus what the placements hold, however many threads there are.
 */
function placementsIn(working: Working, only?: ReadonlySet<string>): Map<string, ThreadPlacement> {
  const { doc } = working;
  const ctx = writeContext(working.threads);
  const spans = new Map<string, { from: number; to: number } | null>();
  const suggestions = new Map<string, SuggestionParts>();
  for (const thread of working.threads) {
    if (only && !only.has(thread.id)) continue;
    if (thread.kind === 'comment' && thread.scope === 'text' && !spans.has(thread.id))
      spans.set(thread.id, null);
    if (thread.kind === 'suggestion' && !suggestions.has(thread.id)) {
      suggestions.set(thread.id, {
        thread,
        removed: [],
        formatted: [],
        added: [],
        addedText: [],
        blockMarks: 0,
        formattedBlock: null,
      });
    }
  }

  const spanComments = (node: PMNode, pos: number) => {
    for (const mark of node.marks) {
      if (mark.type !== marks.comment) continue;
      const id = mark.attrs.thread as string;
      if (!spans.has(id)) continue;
      const span = spans.get(id);
      if (span) span.to = pos + node.nodeSize;
      else spans.set(id, { from: pos, to: pos + node.nodeSize });
    }
  };

  // Nothing to gather (no thread asked for has marks to find): the document is not read.
  if (spans.size > 0 || suggestions.size > 0)
    doc.descendants((node, pos) => {
      steps.count++;
      const marker = blockSuggestion(node);
      const parts = marker ? suggestions.get(marker.thread) : undefined;
      if (marker && parts) {
        parts.blockMarks++;
        if (marker.kind === 'format') parts.formattedBlock = node;
        if (!node.isTextblock || node.type === nodes.code_block) {
          const one = serializeDoc(
            nodes.doc.create(null, node.type.create({ ...node.attrs, suggestion: null }, node.content)),
            ctx,
          ).markdown;
          if (marker.kind === 'insert') {
            parts.added.push(one);
            parts.addedText.push(node.textContent);
          } else {
            parts.removed.push(node.textContent);
          }
        }
      }
      if (!isInlineTextblock(node)) {
        // Text in a code block carries comment marks too.
        if (node.isInline) spanComments(node, pos);
        return true;
      }
      let inBlock: Map<string, BlockParts> | null = null;
      node.forEach((child, offset) => {
        steps.count++;
        spanComments(child, pos + 1 + offset);
        for (const mark of child.marks) {
          if (!isSuggestionMark(mark)) continue;
          const id = mark.attrs.thread as string;
          if (!suggestions.has(id)) continue;
          inBlock ??= new Map();
          let own = inBlock.get(id);
          if (!own) {
            own = { del: [], fmt: [], ins: [] };
            inBlock.set(id, own);
          }
          if (mark.type === marks.suggest_delete) own.del.push(child.isText ? child.text! : '\n');
          else if (mark.type === marks.suggest_format) own.fmt.push(child);
          else own.ins.push(child.mark(mark.removeFromSet(child.marks)));
        }
      });
      for (const [id, own] of (inBlock as Map<string, BlockParts> | null) ?? []) {
        const parts = suggestions.get(id)!;
        if (own.del.length) parts.removed.push(own.del.join(''));
        if (own.fmt.length) parts.formatted.push(own.fmt);
        if (own.ins.length) {
          parts.added.push(serializeInline(own.ins, ctx));
          parts.addedText.push(
            own.ins
              .map((child) => (child.isText ? child.text! : child.type === nodes.hard_break ? '\n' : ''))
              .join(''),
          );
        }
      }
      return false;
    });

  const placements = new Map<string, ThreadPlacement>();
  for (const thread of working.threads) {
    if ((only && !only.has(thread.id)) || placements.has(thread.id)) continue;
    if (thread.kind === 'suggestion') {
      placements.set(thread.id, suggestionPlacement(suggestions.get(thread.id)!, ctx));
    } else if (thread.scope === 'document') {
      placements.set(thread.id, { ...detached(), placement: 'document' });
    } else {
      const span = spans.get(thread.id);
      placements.set(
        thread.id,
        span
          ? { ...detached(), placement: 'attached', quote: doc.textBetween(span.from, span.to, '\n', '\n') }
          : { ...detached(), quote: thread.quote },
      );
    }
  }
  return placements;
}

function suggestionPlacement(parts: SuggestionParts, ctx: WriteContext): ThreadPlacement {
  const { thread, removed, formatted, added, addedText, blockMarks } = parts;
  if (!removed.length && !formatted.length && !added.length && blockMarks === 0) return detached();
  const formattedText = formatted.map((run) =>
    run.map((child) => (child.isText ? child.text! : '')).join(''),
  );
  const quoteParts = removed.length || formatted.length ? [...removed, ...formattedText] : addedText;
  let suggestedFormat: string | null = null;
  if (thread.format && formatted.length) {
    const change = thread.format;
    suggestedFormat = formatted
      .map((run) =>
        serializeInline(
          run.map((child) => child.mark(applyFormat(child.marks, change))),
          ctx,
        ),
      )
      .join('\n');
  }
  const block = parts.formattedBlock;
  if (thread.blockType && block) {
    const changed = nodes[thread.blockType.type].create(
      { ...thread.blockType.attrs, suggestion: null },
      block.content,
    );
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
function applyFormat(set: readonly Mark[], change: FormatChange): readonly Mark[] {
  let out: readonly Mark[] = set.filter(
    (mark) => mark.type !== marks.suggest_format && !change.remove.includes(mark.type.name),
  );
  for (const json of change.add) out = schema.markFromJSON(json).addToSet(out);
  return out;
}
