// applyEdit: runs a request's operations, as direct edits or as suggestions, all or nothing.
import { Fragment, type Mark, type Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { anchorFor, type Anchor } from './anchors.js';
import {
  atOperation,
  invalidOperation,
  notSuggestible,
  nothingToSuggest,
  targetSpansBlocks,
} from './errors.js';
import { parseInlineMarkdown, parseMarkdown } from './markdown.js';
import { normalizeDoc } from './normalize.js';
import {
  parseOperations,
  type DeleteOperation,
  type EditMode,
  type EditOperation,
  type InsertOperation,
  type ReplaceOperation,
} from './operations.js';
import { matchQuote } from './quotes.js';
import {
  anchorsAround,
  blocksInRange,
  deleteInline,
  deleteRange,
  marksAcross,
  withAnchors,
} from './ranges.js';
import { marks, nodes, schema, isAnchorMark, isInlineTextblock, type BlockSuggestion } from './schema.js';
import { setDocument } from './set-document.js';
import {
  openSuggestionIds,
  serializeWorking,
  settle,
  toWorking,
  type DocumentState,
  type FormatChange,
  type SuggestionAnchor,
  type Working,
} from './state.js';

export interface EditOptions {
  mode: EditMode;
  /** A fresh thread id, called once per operation in suggest mode. */
  newThreadId: () => string;
  /** The next suggestion ref of the document, called once per operation in suggest mode. */
  nextRef: () => number;
}

export interface EditResult {
  state: DocumentState;
  /** In suggest mode, the new suggestion thread per operation, in order; empty for an edit. */
  suggestionThreadIds: string[];
}

/** Checks a request's operations (parseOperations) and applies them: for callers holding the raw array. */
export const applyEdit = (state: DocumentState, operations: unknown, options: EditOptions): EditResult =>
  applyOperations(state, parseOperations(operations, options.mode), options);

/**
 * Applies checked operations in order, each to the document the previous ones left. Any refusal throws and nothing
 * is returned, so the caller's state is untouched: the edit lands whole or not at all.
 */
function applyOperations(
  state: DocumentState,
  ops: readonly EditOperation[],
  options: EditOptions,
): EditResult {
  const result = applyOperationsTo(toWorking(state), ops, options);
  return { state: result.state, suggestionThreadIds: result.suggestionThreadIds };
}

/**
 * applyOperations on a working document (a parsed one kept from an earlier request, see WorkingDocument), which it
 * leaves as it was. The result holds the working document after the edit as well as its state.
 */
export function applyOperationsTo(
  start: Working,
  ops: readonly EditOperation[],
  options: EditOptions,
): EditResult & { working: Working } {
  let working = start;
  const suggestionThreadIds: string[] = [];
  ops.forEach((op, index) => {
    try {
      if (options.mode === 'edit') {
        working = applyOperation(working, op, index);
      } else {
        if (op.type === 'set_document') throw notSuggestible(index);
        const thread: SuggestionAnchor = {
          id: options.newThreadId(),
          kind: 'suggestion',
          ref: options.nextRef(),
          status: 'open',
          resolution: null,
          format: null,
          blockType: null,
        };
        working = suggestOperation({ ...working, threads: [...working.threads, thread] }, op, index, thread);
        suggestionThreadIds.push(thread.id);
      }
    } catch (error) {
      throw atOperation(error, index);
    }
  });
  const settled = settle(working);
  return { state: settled.state, working: settled.working, suggestionThreadIds };
}

const normalized = (working: Working, doc: PMNode): Working => ({
  ...working,
  doc: normalizeDoc(doc, openSuggestionIds(working.threads)),
});

function applyOperation(working: Working, op: EditOperation, index: number): Working {
  switch (op.type) {
    case 'replace':
      return replaceText(working, op, index);
    case 'delete':
      return deleteText(working, op, index);
    case 'insert':
      return insertBlocks(working, op, index, null);
    case 'set_document':
      return normalized(working, setDocument(working, op.markdown));
  }
}

function suggestOperation(
  working: Working,
  op: EditOperation,
  index: number,
  thread: SuggestionAnchor,
): Working {
  switch (op.type) {
    case 'replace':
      return suggestReplace(working, op, index, thread);
    case 'delete':
      return suggestDelete(working, op, index, thread);
    case 'insert':
      return insertBlocks(working, op, index, thread.id);
    case 'set_document':
      throw notSuggestible(index);
  }
}

const locate = (working: Working, op: ReplaceOperation | DeleteOperation, index: number) =>
  matchQuote(working.doc, serializeWorking(working), op, index);

/** The replacement's inline content, with the formatting of what it replaces. */
function replacementContent(
  doc: PMNode,
  from: number,
  to: number,
  op: ReplaceOperation,
  reading: 'markdown' | 'text',
): PMNode[] {
  const parent = doc.resolve(from).parent;
  const anchors = anchorsAround(doc, from, to);
  if (parent.type === nodes.code_block) {
    // Text inside a fence is literal, so `with` is too.
    return op.with
      ? [
          schema.text(
            op.with,
            anchors.filter((mark) => mark.type === marks.comment),
          ),
        ]
      : [];
  }
  const parsed = parseInlineMarkdown(op.with);
  // Formatting the quote states itself (find "**word**") is the caller's to change; the rest carries over.
  const stated = reading === 'markdown' ? statedMarkTypes(op.find) : new Set<string>();
  const inherited = marksAcross(doc, from, to).filter(
    (mark) => !isAnchorMark(mark) && !stated.has(mark.type.name),
  );
  return parsed.map((node) => {
    let set: readonly Mark[] = inherited;
    for (const mark of node.marks) set = mark.addToSet(set);
    return node.mark(withAnchors(set, anchors));
  });
}

function statedMarkTypes(find: string): Set<string> {
  try {
    return new Set(parseInlineMarkdown(find).flatMap((node) => node.marks.map((mark) => mark.type.name)));
  } catch {
    return new Set();
  }
}

function sameTextblock(doc: PMNode, from: number, to: number, index: number) {
  const $from = doc.resolve(from);
  const $to = doc.resolve(to);
  if (!$from.parent.isTextblock || !$from.sameParent($to)) throw targetSpansBlocks(index);
  return $from;
}

function replaceText(working: Working, op: ReplaceOperation, index: number): Working {
  const { doc } = working;
  const match = locate(working, op, index);
  sameTextblock(doc, match.from, match.to, index);
  const content = replacementContent(doc, match.from, match.to, op, match.reading);
  const tr = new Transform(doc);
  if (content.length === 0) deleteInline(tr, match.from, match.to);
  else tr.replaceWith(match.from, match.to, content);
  return normalized(working, tr.doc);
}

function deleteText(working: Working, op: DeleteOperation, index: number): Working {
  const match = locate(working, op, index);
  const tr = new Transform(working.doc);
  deleteRange(tr, match.from, match.to);
  return normalized(working, tr.doc);
}

function insertBlocks(working: Working, op: InsertOperation, index: number, thread: string | null): Working {
  let fragment = parseMarkdown(op.markdown).content;
  if (fragment.childCount === 0)
    throw invalidOperation(index, `Operation ${index}: markdown holds nothing to insert.`);
  if (thread) fragment = markInserted(fragment, thread);
  const anchor: Anchor = anchorFor(working, op, index);
  const tr = new Transform(working.doc);
  const lists: PMNode[] = [];
  fragment.forEach((block) => lists.push(block));
  const allLists = lists.every(
    (block) => block.type === nodes.bullet_list || block.type === nodes.ordered_list,
  );
  if (anchor.listItem && allLists) {
    // A list inserted beside a list item joins that list, item by item.
    const items: PMNode[] = [];
    for (const list of lists) list.forEach((item) => items.push(item));
    tr.insert(anchor.listItem, items);
  } else {
    tr.insert(anchor.block, besideLists(tr.doc, anchor.block, lists));
  }
  return normalized(working, tr.doc);
}

/**
 * Inserted blocks whose first (or last) is a list landing beside a list of the same kind, written with that list's
 * bullet or delimiter, so that it joins it rather than standing apart as a list of other bullets would.
 */
function besideLists(doc: PMNode, pos: number, blocks: PMNode[]): PMNode[] {
  const $pos = doc.resolve(pos);
  const like = (block: PMNode, neighbour: PMNode | null | undefined) =>
    neighbour &&
    neighbour.type === block.type &&
    (block.type === nodes.bullet_list || block.type === nodes.ordered_list)
      ? block.type.create(
          { ...block.attrs, bullet: neighbour.attrs.bullet, delimiter: neighbour.attrs.delimiter },
          block.content,
        )
      : block;
  const out = [...blocks];
  out[0] = like(out[0]!, $pos.nodeBefore);
  out[out.length - 1] = like(out[out.length - 1]!, $pos.nodeAfter);
  return out;
}

/** Inserted blocks as a suggestion: every text block marked new, all of its text marked added. */
function markInserted(fragment: Fragment, thread: string): Fragment {
  const marker: BlockSuggestion = { kind: 'insert', thread };
  const added = marks.suggest_insert.create({ thread });
  const mapBlock = (node: PMNode): PMNode => {
    if (isInlineTextblock(node)) {
      const content: PMNode[] = [];
      node.forEach((child) => content.push(child.mark(added.addToSet(child.marks))));
      return node.type.create({ ...node.attrs, suggestion: marker }, content);
    }
    if ('suggestion' in node.attrs)
      return node.type.create({ ...node.attrs, suggestion: marker }, node.content);
    const children: PMNode[] = [];
    node.forEach((child) => children.push(mapBlock(child)));
    return node.type.create(node.attrs, children);
  };
  const blocks: PMNode[] = [];
  fragment.forEach((block) => blocks.push(mapBlock(block)));
  return Fragment.fromArray(blocks);
}

// --- Suggest mode ----------------------------------------------------------------------------------------------

const isSuggestedRemoval = (node: PMNode) => node.marks.some((mark) => mark.type === marks.suggest_delete);

/** Marks text in a range as removed by a thread, skipping text some suggestion already removes. Returns how much. */
function markRemoved(tr: Transform, from: number, to: number, thread: string): number {
  const removed = marks.suggest_delete.create({ thread });
  let marked = 0;
  tr.doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isInline) return true;
    if (isSuggestedRemoval(node)) return false;
    const a = Math.max(from, pos);
    const b = Math.min(to, pos + node.nodeSize);
    if (a < b) {
      tr.addMark(a, b, removed);
      marked += b - a;
    }
    return false;
  });
  return marked;
}

