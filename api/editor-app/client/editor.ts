// The editor page's script (docs/editor.md), bundled by esbuild (api/editor-app/assets.ts): a ProseMirror view of the
// document on the engine's own schema and markdown reader, each local change sent as one quoted operation with
// base_revision, suggestions and comment threads in the margin, and the live channel followed.
import {
  Node as PMNode,
  Schema,
  type DOMOutputSpec,
  type Mark,
  type MarkSpec,
  type NodeSpec,
} from 'prosemirror-model';
import { baseKeymap } from 'prosemirror-commands';
import { keymap } from 'prosemirror-keymap';
import { EditorState, type Transaction } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { schema as engineSchema } from '../../../domain/document-engine/schema.js';
import {
  documentOf,
  keyCommands,
  operationsFor,
  pastedText,
  rebaseChange,
  rebaseOperation,
  refsOf,
  type Operation,
} from './changes.js';
import { element } from './dom.js';
import { setUpHistory } from './history.js';

interface Thread {
  uuid: string;
  kind: 'comment' | 'suggestion';
  /** `s<n>`, as the markdown names it after the CriticMarkup. */
  ref: string | null;
  status: string;
  placement: 'attached' | 'document' | 'detached';
  quote: string | null;
  author: { first_name: string | null; last_name: string | null };
  messages: { uuid: string; body: string; author: { first_name: string | null; last_name: string | null } }[];
}
interface Content {
  revision: number;
  markdown: string;
  threads: Thread[];
  role?: string;
}

const page = document.querySelector<HTMLElement>('.document-page')!;
const base = page.dataset.base!;
const uuid = page.dataset.document!;
const role = page.dataset.role!;
const csrf = page.dataset.csrf!;
const canEdit = role === 'editor' || role === 'manager' || role === 'owner';
const canComment = canEdit || role === 'commenter';

// --- The schema: the engine's nodes and marks, each with how it shows in the page ---------------------------------

const blockClass = (node: PMNode) =>
  node.attrs.suggestion ? { class: `suggest-block suggest-block-${node.attrs.suggestion.kind}` } : {};
