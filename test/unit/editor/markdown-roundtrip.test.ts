// The editor's markdown round trip (issue 27, docs/editor.md § Markdown round trip) on the CommonMark spec's examples:
// each is set as a document the way the API stores it (set_document on a new document); the examples whose stored
// markdown is the input byte for byte are "the examples the API keeps". Each is opened with the page's own logic
// (api/editor-app/client/changes.ts): saved without a change it sends nothing and the editor's document is the stored
// markdown byte for byte; a character typed at the end of its first text block is sent as one operation that stores
// the original with exactly that character inserted. Every example the API accepts (kept or normalised) is also
// opened, saved unchanged and typed into, and what is stored must read back as what was typed. On the kept examples,
// Enter splits the first text block, Enter at its end and a character typed add a paragraph, and Backspace joins the
// second text block to it: sent by an editor and by a commenter (its suggestions accepted), each stores the original
// with a paragraph break put in or taken out. Exceptions are data: each listed example must still fail as its reason
// says, so the lists only shrink.
import { tests as examples, type SpecExample } from 'commonmark-spec';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, TextSelection } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import {
  documentOf,
  keyCommands,
  operationFor,
  operationsFor,
  type Operation,
} from '../../../api/editor-app/client/changes.js';
import {
  acceptSuggestion,
  applyEdit,
  emptyDocumentState,
  renderMarkdown,
  type DocumentState,
  type EditMode,
} from '../../../domain/document-engine/index.js';
import { schema } from '../../../domain/document-engine/schema.js';
import { normalizeDoc } from '../../../domain/document-engine/normalize.js';
import { serializeWorking } from '../../../domain/document-engine/state.js';
import { AppError } from '../../../domain/errors.js';

/** How many of the spec's examples the API keeps byte for byte, and refuses (docs/editor.md states both). */
const KEPT_COUNT = 109;
const REFUSED_COUNT = 63;

/**
 * Kept examples where the typed character is stored as typed, but the canonical markdown of the new text is not the
 * old markdown with one character more: the character changes how its neighbours must be written.
 */
const TYPED_REWRITES: Record<number, string> = {
  17: 'a code span is padded with spaces only while it ends with a backtick: `` \\[\\` `` becomes ``\\[\\`x``',
  419: 'the typed character takes the emphasis but not the link, so the emphasis inside the link is written outside it',
  433: 'the typed character takes the strong emphasis but not the link, so the emphasis inside the link is written outside it',
  516: 'the typed character takes the code span and emphasis of the link text but not the link: a new `*`x`*` after it',
};

/**
 * Examples (kept or not) whose first text block holds no word to quote, so no replace says the typed character: an
 * editor's page sends the block deleted (by a quote of its spaces) and inserted anew, or, with no text to quote at
 * all, the whole document (set_document). What is stored reads as typed, but the empty fence's markdown gains a line.
 */
const NOTHING_TO_QUOTE: Record<number, [string, string[]]> = {
  126: ['an empty code block', ['set_document']],
  129: ['a code block of blank lines and spaces', ['delete', 'insert']],
  130: ['an empty code block', ['set_document']],
  144: ['an empty code block', ['set_document']],
  237: ['an empty code block in a block quote', ['set_document']],
};

/** Examples the API accepts whose document holds no text block at all (rules, empty lists and quotes). */
const NO_TEXT_BLOCK = [43, 47, 50, 51, 52, 53, 54, 79, 98, 207, 239, 240, 284];

const edit = { mode: 'edit' as EditMode, newThreadId: () => 'unused', nextRef: () => 1 };
const setDocument = (state: DocumentState, markdown: string) =>
  applyEdit(state, [{ type: 'set_document', markdown }], edit).state;

type Stored = { kind: 'refused'; code: string } | { kind: 'stored'; state: DocumentState; markdown: string };

/** What the API stores for the example: set_document on a new document, as POST /content does. */
function store(example: SpecExample): Stored {
  try {
    const state = setDocument(emptyDocumentState(), example.markdown);
    return { kind: 'stored', state, markdown: renderMarkdown(state) };
  } catch (error) {
    if (error instanceof AppError) return { kind: 'refused', code: error.code };
    throw error;
  }
}

