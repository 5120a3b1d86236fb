// The editor page's doc → operations mapping (api/editor-app/client/changes.ts, docs/editor.md § How changes map to
// operations): each case types into a document as ProseMirror does, checks the operation the page would send, and
// that the engine, applying it to the stored document, stores what was typed.
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import {
  documentOf,
  keyCommands,
  operationFor,
  operationsFor,
  pastedText,
  rebaseChange,
  rebaseOperation,
  type Operation,
} from '../../../api/editor-app/client/changes.js';
import {
  acceptSuggestion,
  applyEdit,
  emptyDocumentState,
  renderMarkdown,
  type EditMode,
} from '../../../domain/document-engine/index.js';
import { schema } from '../../../domain/document-engine/schema.js';

const edit = { mode: 'edit' as EditMode, newThreadId: () => 'unused', nextRef: () => 1 };

/** What the API stores when it applies the operations to markdown. */
function applied(markdown: string, operations: Parameters<typeof applyEdit>[1]): string {
  return renderMarkdown(
    applyEdit(
      applyEdit(emptyDocumentState(), [{ type: 'set_document', markdown }], edit).state,
      operations,
      edit,
    ).state,
  );
}

/** Opens markdown as the page does, changes it, and returns the operation and what the API then stores. */
function change(markdown: string, make: (state: EditorState) => Transaction) {
  const state = EditorState.create({ schema, doc: documentOf(schema, markdown, new Map()) });
  const changed = state.apply(make(state)).doc;
  const operation = operationFor(state.doc, changed);
  if (!operation) return { operation, changed };
  const storedMarkdown = applied(markdown, [operation]);
  return {
    operation,
    changed,
    stored: storedMarkdown,
    storedDoc: documentOf(schema, storedMarkdown, new Map()),
  };
}

/** The position right after the first occurrence of text in the document (text inside one text node). */
function after(doc: PMNode, text: string, nth = 1): number {
  let found: number | undefined;
  let seen = 0;
  doc.descendants((node, pos) => {
    if (found !== undefined || !node.isText) return found === undefined;
    let at = node.text!.indexOf(text);
    while (at !== -1 && found === undefined) {
      seen += 1;
      if (seen === nth) found = pos + at + text.length;
      at = node.text!.indexOf(text, at + 1);
    }
    return false;
  });
  return found!;
}

const typeAfter =
  (text: string, typed: string, nth = 1) =>
  (state: EditorState) =>
    state.tr.insertText(typed, after(state.doc, text, nth));

