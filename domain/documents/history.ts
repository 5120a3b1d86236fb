// A document's history (an extension, docs/extensions.md § Documents history): the revisions newest first with a
// summary of what each changed, the markdown at one revision, and restoring one as a new revision. Built on the
// revision log (revision-log.ts), which already keeps every revision readable.
import type { Knex } from 'knex';
import {
  emptyDocumentState,
  parseOperations,
  renderMarkdown,
  type DocumentState,
} from '../document-engine/index.js';
import { resolveSuggestions } from '../document-engine/resolve.js';
import type { Caller } from '../caller.js';
import { lockForChange, writeOperations, type ContentPresenter, type WriteResponse } from './content.js';
import type { DocumentsDeps } from './deps.js';
import { findVisibleDocument } from './documents.js';
import { invalidCursor, revisionNotFound } from './errors.js';
import { diffStates, readRevisionState, type RevisionStep, type StateDiff } from './revision-log.js';
import type { Person } from './threads.js';

/** Reading history shows text that was deleted before someone was shared the document: it needs the editor role. */
const HISTORY_ROLE = 'editor';

/** How many top-level blocks (paragraphs, headings, lists, …) a revision changed in place, added and removed. */
interface RevisionSummary {
  blocks_changed: number;
  blocks_added: number;
  blocks_removed: number;
}

export interface RevisionView {
  revision: number;
  createdAt: Date;
  /** null once the author's account is gone. */
  author: Person | null;
  /** create, edit, suggest, accept, reject, remove_suggestion, restore. */
  cause: string;
  restoredFrom: number | null;
  summary: RevisionSummary;
}

export interface RevisionPage {
  revisions: RevisionView[];
  hasMore: boolean;
  nextCursor: string | null;
}

interface LogRow {
  revision: number;
  cause: string;
  restored_from: number | null;
  created_at: Date;
  author_uuid: string | null;
  author_first_name: string | null;
  author_last_name: string | null;
  snapshot: boolean;
  first_step: RevisionStep | null;
}

const NO_CHANGE: RevisionSummary = { blocks_changed: 0, blocks_added: 0, blocks_removed: 0 };

/** Counts a block diff: the part of each splice that replaces blocks is "changed", the rest added or removed. */
function summarize(diff: StateDiff): RevisionSummary {
  const summary = { ...NO_CHANGE };
  for (const splice of diff.blocks ?? []) {
    const changed = Math.min(splice.remove, splice.insert.length);
    summary.blocks_changed += changed;
    summary.blocks_added += splice.insert.length - changed;
    summary.blocks_removed += splice.remove - changed;
  }
  return summary;
}

/**
 * What revision r changed. A diff row's first step is the revision's own diff (later steps are comment anchors made
 * while it was current); a snapshot row, or a whole-state step, is compared with revision r - 1 as it last stood.
 */
async function summaryOf(knex: Knex, documentUuid: string, row: LogRow): Promise<RevisionSummary> {
  // Revision 1 is the document as created, compared with an empty one.
  if (row.revision === 1)
    return summarize(diffStates(emptyDocumentState(), (await readRevisionState(knex, documentUuid, 1))!));
  if (!row.snapshot && row.first_step && !('state' in row.first_step)) return summarize(row.first_step);
  const previous = (await readRevisionState(knex, documentUuid, row.revision - 1))!;
  const own = row.snapshot
    ? ((
        await knex('document_revisions')
          .where({ document_uuid: documentUuid, revision: row.revision })
          .first('state')
      ).state as DocumentState)
    : (row.first_step as { state: DocumentState }).state;
  return summarize(diffStates(previous, own));
}

function logRows(knex: Knex, documentUuid: string) {
  return knex('document_revisions as r')
    .leftJoin('users as a', 'a.uuid', 'r.author_uuid')
    .where('r.document_uuid', documentUuid)
    .select(
      'r.revision',
      'r.cause',
      'r.restored_from',
      'r.created_at',
      'r.author_uuid',
      'a.first_name as author_first_name',
      'a.last_name as author_last_name',
      knex.raw('r.state is not null as snapshot'),
      // Only the first step: later ones are comment anchors, and a row may hold many.
      knex.raw('r.delta -> 0 as first_step'),
    );
}