/** The stored markdown has no trailing newline (docs/documents-model.md); every example ends with one. */
const asStored = (markdown: string) => markdown.replace(/\n$/, '');

const stored = new Map(examples.map((example) => [example.number, store(example)]));
const accepted = examples.filter((example) => stored.get(example.number)!.kind === 'stored');
const storedOf = (example: SpecExample) => stored.get(example.number) as Extract<Stored, { kind: 'stored' }>;
const kept = accepted.filter((example) => storedOf(example).markdown === asStored(example.markdown));

/** The page opens the document: the engine's reading, in the page's schema, inside an editor state. */
const open = (markdown: string) =>
  EditorState.create({ schema, doc: documentOf(schema, markdown, new Map()) });

function firstTextBlockEnd(doc: PMNode): number | undefined {
  let end: number | undefined;
  doc.descendants((node, pos) => {
    if (end !== undefined) return false;
    if (!node.isTextblock) return true;
    end = pos + node.nodeSize - 1;
    return false;
  });
  return end;
}

/** Types a character at the end of the first text block, as ProseMirror's input handling inserts text. */
function typeAtEnd(state: EditorState, character: string) {
  const at = firstTextBlockEnd(state.doc)!;
  return state.apply(state.tr.insertText(character, at));
}

/** The page's save, as an editor's: the operations it sends, and what the API then stores. */
function save(storedState: DocumentState, synced: PMNode, now: PMNode) {
  const operations = operationsFor(synced, now);
  if (!operations?.length) return { operations };
  const state = applyEdit(storedState, operations, edit).state;
  return { operations, markdown: renderMarkdown(state) };
}

/** Whether after is before with exactly one character inserted, and that character. */
function oneInserted(before: string, after: string): string | undefined {
  if (after.length !== before.length + 1) return undefined;
  let at = 0;
  while (at < before.length && before[at] === after[at]) at += 1;
  return after.slice(at + 1) === before.slice(at) ? after[at] : undefined;
}

describe(`CommonMark examples in the editor: the API keeps ${kept.length} of ${examples.length} byte for byte`, () => {
  it('keeps and refuses as many examples as docs/editor.md says', () => {
    expect(kept.length, 'update KEPT_COUNT and docs/editor.md § Markdown round trip').toBe(KEPT_COUNT);
    expect(examples.length - accepted.length, 'update REFUSED_COUNT and docs/editor.md').toBe(REFUSED_COUNT);
  });

  it('lists only kept examples as typed rewrites, and only documents without a text block as such', () => {
    const keptNumbers = new Set(kept.map((example) => example.number));
    for (const number of Object.keys(TYPED_REWRITES).map(Number)) expect(keptNumbers.has(number)).toBe(true);
    const withoutTextBlock = accepted
      .filter((example) => firstTextBlockEnd(open(storedOf(example).markdown).doc) === undefined)
      .map((example) => example.number);
    expect(withoutTextBlock).toEqual(NO_TEXT_BLOCK);
  });

  it.each(kept.map((example) => [example.number, example.section, example] as const))(
    'kept example %i (%s): opened and saved unchanged, then one character typed',
    (number, _section, example) => {
      const { state: storedState, markdown } = storedOf(example);
      const page = open(markdown);
      // The editor's document, written by the engine, is the stored markdown byte for byte.
      expect(
        renderMarkdown({ version: 1, doc: page.doc.toJSON() as DocumentState['doc'], threads: [] }),
      ).toBe(markdown);
      // Saved without a change, or after typing a character and deleting it again: nothing is sent.
      expect(operationsFor(page.doc, page.doc)).toEqual([]);
      if (NO_TEXT_BLOCK.includes(number)) return;
      const typed = typeAtEnd(page, 'x');
      const end = firstTextBlockEnd(page.doc)!;
      const undone = typed.apply(typed.tr.delete(end, end + 1));
      expect(operationsFor(page.doc, undone.doc)).toEqual([]);

      const saved = save(storedState, page.doc, typed.doc);
      if (NOTHING_TO_QUOTE[number]) {
        expect(
          saved.operations?.map((operation) => operation.type),
          `example ${number} now sends other operations: update NOTHING_TO_QUOTE`,
        ).toEqual(NOTHING_TO_QUOTE[number][1]);
        expect(documentOf(schema, saved.markdown!, new Map()).eq(typed.doc)).toBe(true);
        return;
      }
      expect(
        saved.operations,
        `not one replace for a character typed into ${JSON.stringify(markdown)}`,
      ).toEqual([operationFor(page.doc, typed.doc)]);
      // What the API stored reads back as what the person typed.
      expect(documentOf(schema, saved.markdown!, new Map()).eq(typed.doc)).toBe(true);
      if (TYPED_REWRITES[number]) {
        expect(
          oneInserted(markdown, saved.markdown!),
          `example ${number} now stores one character more: take it off TYPED_REWRITES`,
        ).toBeUndefined();
      } else {
        expect(
          oneInserted(markdown, saved.markdown!),
          JSON.stringify({ markdown, stored: saved.markdown }),
        ).toBe('x');
      }
    },
  );

  it.each(accepted.map((example) => [example.number, example.section, example] as const))(
    'stored form of example %i (%s): what the editor holds and sends is what the API stores',
    (number, _section, example) => {
      const { state: storedState, markdown } = storedOf(example);
      const page = open(markdown);
      expect(
        renderMarkdown({ version: 1, doc: page.doc.toJSON() as DocumentState['doc'], threads: [] }),
      ).toBe(markdown);
      expect(operationsFor(page.doc, page.doc)).toEqual([]);
      if (NO_TEXT_BLOCK.includes(number)) return;
      const typed = typeAtEnd(page, 'x');
      const saved = save(storedState, page.doc, typed.doc);
      if (NOTHING_TO_QUOTE[number]) {
        expect(
          saved.operations?.map((operation) => operation.type),
          `example ${number} now sends other operations: update NOTHING_TO_QUOTE`,
        ).toEqual(NOTHING_TO_QUOTE[number][1]);
        expect(documentOf(schema, saved.markdown!, new Map()).eq(typed.doc)).toBe(true);
        return;
      }
      expect(
        saved.operations,
        `not one replace for a character typed into ${JSON.stringify(markdown)}`,
      ).toEqual([operationFor(page.doc, typed.doc)]);
      expect(documentOf(schema, saved.markdown!, new Map()).eq(typed.doc)).toBe(true);
    },
  );
});