function suggestReplace(
  working: Working,
  op: ReplaceOperation,
  index: number,
  thread: SuggestionAnchor,
): Working {
  const { doc } = working;
  const match = locate(working, op, index);
  const $from = sameTextblock(doc, match.from, match.to, index);
  if ($from.parent.type === nodes.code_block)
    return suggestCodeChange(working, $from.before(), match.from, match.to, op.with, index, thread);
  const content = replacementContent(doc, match.from, match.to, op, match.reading);

  const format = formatChangeOf(doc, match.from, match.to, content);
  if (format === 'same')
    throw nothingToSuggest(index, 'The replacement is the same as the text it replaces.');
  if (format) {
    if (hasSuggestedRemoval(doc, match.from, match.to)) throw nothingToSuggest(index);
    const tr = new Transform(doc).addMark(
      match.from,
      match.to,
      marks.suggest_format.create({ thread: thread.id }),
    );
    const threads = working.threads.map((t) => (t.id === thread.id ? { ...thread, format } : t));
    return normalized({ ...working, threads }, tr.doc);
  }

  const tr = new Transform(doc);
  const removed = markRemoved(tr, match.from, match.to, thread.id);
  if (removed === 0) throw nothingToSuggest(index);
  if (content.length > 0) {
    const added = marks.suggest_insert.create({ thread: thread.id });
    tr.insert(
      match.to,
      content.map((node) => node.mark(added.addToSet(node.marks))),
    );
  }
  return normalized(working, tr.doc);
}

