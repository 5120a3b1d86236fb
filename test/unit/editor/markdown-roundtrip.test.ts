// The editor's markdown round trip (issue 27, docs/editor.md § Markdown round trip) on the CommonMark spec's examples:
// each is set as a document the way the API stores it (set_document on a new document); the examples whose stored
// markdown is the input byte for byte are "the examples the API keeps". Each is opened with the page's own logic
// (api/editor-app/client/changes.ts): saved without a change it sends nothing and the editor's document is the stored
// markdown byte for byte; a character typed at the end of its first text block is sent as one operation that stores
// the original with exactly that character inserted. Every example the API accepts (kept or normalised) is also
// opened, saved unchanged and typed into, and what is stored must read back as what was typed. Exceptions are data:
// each listed example must still fail as its reason says, so the lists only shrink.
import { tests as examples, type SpecExample } from 'commonmark-spec';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { documentOf, operationFor } from '../../../api/editor-app/client/changes.js';
import {
  applyEdit,
  emptyDocumentState,
  renderMarkdown,
  type DocumentState,
  type EditMode,
} from '../../../domain/document-engine/index.js';
import { schema } from '../../../domain/document-engine/schema.js';
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

/** Examples (kept or not) whose first text block holds no word to quote: a replace needs a quote, so nothing is sent. */
const NOTHING_TO_QUOTE: Record<number, string> = {
  126: 'an empty code block',
  129: 'a code block of blank lines and spaces',
  130: 'an empty code block',
  144: 'an empty code block',
  237: 'an empty code block in a block quote',
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

/** The page's save: the operation it sends, and what the API then stores. */
function save(storedState: DocumentState, synced: PMNode, now: PMNode) {
  const operation = operationFor(synced, now);
  if (!operation) return { operation };
  const state = applyEdit(storedState, [operation], edit).state;
  return { operation, markdown: renderMarkdown(state) };
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
      expect(operationFor(page.doc, page.doc)).toBeUndefined();
      if (NO_TEXT_BLOCK.includes(number)) return;
      const typed = typeAtEnd(page, 'x');
      const end = firstTextBlockEnd(page.doc)!;
      const undone = typed.apply(typed.tr.delete(end, end + 1));
      expect(operationFor(page.doc, undone.doc)).toBeUndefined();

      const saved = save(storedState, page.doc, typed.doc);
      if (NOTHING_TO_QUOTE[number]) {
        expect(saved.operation, `example ${number} now sends its change: take it off NOTHING_TO_QUOTE`).toBe(
          undefined,
        );
        return;
      }
      expect(
        saved.operation,
        `no operation for a character typed into ${JSON.stringify(markdown)}`,
      ).toBeDefined();
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
      expect(operationFor(page.doc, page.doc)).toBeUndefined();
      if (NO_TEXT_BLOCK.includes(number)) return;
      const typed = typeAtEnd(page, 'x');
      const saved = save(storedState, page.doc, typed.doc);
      if (NOTHING_TO_QUOTE[number]) {
        expect(saved.operation, `example ${number} now sends its change: take it off NOTHING_TO_QUOTE`).toBe(
          undefined,
        );
        return;
      }
      expect(
        saved.operation,
        `no operation for a character typed into ${JSON.stringify(markdown)}`,
      ).toBeDefined();
      expect(documentOf(schema, saved.markdown!, new Map()).eq(typed.doc)).toBe(true);
    },
  );
});
