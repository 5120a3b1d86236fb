// Documents as a caller sees them: loading with the caller's role, listing newest first, create, and update (rename,
// trash, restore; a trash schedules the document's purge).
import type { Knex } from 'knex';
import { emptyDocumentState } from '../document-engine/state.js';
import type { Caller } from '../caller.js';
import { atLeast, type Role } from '../roles.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseBoundedJson } from '../bounded-json.js';
import { isUuid } from '../uuid.js';
import type { DocumentSettings, DocumentsDeps } from './deps.js';
import { documentNotFound, forbidden, invalidCursor } from './errors.js';

interface DocumentRow {
  uuid: string;
  workspace_uuid: string;
  owner_uuid: string;
  title: string | null;
  revision: number;
  /** Names the current state (db/migrations/018): a new value whenever the revision log changes. bigint, as text. */
  state_version: string;
  next_suggestion_ref: number;
  trashed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A document as one caller sees it: the row (without its state), the caller's role, and what the presenter needs. */
export interface VisibleDocument extends DocumentRow {
  my_role: Role;
  shared: boolean;
  owner_first_name: string | null;
  owner_last_name: string | null;
  /** Microseconds since the epoch of created_at, as text: the exact list position for cursors. */
  created_at_us: string;
}

/** Trashed documents past their retention are gone to callers, even before the purge workflow has run. */
const notExpired = (knex: Knex, settings: DocumentSettings) =>
  knex.raw(`(d.trashed_at is null or d.trashed_at + (? * interval '1 millisecond') > now())`, [
    settings.documentTrashRetentionMs,
  ]);

/** Selects documents the caller can see, with their role, the shared flag and the owner's names. */
function selectVisibleDocuments(knex: Knex, caller: Caller, settings: DocumentSettings) {
  return knex('documents as d')
    .join('users as o', 'o.uuid', 'd.owner_uuid')
    .select(
      'd.uuid',
      'd.workspace_uuid',
      'd.owner_uuid',
      'd.title',
      'd.revision',
      'd.state_version',
      'd.next_suggestion_ref',
      'd.trashed_at',
      'd.created_at',
      'd.updated_at',
      knex.raw('document_effective_role(d.uuid, ?, ?) as my_role', [caller.userUuid, caller.workspaceUuid]),
      knex.raw(
        `exists (select 1 from document_grants g where g.document_uuid = d.uuid and g.status <> 'revoked') as shared`,
      ),
      knex.raw(`(extract(epoch from d.created_at) * 1000000)::bigint::text as created_at_us`),
      'o.first_name as owner_first_name',
      'o.last_name as owner_last_name',
    )
    .where('d.workspace_uuid', caller.workspaceUuid)
    .whereRaw('document_effective_role(d.uuid, ?, ?) is not null', [caller.userUuid, caller.workspaceUuid])
    .where(notExpired(knex, settings));
}

export interface FindOptions {
  /** The least role the action needs: below it is 403 forbidden naming the role. */
  needs?: Role;
  /** What the action is, for the 403 description. */
  action?: string;
  /** Locks the document row until the transaction ends, so writes to one document serialise. */
  forUpdate?: boolean;
}

/** The document if the caller can see it, else 404 not_found. */
export async function findVisibleDocument(
  knex: Knex,
  { settings }: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  uuid: string,
  options: FindOptions = {},
): Promise<VisibleDocument> {
  const query = selectVisibleDocuments(knex, caller, settings).where('d.uuid', uuid);
  if (options.forUpdate) query.forUpdate('d');
  const document = (await query.first()) as VisibleDocument | undefined;
  if (!document) throw documentNotFound();
  if (options.needs && !atLeast(document.my_role, options.needs))
    throw forbidden(options.needs, options.action);
  return document;
}

export interface ListQuery {
  q?: string;
  limit: number;
  cursor?: string;
  trashed: boolean;
}

export interface ListPage {
  documents: VisibleDocument[];
  hasMore: boolean;
  nextCursor: string | null;
}

interface CursorPosition {
  createdAtUs: string;
  uuid: string;
}

// Opaque to clients: the (created_at, uuid) of the last document of a page, plus which list it belongs to.
const encodeCursor = (position: CursorPosition, trashed: boolean) =>
  Buffer.from(JSON.stringify({ t: trashed ? 1 : 0, c: position.createdAtUs, u: position.uuid })).toString(
    'base64url',
  );

export function decodeCursor(cursor: string, trashed: boolean): CursorPosition {
  try {
    // A cursor is one flat object: anything nested is refused before it is parsed.
    const value = parseBoundedJson(Buffer.from(cursor, 'base64url').toString('utf8'), 1) as {
      t?: unknown;
      c?: unknown;
      u?: unknown;
    };
    if (
      value.t !== (trashed ? 1 : 0) ||
      typeof value.c !== 'string' ||
      !/^\d{1,19}$/.test(value.c) ||
      !isUuid(value.u)
    )
      throw invalidCursor();
    return { createdAtUs: value.c, uuid: value.u };
  } catch {
    throw invalidCursor();
  }
}

/** Escapes LIKE wildcards so q matches literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A page of the caller's documents, newest first (created_at, then uuid), live or in Trash. */
export async function listDocuments(
  knex: Knex,
  { settings }: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  query: ListQuery,
): Promise<ListPage> {
  const builder = selectVisibleDocuments(knex, caller, settings)
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.uuid', order: 'desc' },
    ])
    .limit(query.limit + 1);
  if (query.trashed) builder.whereNotNull('d.trashed_at');
  else builder.whereNull('d.trashed_at');
  if (query.q) builder.whereRaw(`d.title ilike ? escape '\\'`, [`%${likeLiteral(query.q)}%`]);
  if (query.cursor !== undefined) {
    const position = decodeCursor(query.cursor, query.trashed);
    builder.whereRaw(
      `(d.created_at, d.uuid) < (timestamptz 'epoch' + ?::bigint * interval '1 microsecond', ?::uuid)`,
      [position.createdAtUs, position.uuid],
    );
  }
  const rows = (await builder) as VisibleDocument[];
  const hasMore = rows.length > query.limit;
  const documents = rows.slice(0, query.limit);
  const last = documents[documents.length - 1];
  return {
    documents,
    hasMore,
    nextCursor:
      hasMore && last
        ? encodeCursor({ createdAtUs: last.created_at_us, uuid: last.uuid }, query.trashed)
        : null,
  };
}