function hasSuggestedRemoval(doc: PMNode, from: number, to: number): boolean {
  let found = false;
  doc.nodesBetween(from, to, (node) => {
    if (node.isInline && isSuggestedRemoval(node)) found = true;
    return !found;
  });
  return found;
}

/**
 * When a replacement keeps the text and changes only formatting, the same way throughout, it is a format
 * suggestion ({==text==}). Returns the change, 'same' when nothing changes, or null for a text change.
 */
function formatChangeOf(
  doc: PMNode,
  from: number,
  to: number,
  content: PMNode[],
): FormatChange | 'same' | null {
  const old: PMNode[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isInline) return true;
    old.push(node.isText ? node.cut(Math.max(0, from - pos), Math.min(node.nodeSize, to - pos)) : node);
    return false;
  });
  const flat = (list: PMNode[]) =>
    list.map((node) => (node.isText ? node.text! : `\uFFFC${node.type.name}`)).join('');
  if (flat(old) !== flat(content)) return null;
  const formats = (node: PMNode) => node.marks.filter((mark) => !isAnchorMark(mark));
  const pairs: Array<[readonly Mark[], readonly Mark[]]> = [];
  const oldChars = old.flatMap((node) =>
    Array.from({ length: node.isText ? node.text!.length : 1 }, () => formats(node)),
  );
  const newChars = content.flatMap((node) =>
    Array.from({ length: node.isText ? node.text!.length : 1 }, () => formats(node)),
  );
  oldChars.forEach((set, i) => pairs.push([set, newChars[i]!]));
  const describe = ([before, after]: [readonly Mark[], readonly Mark[]]) => ({
    add: after.filter((mark) => !mark.isInSet(before)),
    remove: before
      .filter((mark) => !after.some((other) => other.type === mark.type))
      .map((mark) => mark.type.name),
  });
  const first = describe(pairs[0]!);
  const key = (change: { add: Mark[]; remove: string[] }) =>
    JSON.stringify([change.add.map((mark) => mark.toJSON()), [...change.remove].sort()]);
  if (pairs.some((pair) => key(describe(pair)) !== key(first))) return null;
  if (first.add.length === 0 && first.remove.length === 0) return 'same';
  return {
    add: first.add.map((mark) => mark.toJSON() as FormatChange['add'][number]),
    remove: [...new Set(first.remove)],
  };
}