// --- Changes across blocks (docs/editor.md § Changes across blocks) --------------------------------------------

const keys = keyCommands(schema);

/** The page's document as the API would store it: empty paragraphs go. */
const normalized = (doc: PMNode) => normalizeDoc(doc, new Set());

/** Presses a key (the page's own command for it) with the caret at `at`. */
function press(state: EditorState, at: number, key: 'Enter' | 'Backspace'): EditorState {
  let pressed = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at)));
  keys[key](pressed, (tr) => (pressed = pressed.apply(tr)));
  return pressed;
}

/** What the API stores for the page's operations: as sent by an editor, and by a commenter once accepted. */
function storedAfter(storedState: DocumentState, operations: Operation[], mode: EditMode): string {
  const result = applyEdit(storedState, operations, {
    mode,
    newThreadId: (() => {
      let n = 0;
      return () => `suggestion-${(n += 1)}`;
    })(),
    nextRef: (() => {
      let n = 0;
      return () => (n += 1);
    })(),
  });
  let state = result.state;
  for (const id of result.suggestionThreadIds) state = acceptSuggestion(state, id);
  return renderMarkdown(state);
}

/** The text blocks of a document: their position, node and depth (0 for a top-level block). */
function textBlocks(doc: PMNode) {
  const blocks: { pos: number; node: PMNode; depth: number }[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    blocks.push({ pos, node, depth: doc.resolve(pos).depth });
    return false;
  });
  return blocks;
}

/**
 * A place in the first text block between two characters of plain text (no formatting, no space on either side),
 * nearest its middle, and its offset in the markdown: Enter there puts a paragraph break in the markdown there.
 */