/** A new, empty document owned by the caller in the token's workspace, at revision 1. */
export async function createDocument(
  tx: Knex.Transaction,
  deps: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  input: { title: string | null },
): Promise<VisibleDocument> {
  const state = emptyDocumentState();
  const [row] = await tx('documents')
    .insert({
      workspace_uuid: caller.workspaceUuid,
      owner_uuid: caller.userUuid,
      title: input.title,
      revision: 1,
    })
    .returning('uuid');
  // Revision 1 is the log's first snapshot. It is not charged to the storage pool (charged_bytes stays 0): the empty
  // state is a few dozen bytes no caller chooses, so a full workspace can still create documents.
  await tx('document_revisions').insert({
    document_uuid: row.uuid,
    revision: 1,
    snapshot_revision: 1,
    cause: 'create',
    state: JSON.stringify(state),
    author_uuid: caller.userUuid,
  });
  return findVisibleDocument(tx, deps, caller, row.uuid as string);
}

export interface DocumentUpdate {
  /** undefined: unchanged; null: untitled. */
  title?: string | null;
  /** undefined: unchanged. */
  trashed?: boolean;
}

/**
 * Applies an update (title, trashed) in the caller's transaction: the whole request is checked against the caller's
 * role before anything is written. A document that moves to Trash has its purge scheduled, and one restored wakes its
 * purge so it ends now; both go out after the commit. Trashing an already trashed document changes nothing.
 */
export async function updateDocument(
  unit: UnitOfWork,
  deps: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  documentUuid: string,
  update: DocumentUpdate,
): Promise<VisibleDocument> {
  const document = await findVisibleDocument(unit.tx, deps, caller, documentUuid, { forUpdate: true });
  checkUpdateAllowed(document, update);
  const trash = await writeDocumentUpdate(unit.tx, document, update);
  if (trash === 'trashed')
    await unit.workflows.scheduleDocumentPurge({
      documentUuid: document.uuid,
      workspaceUuid: document.workspace_uuid,
    });
  if (trash === 'restored') unit.workflows.wakeDocumentPurge(document.uuid);
  return findVisibleDocument(unit.tx, deps, caller, document.uuid);
}

/** A title needs editor, trashed needs manager or owner. */
function checkUpdateAllowed(document: VisibleDocument, update: DocumentUpdate): void {
  if (update.title !== undefined && !atLeast(document.my_role, 'editor'))
    throw forbidden('editor', 'Renaming a document');
  if (update.trashed !== undefined && !atLeast(document.my_role, 'manager')) {
    throw forbidden(
      'manager',
      update.trashed ? 'Moving a document to Trash' : 'Restoring a document from Trash',
    );
  }
}

/** Writes a checked update on a locked document. updated_at moves only when the title or the trash state changes. */
async function writeDocumentUpdate(
  tx: Knex.Transaction,
  document: VisibleDocument,
  update: DocumentUpdate,
): Promise<'trashed' | 'restored' | 'unchanged'> {
  const patch: Record<string, unknown> = {};
  if (update.title !== undefined && update.title !== document.title) patch.title = update.title;
  let trash: 'trashed' | 'restored' | 'unchanged' = 'unchanged';
  if (update.trashed === true && document.trashed_at === null) {
    patch.trashed_at = tx.fn.now();
    trash = 'trashed';
  } else if (update.trashed === false && document.trashed_at !== null) {
    patch.trashed_at = null;
    trash = 'restored';
  }
  if (Object.keys(patch).length)
    await tx('documents')
      .where({ uuid: document.uuid })
      .update({ ...patch, updated_at: tx.fn.now() });
  return trash;
}