describe('what a local change sends', () => {
  it('sends nothing for a document left as it was', () => {
    const doc = documentOf(schema, '# Title\n\nSome *text*.', new Map());
    expect(operationFor(doc, doc)).toBeUndefined();
  });

  it('quotes the whole word typed into, and escapes what is typed', () => {
    const result = change('Bring a laptop.', typeAfter('laptop', '*'));
    expect(result.operation).toEqual({ type: 'replace', find: 'laptop.', with: 'laptop\\*.' });
    expect(result.stored).toBe('Bring a laptop\\*.');
  });

  it('names the occurrence the server reads as the place typed into', () => {
    const result = change('foo bar\n\nfoo baz', typeAfter('foo', 'x', 2));
    expect(result.operation).toEqual({ type: 'replace', find: 'foo', with: 'foox', occurrence: 2 });
    expect(result.stored).toBe('foo bar\n\nfoox baz');
  });

  it('finds the occurrence among many, in the markdown reading and past it in the text reading', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Item ${i} of the list`);
    const typed = change(paragraphs.join('\n\n'), typeAfter('the', 'se', 37));
    expect(typed.operation).toEqual({ type: 'replace', find: 'the', with: 'these', occurrence: 37 });
    expect(typed.stored).toBe(
      paragraphs.map((p, i) => (i === 36 ? p.replace('the', 'these') : p)).join('\n\n'),
    );
    // "*x*" reads as text only where it is written escaped; the markdown reading holds the two emphasised ones.
    const mixed = change('*x* and \\*x\\* and *x* and \\*x\\*', (state) =>
      state.tr.insertText('y', state.doc.content.size - 1),
    );
    expect(mixed.storedDoc!.eq(mixed.changed)).toBe(true);
  });

  it('keeps the formatting of the word typed into', () => {
    const result = change('A **bold** move', typeAfter('bold', 'er'));
    expect(result.operation).toEqual({ type: 'replace', find: 'bold', with: 'bolder' });
    expect(result.stored).toBe('A **bolder** move');
  });

  it('writes text typed into a code block as it is: a fence holds no markdown', () => {
    const result = change('```\na*b\n```', typeAfter('a*b', '_c'));
    expect(result.operation).toEqual({ type: 'replace', find: 'a*b', with: 'a*b_c' });
    expect(result.stored).toBe('```\na*b_c\n```');
  });

  it('sends a change beside an image, which the quote leaves out', () => {
    const result = change('![chart](a.png) grows', typeAfter('grows', 'x'));
    expect(result.operation).toEqual({ type: 'replace', find: 'grows', with: 'growsx' });
    expect(result.stored).toBe('![chart](a.png) growsx');
  });

  it('quotes the block as markdown for text typed right after a link, which takes no link', () => {
    const result = change('See [the docs](/docs)', typeAfter('the docs', '!'));
    expect(result.operation).toEqual({
      type: 'replace',
      find: 'See [the docs](/docs)',
      with: 'See [the docs](/docs)!',
    });
    expect(result.stored).toBe('See [the docs](/docs)!');
    expect(result.storedDoc!.eq(result.changed)).toBe(true);
  });

  it('leaves a change across blocks (a join) to operationsFor: one replace cannot say it', () => {
    const result = change('one\n\ntwo', (state) =>
      state.tr.delete(after(state.doc, 'one'), after(state.doc, 'one') + 2),
    );
    expect(result.changed.childCount).toBe(1);
    expect(result.operation).toBeUndefined();
  });
});

describe('what a change across blocks sends', () => {
  const keys = keyCommands(schema);
  const open = (markdown: string) =>
    EditorState.create({ schema, doc: documentOf(schema, markdown, new Map()) });

  /** Presses Enter or Backspace (the page's commands) with the caret at `at`. */
  function press(state: EditorState, at: number, key: 'Enter' | 'Backspace'): EditorState {
    let pressed = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at)));
    keys[key](pressed, (tr) => (pressed = pressed.apply(tr)));
    return pressed;
  }

  /** What an editor's operations store, and a commenter's: the suggestions as stored, and once all are accepted. */
  function sent(markdown: string, changed: PMNode) {
    const before = documentOf(schema, markdown, new Map());
    const edit = operationsFor(before, changed, new Map(), 'edit');
    const suggest = operationsFor(before, changed, new Map(), 'suggest');
    const stored = (operations: Operation[]) => applied(markdown, operations);
    let ref = 0;
    const suggested =
      suggest &&
      applyEdit(
        applyEdit(emptyDocumentState(), [{ type: 'set_document', markdown }], {
          mode: 'edit',
          newThreadId: () => 'unused',
          nextRef: () => 1,
        }).state,
        suggest,
        { mode: 'suggest', newThreadId: () => `thread-${(ref += 1)}`, nextRef: () => ref },
      );
    let accepted = suggested?.state;
    for (const id of suggested?.suggestionThreadIds ?? []) accepted = acceptSuggestion(accepted!, id);
    return {
      edit,
      suggest,
      stored: edit && edit.length > 0 ? stored(edit) : undefined,
      suggestions: suggested && renderMarkdown(suggested.state),
      accepted: accepted && renderMarkdown(accepted),
    };
  }

  it('sends Enter in a paragraph as the new paragraph inserted after it and its tail replaced', () => {
    const page = open('Bring a laptop and a bag.');
    const result = sent(page.doc.textContent, press(page, after(page.doc, 'laptop'), 'Enter').doc);
    expect(result.edit).toEqual([
      { type: 'insert', markdown: 'and a bag.', after: 'bag.' },
      { type: 'replace', find: 'laptop and a bag.', with: 'laptop' },
    ]);
    expect(result.stored).toBe('Bring a laptop\n\nand a bag.');
    // A commenter sends the same: a suggested new paragraph and the tail suggested away; accepted, the same text.
    expect(result.suggest).toEqual(result.edit);
    expect(result.suggestions).toBe(
      'Bring a {~~laptop and a bag.~>laptop~~}{>>s2<<}\n\n{++¶++}{>>s1<<}{++and a bag.++}{>>s1<<}',
    );
    expect(result.accepted).toBe(result.stored);
  });

  it('sends nothing for Enter at the end of a paragraph (an empty paragraph), and the text typed after it', () => {
    const page = open('One.\n\nTwo.');
    const entered = press(page, after(page.doc, 'One.'), 'Enter');
    expect(operationsFor(page.doc, entered.doc)).toEqual([]);
    const typed = entered.apply(entered.tr.insertText('New'));
    const result = sent('One.\n\nTwo.', typed.doc);
    expect(result.edit).toEqual([{ type: 'insert', markdown: 'New', after: 'One.' }]);
    expect(result.stored).toBe('One.\n\nNew\n\nTwo.');
    expect(result.accepted).toBe(result.stored);
  });

  it('sends Backspace at a paragraph start as that paragraph deleted and its text added to the one before', () => {
    const page = open('One and\n\ntwo.\n\nthree.');
    const result = sent(
      'One and\n\ntwo.\n\nthree.',
      press(page, after(page.doc, 'two.') - 4, 'Backspace').doc,
    );
    expect(result.edit).toEqual([
      { type: 'delete', find: 'two.' },
      { type: 'replace', find: 'and', with: 'andtwo.' },
    ]);
    expect(result.stored).toBe('One andtwo.\n\nthree.');
    expect(result.suggestions).toBe(
      'One {~~and~>andtwo.~~}{>>s2<<}\n\n{--¶--}{>>s1<<}{--two.--}{>>s1<<}\n\nthree.',
    );
    expect(result.accepted).toBe(result.stored);
  });

  it('counts occurrences on the document the operations before leave', () => {
    // After the delete, "two" is found once more in "onetwo": the join's quotes still name the right place.
    const page = open('one\n\ntwo\n\ntwo');
    const result = sent('one\n\ntwo\n\ntwo', press(page, after(page.doc, 'two') - 3, 'Backspace').doc);
    expect(result.edit).toEqual([
      { type: 'delete', find: 'two', occurrence: 1 },
      { type: 'replace', find: 'one', with: 'onetwo' },
    ]);
    expect(result.stored).toBe('onetwo\n\ntwo');
    expect(result.accepted).toBe(result.stored);
  });

  it('sends a paste of two paragraphs into a paragraph', () => {
    const page = open('Bring a laptop.\n\nAnd a bag.');
    const at = after(page.doc, 'laptop');
    const pasted = page.apply(
      page.tr
        .setSelection(TextSelection.create(page.doc, at))
        .replaceSelection(pastedText(schema, 'one\n\ntwo')),
    );
    const result = sent('Bring a laptop.\n\nAnd a bag.', pasted.doc);
    expect(result.stored).toBe('Bring a laptopone\n\ntwo.\n\nAnd a bag.');
    expect(result.accepted).toBe(result.stored);
  });

  it('makes a new item for Enter in a list item', () => {
    const page = open('- milk and bread\n- eggs');
    const result = sent('- milk and bread\n- eggs', press(page, after(page.doc, 'milk'), 'Enter').doc);
    expect(result.edit).toEqual([
      { type: 'insert', markdown: '- and bread', after: 'bread' },
      { type: 'replace', find: 'milk and bread', with: 'milk' },
    ]);
    expect(result.stored).toBe('- milk\n- and bread\n- eggs');
    expect(result.accepted).toBe(result.stored);
  });

  it('sends a split in a block quote as the quote deleted and inserted anew: an insert lands after the quote', () => {
    const page = open('> one two\n\nafter');
    const result = sent('> one two\n\nafter', press(page, after(page.doc, 'one'), 'Enter').doc);
    expect(result.edit).toEqual([
      { type: 'delete', find: 'one two' },
      { type: 'insert', markdown: '> one\n>\n> two', before: 'start' },
    ]);
    expect(result.stored).toBe('> one\n>\n> two\n\nafter');
    expect(result.accepted).toBe(result.stored);
  });

  it('sends the whole document for an editor when no quote says the change, and refuses it for a commenter', () => {
    // An empty code block holds no text to quote.
    const page = open('```\n```\n\nnext');
    const typed = page.apply(page.tr.insertText('x', 1));
    const result = sent('```\n```\n\nnext', typed.doc);
    expect(result.edit).toEqual([{ type: 'set_document', markdown: '```\nx\n```\n\nnext' }]);
    expect(result.stored).toBe('```\nx\n```\n\nnext');
    expect(result.suggest).toBeUndefined();
  });

  it('carries a change across blocks onto a document another edit changed elsewhere, not on the same blocks', () => {
    const markdown = 'One two.\n\nMiddle.\n\nLast.';
    const page = open(markdown);
    const local = press(page, after(page.doc, 'One'), 'Enter').doc;
    const current = documentOf(schema, 'One two.\n\nMiddle.\n\nLast one.', new Map());
    const moved = rebaseChange(page.doc, local, current)!;
    const operations = operationsFor(current, moved)!;
    expect(applied('One two.\n\nMiddle.\n\nLast one.', operations)).toBe(
      'One\n\ntwo.\n\nMiddle.\n\nLast one.',
    );
    // Another edit before it shifts its blocks: they are found where they now are.
    const earlier = documentOf(schema, 'Zero.\n\nOne two.\n\nMiddle.\n\nLast.', new Map());
    expect(
      applied(
        'Zero.\n\nOne two.\n\nMiddle.\n\nLast.',
        operationsFor(earlier, rebaseChange(page.doc, local, earlier)!)!,
      ),
    ).toBe('Zero.\n\nOne\n\ntwo.\n\nMiddle.\n\nLast.');
    const same = documentOf(schema, 'One two three.\n\nMiddle.\n\nLast.', new Map());
    expect(rebaseChange(page.doc, local, same)).toBeUndefined();
  });
});

describe('what a change sends again after a 409', () => {
  /** Types into `markdown` as the page does, then works the operation out again for the server's `current` text. */
  function resent(markdown: string, current: string, make: (state: EditorState) => Transaction) {
    const { operation } = change(markdown, make);
    const rebased = rebaseOperation(
      operation!,
      documentOf(schema, markdown, new Map()),
      new Map(),
      documentOf(schema, current, new Map()),
      new Map(),
    );
    return { operation: operation!, rebased, stored: rebased && applied(current, [rebased]) };
  }

  it('counts the occurrence anew when the other edit added an earlier copy of the quote', () => {
    const result = resent('foo bar\n\nfoo baz', 'foo qux\n\nfoo bar\n\nfoo baz', typeAfter('foo', 'x', 2));
    expect(result.operation).toEqual({ type: 'replace', find: 'foo', with: 'foox', occurrence: 2 });
    expect(result.rebased).toEqual({ type: 'replace', find: 'foo', with: 'foox', occurrence: 3 });
    expect(result.stored).toBe('foo qux\n\nfoo bar\n\nfoox baz');
  });

  it('counts the occurrence anew when the other edit added a copy earlier in the same paragraph', () => {
    const result = resent('Bring a laptop.', 'Bring a laptop bag and a laptop.', typeAfter('laptop', 's'));
    expect(result.operation).toEqual({ type: 'replace', find: 'laptop.', with: 'laptops.' });
    // The new words hold a copy of "laptop" but not of the quote: the quote's place is still its one copy.
    expect(result.rebased).toEqual({ type: 'replace', find: 'laptop.', with: 'laptops.' });
    expect(result.stored).toBe('Bring a laptop bag and a laptops.');
    const twice = resent('Bring a laptop.', 'Bring a laptop. Also a laptop.', typeAfter('laptop', 's'));
    expect(twice.rebased).toEqual({ type: 'replace', find: 'laptop.', with: 'laptops.', occurrence: 1 });
    expect(twice.stored).toBe('Bring a laptops. Also a laptop.');
    const earlier = resent('Bring a laptop.', 'Take a laptop. Bring a laptop.', typeAfter('laptop', 's'));
    expect(earlier.rebased).toEqual({ type: 'replace', find: 'laptop.', with: 'laptops.', occurrence: 2 });
    expect(earlier.stored).toBe('Take a laptop. Bring a laptops.');
  });

  it('drops the occurrence when the other edit removed the earlier copy', () => {
    const result = resent('foo bar\n\nfoo baz', 'bar\n\nfoo baz', typeAfter('foo', 'x', 2));
    expect(result.rebased).toEqual({ type: 'replace', find: 'foo', with: 'foox' });
    expect(result.stored).toBe('bar\n\nfoox baz');
  });

  it('keeps the occurrence when the other edit is after the quote', () => {
    const result = resent('foo bar\n\nfoo baz', 'foo bar\n\nfoo baz\n\nfoo qux', typeAfter('foo', 'x', 2));
    expect(result.rebased).toEqual({ type: 'replace', find: 'foo', with: 'foox', occurrence: 2 });
    expect(result.stored).toBe('foo bar\n\nfoox baz\n\nfoo qux');
  });

  it('sends nothing when the other edit changed the quoted text, even with a copy of it elsewhere', () => {
    const result = resent('foo bar\n\nfoo baz', 'foo bar\n\nfob baz', typeAfter('foo', 'x', 2));
    expect(result.rebased).toBeUndefined();
  });
});