function plainSplit(doc: PMNode, block: { pos: number; node: PMNode }) {
  const units = serializeWorking({ doc, threads: [] }).units;
  const middle = block.pos + 1 + block.node.content.size / 2;
  let best: { pos: number; md: number } | undefined;
  for (let i = 1; i < units.length; i++) {
    const [left, right] = [units[i - 1]!, units[i]!];
    const pos = left.to;
    if (right.from !== pos || left.mdEnd !== right.md || pos <= block.pos + 1) continue;
    if (pos >= block.pos + 1 + block.node.content.size) continue;
    const $pos = doc.resolve(pos);
    const text = doc.textBetween(pos - 1, pos + 1);
    if (/\s/.test(text) || text.length !== 2) continue;
    if ($pos.textOffset === 0 || !$pos.parent.child($pos.index()).isText) continue;
    if ($pos.parent.child($pos.index()).marks.length > 0) continue;
    if (!best || Math.abs(pos - middle) < Math.abs(best.pos - middle)) best = { pos, md: left.mdEnd };
  }
  return best;
}

/** The markdown a paragraph break at `md` makes: a blank line, and a heading's marker again for its second half. */
function brokenAt(markdown: string, md: number, block: PMNode, inserted = ''): string {
  const marker = block.type.name === 'heading' ? `${'#'.repeat(block.attrs.level as number)} ` : '';
  return `${markdown.slice(0, md)}\n\n${marker}${inserted}${markdown.slice(md)}`;
}

const reasons = (numbers: number[], reason: string) => Object.fromEntries(numbers.map((n) => [n, reason]));

/**
 * Kept examples whose first text block is not a top-level paragraph or heading, so the break is not a blank line
 * alone. What is stored is still what the page shows (checked for each, as everywhere here).
 */
const NESTED_FIRST_BLOCK: Record<number, string> = {
  ...reasons(
    [5, 256, 265, 267, 281, 283, 294, 296, 298, 299],
    'Enter in a list item makes a new item (`- `, `2.`)',
  ),
  ...reasons([242, 243, 244, 248], 'a paragraph in a block quote: the break is a `>` line'),
};
/**
 * Kept examples whose first text block has no place between two characters of plain text: all of it is formatted
 * (emphasis, code, a link, an image, an escape), so a break closes and opens the markup again. Enter is still
 * pressed in the block's middle and what is stored is what the page shows.
 */
const NO_PLAIN_SPLIT: Record<number, string> = {
  ...reasons([15, 17, 35, 328, 332, 333, 334, 339, 478], 'escapes and code spans throughout'),
  ...reasons([316, 318, 319, 321, 322, 323], 'a list item of one letter'),
  ...reasons(
    [350, 369, 378, 393, 394, 395, 405, 409, 410, 411, 413, 414, 415, 418, 423, 427, 428, 429, 430, 431, 432],
    'emphasis throughout',
  ),
  ...reasons([460, 464, 466, 467, 639], 'emphasis throughout'),
  ...reasons(
    [404, 419, 422, 433, 482, 483, 484, 486, 495, 498, 501, 515, 516, 517, 572, 578, 581],
    'a link or an image throughout',
  ),
};
/** Kept examples where the split's second half starts with text the writer must escape at a line's start. */
const SPLIT_REWRITES: Record<number, string> = {
  74: '`#` starts the second half: written `\\#` (and `### \\##`), else it would read as markup',
  266: '`0. not ok` at a line start would be a list: written `0\\. not ok`',
  361: '`_78` at a line start: written `\\_78`',
};
/**
 * Kept examples where a commenter's change is refused: no suggestion can mark an item written empty (`-` alone) or
 * a fence in a list, which hold no text to quote. An editor's is sent (as set_document where quotes cannot say it).
 */
const SUGGESTION_REFUSED: Record<number, string> = {
  281: 'new paragraph, join',
  283: 'new paragraph, join',
  318: 'new paragraph, join',
  321: 'new paragraph',
};
/**
 * Kept examples where Backspace at the start of the second text block is not a blank line removed: the blocks are
 * not two top-level paragraphs (joinBackward joins list items and quotes as blocks, not their text), a rule stands
 * between them (Backspace deletes the rule), or a line break of the joined paragraph is written as a space.
 */
const JOIN_REWRITES: Record<number, string> = {
  ...reasons(
    [5, 242, 244, 248, 256, 281, 283, 294, 296, 316, 318, 319, 321, 323],
    'blocks in a list or quote',
  ),
  104: 'a rule between the two paragraphs: Backspace takes the rule away',
  220: 'the joined paragraph `bbbccc\\nddd` ends a line inside text joined from two: written with a space',
};

