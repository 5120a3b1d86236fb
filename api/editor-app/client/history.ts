// The editor page's history (docs/editor.md § History), for editors only: the page renders its containers for them
// alone, and the endpoints refuse anyone else. The revisions listed newest first, one opened read-only in place of the
// editor (rendered by the server, as the page's first view of the document is), and restored with the API's restore.
import { element } from './dom.js';

interface Person {
  first_name: string | null;
  last_name: string | null;
}
interface RevisionEntry {
  revision: number;
  created_at: string;
  author: Person | null;
  cause: string;
  restored_from: number | null;
}
interface RevisionList {
  data: RevisionEntry[];
  has_more: boolean;
  next_cursor: string | null;
}

/** What the editor hands the panel: where the document's endpoints are, and how it shows the document and news. */
interface HistoryHost<Content> {
  base: string;
  uuid: string;
  csrf: string;
  say: (text: string, kind?: 'info' | 'error') => void;
  /** Shows the document as the restore answered it (the live event then finds the page up to date). */
  showContent: (content: Content) => void;
}

interface HistoryPanel {
  /** The document changed (the live channel): an open list reads the revisions again. */
  documentChanged: () => void;
}

const CAUSES: Record<string, string> = {
  create: 'Created',
  edit: 'Edited',
  suggest: 'Suggested',
  accept: 'Suggestion accepted',
  reject: 'Suggestion rejected',
  remove_suggestion: 'Suggestion removed',
  restore: 'Restored',
};

const nameOf = (person: Person | null) =>
  (person && [person.first_name, person.last_name].filter(Boolean).join(' ')) || 'Someone';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const describe = (entry: RevisionEntry) =>
  `${CAUSES[entry.cause] ?? entry.cause}${entry.restored_from !== null ? ` revision ${entry.restored_from}` : ''} · ${nameOf(entry.author)} · ${when(entry.created_at)}`;

/** Sets up the panel when the page has its containers (an editor's page), else does nothing. */
export function setUpHistory<Content>(host: HistoryHost<Content>): HistoryPanel | undefined {
  const panel = document.getElementById('history');
  const revisionView = document.getElementById('revision-view');
  const editor = document.getElementById('document');
  if (!panel || !revisionView || !editor) return undefined;
  const path = `${host.base}/${host.uuid}/revisions`;

  async function read<T>(url: string): Promise<T> {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error_description ?? `History answered ${response.status}.`);
    return body as T;
  }

  const list = element('ol', { class: 'revisions' });
  const more = element('button', { class: 'button', type: 'button', hidden: '' }, 'Older revisions');
  const toggle = element(
    'button',
    { class: 'button', type: 'button', 'aria-expanded': 'false' },
    'Show history',
  );
  const body = element('div', { class: 'history-body', hidden: '' }, list, more);
  panel.append(toggle, body);
  let open = false;
  let nextCursor: string | null = null;
  /** The revision shown read-only, if any. */
  let shown: number | undefined;

  const entryOf = (entry: RevisionEntry) => {
    const button = element(
      'button',
      { class: 'link', type: 'button', 'data-revision': String(entry.revision) },
      `Revision ${entry.revision}`,
    );
    button.addEventListener('click', () => void openRevision(entry.revision));
    return element(
      'li',
      { class: entry.revision === shown ? 'current' : '' },
      button,
      element('span', { class: 'muted small' }, ` ${describe(entry)}`),
    );
  };

  async function loadList(cursor?: string) {
    const page = await read<RevisionList>(cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);
    if (!cursor) list.replaceChildren();
    list.append(...page.data.map(entryOf));
    nextCursor = page.next_cursor;
    more.hidden = !page.has_more;
  }

  const failed = (error: unknown) =>
    host.say(error instanceof Error ? error.message : String(error), 'error');

  toggle.addEventListener('click', () => {
    open = !open;
    body.hidden = !open;
    toggle.textContent = open ? 'Hide history' : 'Show history';
    toggle.setAttribute('aria-expanded', String(open));
    if (open) void loadList().catch(failed);
  });
  more.addEventListener('click', () => void (nextCursor && loadList(nextCursor).catch(failed)));

  function closeRevision() {
    shown = undefined;
    revisionView!.hidden = true;
    revisionView!.replaceChildren();
    editor!.hidden = false;
  }

  async function openRevision(revision: number) {
    let answer: RevisionEntry & { html: string };
    try {
      answer = await read(`${path}/${revision}`);
    } catch (error) {
      failed(error);
      return;
    }
    shown = revision;
    // The server's rendering of the revision (the export's renderer: no raw HTML passes), shown, never editable.
    const text = element('article', { class: 'document revision-text' });
    text.innerHTML = answer.html;
    const restore = element('button', { class: 'button primary', type: 'button' }, 'Restore this version');
    const back = element('button', { class: 'button', type: 'button' }, 'Back to the document');
    restore.addEventListener('click', () => void restoreRevision(revision, restore));
    back.addEventListener('click', closeRevision);
    revisionView!.replaceChildren(
      element(
        'div',
        { class: 'revision-banner' },
        element('p', {}, element('strong', {}, `Revision ${revision}`), ` (read-only) · ${describe(answer)}`),
        element('div', { class: 'actions' }, restore, back),
      ),
      text,
    );
    editor!.hidden = true;
    revisionView!.hidden = false;
  }

  async function restoreRevision(revision: number, button: HTMLButtonElement) {
    button.disabled = true;
    const response = await fetch(`${path}/${revision}/restore`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': host.csrf },
      body: '{}',
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      button.disabled = false;
      host.say(answer.error_description ?? `The restore was refused (${response.status}).`, 'error');
      return;
    }
    closeRevision();
    host.showContent(answer as Content);
    host.say(`Restored revision ${revision}.`);
    if (open) await loadList().catch(failed);
  }

  return {
    documentChanged: () => {
      if (open) void loadList().catch(failed);
    },
  };
}
