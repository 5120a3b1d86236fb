// The editor page's doc → operations mapping (api/editor-app/client/changes.ts, docs/editor.md § How changes map to
// operations): each case types into a document as ProseMirror does, checks the operation the page would send, and
// that the engine, applying it to the stored document, stores what was typed.
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, type Transaction } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { documentOf, operationFor, rebaseOperation } from '../../../api/editor-app/client/changes.js';
import {
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

  it('sends nothing for a change across blocks (a join), which the page does not send yet', () => {
    const result = change('one\n\ntwo', (state) =>
      state.tr.delete(after(state.doc, 'one'), after(state.doc, 'one') + 2),
    );
    expect(result.changed.childCount).toBe(1);
    expect(result.operation).toBeUndefined();
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