/**
 * Text inside a fence cannot carry CriticMarkup, so a change there is suggested a block at a time: the old block
 * marked removed, a changed copy after it marked new.
 */
function suggestCodeChange(
  working: Working,
  blockPos: number,
  from: number,
  to: number,
  replacement: string,
  index: number,
  thread: SuggestionAnchor,
): Working {
  const block = working.doc.nodeAt(blockPos)!;
  const marker = block.attrs.suggestion as BlockSuggestion | null;
  if (marker?.kind === 'delete') throw nothingToSuggest(index);
  if (marker)
    throw notSuggestible(index, 'This code block is itself a suggestion; accept or reject it first.');
  const text = block.textContent;
  const start = blockPos + 1;
  const changed = text.slice(0, from - start) + replacement + text.slice(to - start);
  const tr = new Transform(working.doc);
  tr.setNodeMarkup(blockPos, undefined, {
    ...block.attrs,
    suggestion: { kind: 'delete', thread: thread.id },
  });
  const copy = nodes.code_block.create(
    { ...block.attrs, suggestion: { kind: 'insert', thread: thread.id } },
    changed ? schema.text(changed) : null,
  );
  tr.insert(blockPos + block.nodeSize, copy);
  return normalized(working, tr.doc);
}

function suggestDelete(
  working: Working,
  op: DeleteOperation,
  index: number,
  thread: SuggestionAnchor,
): Working {
  const { doc } = working;
  const match = locate(working, op, index);
  const covered = blocksInRange(doc, match.from, match.to);
  const single = covered.length === 1 ? covered[0]! : null;
  if (single && single.node.type === nodes.code_block && !single.whole) {
    return suggestCodeChange(working, single.pos, single.from, single.to, '', index, thread);
  }
  if (covered.some((block) => block.node.type === nodes.code_block && !block.whole)) {
    throw notSuggestible(
      index,
      'A suggested removal cannot cut into a code block; quote the whole block, or only text outside it.',
    );
  }

  const tr = new Transform(doc);
  let marked = 0;
  for (const block of covered)
    if (isInlineTextblock(block.node)) marked += markRemoved(tr, block.from, block.to, thread.id);

  // Which block boundaries go: see dissolveBlock. A block whose whole text goes is marked so it leaves; of a range
  // that cuts into its first and last blocks, the last joins the first.
  const last = covered.length - 1;
  const firstWhole = covered[0]?.whole ?? false;
  covered.forEach((block, i) => {
    const markBlock =
      !isInlineTextblock(block.node) ||
      (i === 0 ? block.whole : i < last ? true : block.whole || !firstWhole);
    if (!markBlock || block.node.attrs.suggestion) return;
    tr.setNodeMarkup(tr.mapping.map(block.pos), undefined, {
      ...block.node.attrs,
      suggestion: { kind: 'delete', thread: thread.id },
    });
    marked++;
  });
  if (marked === 0) throw nothingToSuggest(index);
  return normalized(working, tr.doc);
}