const safeHref = (href: string) => (/^(https?:|mailto:|#)/i.test(href) ? href : null);

const NODE_DOM: Record<string, (node: PMNode) => DOMOutputSpec> = {
  doc: () => ['div', 0],
  paragraph: (node) => ['p', blockClass(node), 0],
  heading: (node) => [`h${Math.min(6, Math.max(1, node.attrs.level))}`, blockClass(node), 0],
  blockquote: () => ['blockquote', 0],
  bullet_list: () => ['ul', 0],
  ordered_list: (node) => ['ol', { start: String(node.attrs.order) }, 0],
  list_item: () => ['li', 0],
  code_block: (node) => ['pre', blockClass(node), ['code', 0]],
  horizontal_rule: (node) => ['hr', blockClass(node)],
  hard_break: () => ['br'],
  image: (node) => ['span', { class: 'image', title: node.attrs.src }, `[${node.attrs.alt || 'image'}]`],
  empty_link: (node) => ['span', { class: 'empty-link', title: node.attrs.href }, '[link]'],
};
const MARK_DOM: Record<string, (mark: Mark) => DOMOutputSpec> = {
  suggest_insert: (mark) => ['ins', { 'data-thread': mark.attrs.thread }, 0],
  suggest_delete: (mark) => ['del', { 'data-thread': mark.attrs.thread }, 0],
  suggest_format: (mark) => ['span', { class: 'suggest-format', 'data-thread': mark.attrs.thread }, 0],
  comment: (mark) => ['span', { class: 'commented', 'data-thread': mark.attrs.thread }, 0],
  link: (mark) => ['a', { href: safeHref(mark.attrs.href), title: mark.attrs.title }, 0],
  underline: () => ['u', 0],
  text_color: (mark) => ['span', { class: `color-${mark.attrs.color}` }, 0],
  highlight: (mark) => ['mark', { class: `highlight-${mark.attrs.color}` }, 0],
  strong: () => ['strong', 0],
  em: () => ['em', 0],
  strikethrough: () => ['s', 0],
  code: () => ['code', 0],
};

const nodes: Record<string, NodeSpec> = {};
engineSchema.spec.nodes.forEach((name, spec) => {
  nodes[name] = NODE_DOM[name] ? { ...spec, toDOM: NODE_DOM[name] } : spec;
});
const marks: Record<string, MarkSpec> = {};
engineSchema.spec.marks.forEach((name, spec) => {
  marks[name] = MARK_DOM[name] ? { ...spec, toDOM: MARK_DOM[name] } : { ...spec, toDOM: () => ['span', 0] };
});
const schema = new Schema({ nodes, marks });

/** The document as the engine reads it, in the page's schema; CriticMarkup is read back into its threads' marks. */
function docOf(content: Content): PMNode {
  return documentOf(schema, content.markdown, refsOf(content.threads));
}

// --- The server ---------------------------------------------------------------------------------------------------

/** An answer of the server: a content view, a thread, or an error with the spec's code. */
interface Answer {
  status: number;
  body: Partial<Content> & { error?: string; error_description?: string; current?: Content };
}

async function send(path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${base}/${uuid}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

async function load(): Promise<Content> {
  const response = await fetch(`${base}/${uuid}/content`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`the document answered ${response.status}`);
  return (await response.json()) as Content;
}

// --- The editor ---------------------------------------------------------------------------------------------------

const status = document.getElementById('status')!;
const say = (text: string, kind: 'info' | 'error' = 'info') => {
  status.textContent = text;
  status.dataset.kind = kind;
};

let synced: Content;
/** The document as the server last sent it: local changes are the difference from it. */
let syncedDoc: PMNode;
let busy = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let view: EditorView;

const plugins = [keymap(keyCommands(schema)), keymap(baseKeymap)];
const stateOf = (doc: PMNode) => EditorState.create({ schema, doc, plugins });

function show(content: Content) {
  synced = content;
  syncedDoc = docOf(content);
  // The page's own change, as the server now has it: the caret stays where the person is typing.
  if (!view.state.doc.eq(syncedDoc)) view.updateState(stateOf(syncedDoc));
  page.dataset.revision = String(content.revision);
  renderThreads(content.threads);
}

function dispatch(tr: Transaction) {
  view.updateState(view.state.apply(tr));
  if (tr.docChanged) {
    clearTimeout(timer);
    // One operation per pause in typing, not per keystroke.
    timer = setTimeout(() => void flush(), 300);
  }
}

const mode = canEdit ? 'edit' : 'suggest';

/**
 * A 409's reapplication: one replace with its quote counted anew on `current`; a change across blocks put in place
 * of the same top-level blocks of `current` and worked out again. Undefined when the other edit touched it.
 */
function rebased(operations: Operation[], local: PMNode, current: Content): Operation[] | undefined {
  const currentDoc = docOf(current);
  const currentRefs = refsOf(current.threads);
  const [only] = operations;
  if (operations.length === 1 && only!.type === 'replace') {
    const operation = rebaseOperation(only!, syncedDoc, refsOf(synced.threads), currentDoc, currentRefs);
    return operation && [operation];
  }
  const moved = rebaseChange(syncedDoc, local, currentDoc);
  const again = moved && operationsFor(currentDoc, moved, currentRefs, mode);
  return again?.length ? again : undefined;
}

async function flush(): Promise<void> {
  if (busy) return;
  const local = view.state.doc;
  const operations = operationsFor(syncedDoc, local, refsOf(synced.threads), mode);
  if (!operations) {
    say(
      canEdit
        ? 'That change could not be saved: the document is back as it was.'
        : 'That change cannot be made as a suggestion (an editor can make it): the document is back as it was.',
      'error',
    );
    show(synced);
    return;
  }
  // Nothing the server would store differently yet (a new empty paragraph): it goes with the next change.
  if (operations.length === 0) return;
  busy = true;
  // A read-only view loses the focus: the person typing gets it back, with the caret, once the answer is in.
  const focused = view.hasFocus();
  view.setProps({ editable: () => false });
  say(canEdit ? 'Saving…' : 'Suggesting…');
  try {
    let answer = await send('/content', { operations, base_revision: synced.revision });
    if (answer.status === 409 && answer.body.error === 'conflict') {
      // Someone else changed the document first: reapply on what it is now, if the changed place still reads the same.
      const current = answer.body.current!;
      const again = rebased(operations, local, current);
      if (again) answer = await send('/content', { operations: again, base_revision: current.revision });
      else {
        show(await load());
        say('Someone changed that text first; your change was not applied.', 'error');
        return;
      }
    }
    if (answer.status >= 400) {
      show(await load());
      say(answer.body.error_description ?? `The change was refused (${answer.status}).`, 'error');
      return;
    }
    show(await load());
    say(canEdit ? 'Saved.' : 'Suggested.');
  } finally {
    busy = false;
    view.setProps({ editable: () => canComment });
    if (focused) view.focus();
  }
}

// --- The margin -----------------------------------------------------------------------------------------------------

const margin = document.getElementById('threads')!;
const nameOf = (person: Thread['author']) =>
  [person.first_name, person.last_name].filter(Boolean).join(' ') || 'Someone';

async function act(path: string, body: unknown) {
  const answer = await send(path, body);
  if (answer.status >= 400) say(answer.body.error_description ?? `Refused (${answer.status}).`, 'error');
  show(await load());
}

function threadCard(thread: Thread): HTMLElement {
  const card = element('li', { class: `thread ${thread.kind}`, 'data-thread': thread.uuid });
  const label = thread.kind === 'suggestion' ? `Suggestion ${thread.ref}` : 'Comment';
  card.append(
    element(
      'p',
      { class: 'thread-kind' },
      `${label}${thread.placement === 'detached' ? ' · detached' : ''} · ${nameOf(thread.author)}`,
    ),
  );
  if (thread.quote) card.append(element('blockquote', { class: 'anchor' }, thread.quote));
  const messages = element('ol', { class: 'messages' });
  for (const message of thread.messages)
    messages.append(
      element('li', {}, element('span', { class: 'author' }, nameOf(message.author)), ' ', message.body),
    );
  card.append(messages);
  if (thread.kind === 'suggestion' && canEdit) {
    const accept = element('button', { class: 'button primary', type: 'button' }, 'Accept');
    const reject = element('button', { class: 'button', type: 'button' }, 'Reject');
    accept.addEventListener('click', () => void act(`/suggestions/${thread.uuid}/accept`, {}));
    reject.addEventListener('click', () => void act(`/suggestions/${thread.uuid}/reject`, {}));
    card.append(element('div', { class: 'actions' }, accept, reject));
  }
  if (thread.kind === 'comment' && canComment) {
    const input = element('input', {
      type: 'text',
      name: 'reply',
      placeholder: 'Reply',
      'aria-label': 'Reply',
    });
    const form = element('form', { class: 'reply' }, input);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (input.value.trim()) void act('/comments', { thread: thread.uuid, body: input.value });
    });
    card.append(form);
  }
  return card;
}

function renderThreads(threads: Thread[]) {
  const open = threads.filter((thread) => thread.status === 'open');
  const anchored = open.filter((thread) => thread.placement !== 'detached');
  const detached = open.filter((thread) => thread.placement === 'detached');
  margin.replaceChildren(
    anchored.length
      ? element('ol', { class: 'threads' }, ...anchored.map(threadCard))
      : element('p', { class: 'muted' }, 'No open threads.'),
    ...(detached.length
      ? [
          element('h3', {}, 'Detached'),
          element('ol', { class: 'threads detached' }, ...detached.map(threadCard)),
        ]
      : []),
  );
}

function commentForm(): HTMLElement {
  const input = element('input', {
    type: 'text',
    name: 'comment',
    placeholder: 'Comment on the selected text',
    'aria-label': 'Comment',
  });
  const form = element(
    'form',
    { class: 'new-comment' },
    input,
    element('button', { class: 'button', type: 'submit' }, 'Comment'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const { from, to } = view.state.selection;
    const on = view.state.doc.textBetween(from, to, '\n');
    if (input.value.trim()) void act('/comments', { body: input.value, ...(on ? { on } : {}) });
    input.value = '';
  });
  return form;
}

// --- Start --------------------------------------------------------------------------------------------------------

async function start() {
  const article = document.getElementById('document')!;
  const content = await load();
  article.replaceChildren();
  view = new EditorView(article, {
    state: stateOf(docOf(content)),
    editable: () => canComment,
    dispatchTransaction: dispatch,
    // The schema has no rules to read HTML back, so a paste is read as its plain text: a paragraph a line.
    handlePaste: (pasting, event) => {
      const text = event.clipboardData?.getData('text/plain');
      if (!text) return false;
      pasting.dispatch(pasting.state.tr.replaceSelection(pastedText(schema, text)).scrollIntoView());
      return true;
    },
  });
  show(content);
  if (canComment) document.getElementById('margin-tools')!.append(commentForm());
  const history = setUpHistory<Content>({ base, uuid, csrf, say, showContent: show });
  page.dataset.ready = 'true';
  // Follow the live channel: read the document again on each change, unless a local change is on its way.
  const events = new EventSource(`${base}/${uuid}/events`);
  // A refused stream (past the per-person cap of live streams, or the session gone) is not retried by the browser.
  events.addEventListener('error', () => {
    if (events.readyState === EventSource.CLOSED)
      say(
        'Live updates stopped: you may have too many documents open at once. Close some, then reload this page.',
        'error',
      );
  });
  events.addEventListener('change', () => {
    history?.documentChanged();
    if (busy || (timer !== undefined && !view.state.doc.eq(syncedDoc))) return;
    void load().then((fresh) => {
      if (!busy && view.state.doc.eq(syncedDoc)) show(fresh);
    });
  });
}

void start().catch((error: unknown) => say(String(error), 'error'));
