// The exact Documents response objects of spec/documents.md, built field by field from domain rows and views.
import { attachmentMarkdown, type AttachmentRow } from '../../domain/documents/attachments.js';
import type { ContentPresenter, ContentView } from '../../domain/documents/content.js';
import type { VisibleDocument } from '../../domain/documents/documents.js';
import type { RevisionPage, RevisionView } from '../../domain/documents/history.js';
import type { MessageView, ThreadView } from '../../domain/documents/threads.js';
import { presentPerson } from './person.js';

/** Who a response is for, and where the documents app lives (config().docsUrl): a document's url is under it. */
export interface DocumentViewer {
  callerUuid: string;
  docsUrl: string;
}

export function presentDocument(document: VisibleDocument, { callerUuid, docsUrl }: DocumentViewer) {
  return {
    object: 'document',
    uuid: document.uuid,
    workspace_uuid: document.workspace_uuid,
    title: document.title,
    url: `${docsUrl}/${document.uuid}`,
    my_role: document.my_role,
    shared: document.shared,
    owner: presentPerson(
      {
        uuid: document.owner_uuid,
        first_name: document.owner_first_name,
        last_name: document.owner_last_name,
      },
      callerUuid,
    ),
    trashed_at: document.trashed_at ? document.trashed_at.toISOString() : null,
    created_at: document.created_at.toISOString(),
    updated_at: document.updated_at.toISOString(),
  };
}

/** A page of a Documents list: the list object the spec shows, with next_cursor. */
const presentList = <T>(url: string, page: { hasMore: boolean; nextCursor: string | null }, data: T[]) => ({
  object: 'list',
  url,
  has_more: page.hasMore,
  data,
  next_cursor: page.nextCursor,
});

export function presentDocumentList(
  url: string,
  page: { documents: VisibleDocument[]; hasMore: boolean; nextCursor: string | null },
  viewer: DocumentViewer,
) {
  return presentList(
    url,
    page,
    page.documents.map((document) => presentDocument(document, viewer)),
  );
}

function presentMessage(message: MessageView, callerUuid: string) {
  return {
    uuid: message.uuid,
    author: presentPerson(message.author, callerUuid),
    body: message.body,
    created_at: message.created_at.toISOString(),
    edited_at: message.edited_at ? message.edited_at.toISOString() : null,
  };
}

/** A thread as the content read lists it, and as every comment write answers. */
export function presentThread(thread: ThreadView, callerUuid: string) {
  return {
    uuid: thread.uuid,
    kind: thread.kind,
    ref: thread.ref === null ? null : `s${thread.ref}`,
    status: thread.status,
    placement: thread.placement.placement,
    quote: thread.placement.quote,
    suggested_text: thread.placement.suggested_text,
    suggested_format: thread.placement.suggested_format,
    author: presentPerson(thread.author, callerUuid),
    created_at: thread.created_at.toISOString(),
    messages: thread.messages.map((message) => presentMessage(message, callerUuid)),
  };
}

export function presentContent(
  view: ContentView,
  callerUuid: string,
  extra: { suggestions?: string[] } = {},
) {
  return {
    object: 'document_content',
    uuid: view.uuid,
    revision: view.revision,
    markdown: view.markdown,
    threads: view.threads.map((thread) => presentThread(thread, callerUuid)),
    ...(extra.suggestions ? { suggestions: extra.suggestions } : {}),
  };
}

/** presentContent for one caller: what a content write is handed to build (and, with a batch_id, store) its answer. */
export const contentPresenter =
  (callerUuid: string): ContentPresenter =>
  (view, extra) =>
    presentContent(view, callerUuid, extra);

export function presentAttachment(attachment: AttachmentRow) {
  return {
    object: 'document_attachment',
    uuid: attachment.uuid,
    document_uuid: attachment.document_uuid,
    filename: attachment.filename,
    content_type: attachment.content_type,
    byte_size: Number(attachment.byte_size),
    upload_status: attachment.upload_status,
    width: attachment.width,
    height: attachment.height,
    inline: attachment.inline,
    markdown: attachmentMarkdown(attachment),
    created_at: attachment.created_at.toISOString(),
  };
}

/**
 * The download's Content-Disposition (RFC 6266): a plain ASCII fallback name, and the exact UTF-8 name in filename*
 * (RFC 5987), always both. Koa's ctx.attachment() leaves filename* out for an ASCII name and sets the type from the
 * extension, so it is built here.
 */
export function attachmentDisposition(attachment: Pick<AttachmentRow, 'filename' | 'inline'>): string {
  const fallback = attachment.filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(attachment.filename).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${attachment.inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A revision of a document's history (an extension, docs/extensions.md § Documents history). */
function presentRevision(view: RevisionView, callerUuid: string) {
  return {
    object: 'document_revision',
    revision: view.revision,
    created_at: view.createdAt.toISOString(),
    author: view.author ? presentPerson(view.author, callerUuid) : null,
    cause: view.cause,
    restored_from: view.restoredFrom,
    summary: {
      blocks_changed: view.summary.blocks_changed,
      blocks_added: view.summary.blocks_added,
      blocks_removed: view.summary.blocks_removed,
    },
  };
}

export const presentRevisionList = (url: string, page: RevisionPage, callerUuid: string) =>
  presentList(
    url,
    page,
    page.revisions.map((view) => presentRevision(view, callerUuid)),
  );

/** One revision with the markdown at it. */
export const presentRevisionContent = (
  uuid: string,
  view: RevisionView & { markdown: string },
  callerUuid: string,
) => ({
  ...presentRevision(view, callerUuid),
  uuid,
  markdown: view.markdown,
});