describe('CommonMark examples in the editor: changes across blocks', () => {
  const candidates = kept.filter((example) => {
    const first = textBlocks(open(storedOf(example).markdown).doc)[0];
    return first !== undefined && first.node.type.name !== 'code_block';
  });

  it.each(candidates.map((example) => [example.number, example.section, example] as const))(
    'kept example %i (%s): Enter in the first block, Enter at its end and typing, Backspace joining the next',
    (number, _section, example) => {
      const { state: storedState, markdown } = storedOf(example);
      const page = open(markdown);
      const blocks = textBlocks(page.doc);
      const first = blocks[0]!;
      const topLevel = first.depth === 0 && first.node.type.name !== 'code_block';
      // An editor's operations store the page's document; a commenter's suggestions, accepted, store the same.
      const refusedSuggestions: string[] = [];
      const stores = (after: PMNode, what: string) => {
        const operations = operationsFor(page.doc, after, new Map(), 'edit');
        expect(operations, `no operations for ${what} in ${JSON.stringify(markdown)}`).toBeDefined();
        // Nothing sent (Enter at a block's edge makes an empty paragraph only): the API keeps what it has.
        const edited = operations!.length ? storedAfter(storedState, operations!, 'edit') : markdown;
        expect(edited).toBe(serializeWorking({ doc: normalized(after), threads: [] }).markdown);
        const suggested = operationsFor(page.doc, after, new Map(), 'suggest');
        if (suggested)
          expect(suggested.length ? storedAfter(storedState, suggested, 'suggest') : markdown).toBe(edited);
        else refusedSuggestions.push(what);
        return edited;
      };

      // Enter in the middle of the first block.
      const split = plainSplit(page.doc, first);
      if (!split) {
        expect(NO_PLAIN_SPLIT[number], `example ${number} has no plain place to split`).toBeDefined();
        stores(press(page, first.pos + 1 + Math.floor(first.node.content.size / 2), 'Enter').doc, 'split');
      } else {
        expect(NO_PLAIN_SPLIT[number], 'take it off NO_PLAIN_SPLIT').toBeUndefined();
        const stored = stores(press(page, split.pos, 'Enter').doc, 'split');
        const expected = brokenAt(markdown, split.md, first.node);
        expect(NESTED_FIRST_BLOCK[number] !== undefined, JSON.stringify({ markdown, stored })).toBe(
          !topLevel,
        );
        if (!topLevel) expect(stored).not.toBe(expected);
        else if (SPLIT_REWRITES[number]) expect(stored, 'take it off SPLIT_REWRITES').not.toBe(expected);
        else expect(stored).toBe(expected);
      }

      // Enter at the end of the first block sends nothing (an empty paragraph); a character typed there, a paragraph.
      const end = first.pos + first.node.nodeSize - 1;
      const entered = press(page, end, 'Enter');
      const typed = stores(entered.apply(entered.tr.insertText('x')).doc, 'new paragraph');
      if (topLevel) {
        expect(operationsFor(page.doc, entered.doc, new Map(), 'edit')).toEqual([]);
        const written = serializeWorking({
          doc: schema.nodes.doc.create(null, page.doc.child(0)),
          threads: [],
        });
        const at = written.markdown.length;
        expect(typed).toBe(`${markdown.slice(0, at)}\n\nx${markdown.slice(at)}`);
      }

      // Backspace at the start of the second block joins it to the first.
      const second = blocks[1];
      if (second) {
        const joined = stores(press(page, second.pos + 1, 'Backspace').doc, 'join');
        const twoParagraphs = [first, second].every(
          (block) => block.depth === 0 && block.node.type.name === 'paragraph',
        );
        const removed = markdown.replace('\n\n', '');
        if (JOIN_REWRITES[number] || !twoParagraphs) {
          expect(JOIN_REWRITES[number], JSON.stringify({ markdown, joined })).toBeDefined();
          expect(joined, 'take it off JOIN_REWRITES').not.toBe(removed);
        } else expect(joined).toBe(removed);
      }
      expect(refusedSuggestions.join(', ') || undefined, 'update SUGGESTION_REFUSED').toBe(
        SUGGESTION_REFUSED[number],
      );
    },
  );
});