async function viewOf(knex: Knex, documentUuid: string, row: LogRow): Promise<RevisionView> {
  return {
    revision: row.revision,
    createdAt: row.created_at,
    author: row.author_uuid
      ? { uuid: row.author_uuid, first_name: row.author_first_name, last_name: row.author_last_name }
      : null,
    cause: row.cause,
    restoredFrom: row.restored_from,
    summary: await summaryOf(knex, documentUuid, row),
  };
}

/** The cursor of a page is the revision its last entry holds; the next page starts below it. */
const encodeCursor = (revision: number) => Buffer.from(`r${revision}`).toString('base64url');
export function decodeCursor(cursor: string): number {
  const match = /^r([1-9]\d{0,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidCursor();
  return Number(match[1]);
}

/** The revisions of a document, newest first, `limit` a page. */
export async function listRevisions(
  knex: Knex,
  deps: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  documentUuid: string,
  page: { limit: number; cursor?: string },
): Promise<RevisionPage> {
  const below = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  return knex.transaction(
    async (tx) => {
      const document = await findVisibleDocument(tx, deps, caller, documentUuid, {
        needs: HISTORY_ROLE,
        action: "Reading a document's history",
      });
      const query = logRows(tx, document.uuid)
        .orderBy('r.revision', 'desc')
        .limit(page.limit + 1);
      if (below !== undefined) query.where('r.revision', '<', below);
      const rows = (await query) as LogRow[];
      const hasMore = rows.length > page.limit;
      const shown = rows.slice(0, page.limit);
      const revisions: RevisionView[] = [];
      for (const row of shown) revisions.push(await viewOf(tx, document.uuid, row));
      return {
        revisions,
        hasMore,
        nextCursor: hasMore ? encodeCursor(shown[shown.length - 1]!.revision) : null,
      };
    },
    // One snapshot of the log for the whole page.
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/** One revision with the markdown the document had at it (as it last stood then: CriticMarkup of its open suggestions). */
export async function readRevision(
  knex: Knex,
  deps: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  documentUuid: string,
  revision: number,
): Promise<RevisionView & { markdown: string }> {
  return knex.transaction(
    async (tx) => {
      const document = await findVisibleDocument(tx, deps, caller, documentUuid, {
        needs: HISTORY_ROLE,
        action: "Reading a document's history",
      });
      const row = (await logRows(tx, document.uuid).where('r.revision', revision).first()) as
        LogRow | undefined;
      if (!row) throw revisionNotFound(revision);
      const state = (await readRevisionState(tx, document.uuid, revision))!;
      return { ...(await viewOf(tx, document.uuid, row)), markdown: renderMarkdown(state) };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/**
 * Makes a new revision whose text is revision `revision`'s (editor). The text restored is that revision's without
 * the suggestions still pending at it (their threads have been decided since, or still stand on their own): it is
 * written with set_document, so blocks equal to the current ones keep their comments, a comment whose text is gone
 * becomes detached, and a current suggestion whose text is replaced loses its marks (detached, still open). Restoring
 * the text the document already has adds no revision, as a set_document of the same markdown.
 */
export async function restoreRevision(
  tx: Knex.Transaction,
  deps: DocumentsDeps,
  caller: Caller,
  documentUuid: string,
  revision: number,
  present: ContentPresenter,
): Promise<WriteResponse> {
  const document = await lockForChange(tx, deps, caller, documentUuid, {
    needs: HISTORY_ROLE,
    action: 'Restoring a revision',
  });
  const state = await readRevisionState(tx, document.uuid, revision);
  if (!state) throw revisionNotFound(revision);
  const markdown = renderMarkdown(resolveSuggestions(state, 'reject'));
  const operations = parseOperations([{ type: 'set_document', markdown }], 'edit');
  const answer = await writeOperations(
    tx,
    deps,
    caller,
    document.uuid,
    { mode: 'edit', operations },
    present,
  );
  const written = answer.body.revision as number;
  if (written > document.revision) {
    await tx('document_revisions')
      .where({ document_uuid: document.uuid, revision: written })
      .update({ cause: 'restore', restored_from: revision });
  }
  return answer;
}
