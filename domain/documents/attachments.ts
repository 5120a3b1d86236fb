// Document attachments: checking an upload before its bytes are read, sniffing its type from the bytes, storing it
// encrypted at rest (the Drive chunk layout, domain/drive/crypto.ts), dedupe by SHA-256 per document, the
// workspace storage pool, and reading it back.
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { renderMarkdown, type DocumentState } from '../document-engine/index.js';
import {
  chunkLayout,
  decryptChunks,
  encryptChunks,
  generateDataKey,
  unwrapDataKey,
  wrapDataKey,
} from '../drive/crypto.js';
import type { Caller } from '../caller.js';
import { releaseStorage, reserveStorage } from '../storage-pool.js';
import type { RunInTransaction } from '../unit-of-work.js';
import type { DocumentsDeps } from './deps.js';
import { findVisibleDocument } from './documents.js';
import { attachmentNotFound, storageFull, documentTrashed, notUploaded } from './errors.js';

/** The attachment size cap of the spec: 100 MB. */
export const MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024;

/** Image types shown in the page; anything else is a file to download, served as application/octet-stream. */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export interface AttachmentRow {
  uuid: string;
  document_uuid: string;
  workspace_uuid: string;
  uploader_uuid: string;
  filename: string;
  content_type: string;
  byte_size: string | number;
  sha256: Buffer | null;
  upload_status: 'awaiting_upload' | 'completed' | 'failed';
  width: number | null;
  height: number | null;
  inline: boolean;
  storage_key: string;
  wrapped_key: Buffer;
  chunk_size_bytes: number;
  created_at: Date;
  updated_at: Date;
}

/** The display name of an upload: the last path segment of what the client sent (so no directories), trimmed. */
export const attachmentFilename = (raw: string): string => raw.split(/[/\\]/).pop()!.trim();

/** A display name is 1 to 255 characters, not "." or "..", without control characters. */
export const isUsableFilename = (name: string): boolean =>
  name !== '' &&
  name !== '.' &&
  name !== '..' &&
  [...name].length <= 255 &&
  // eslint-disable-next-line no-control-regex
  !/[\u0000-\u001f\u007f]/.test(name);

interface SniffedType {
  contentType: string;
  inline: boolean;
  width: number | null;
  height: number | null;
}

/** The type read from the bytes, never from the request. An image sharp cannot read is a plain file. */
async function sniffType(bytes: Buffer): Promise<SniffedType> {
  const detected = await fileTypeFromBuffer(bytes);
  const file: SniffedType = {
    contentType: 'application/octet-stream',
    inline: false,
    width: null,
    height: null,
  };
  if (!detected || !INLINE_TYPES.has(detected.mime)) return file;
  try {
    const metadata = await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
    // Shown upright: EXIF orientation applied; an animation is one frame high.
    const width = metadata.autoOrient?.width ?? metadata.width;
    const height =
      metadata.pages && metadata.pages > 1
        ? (metadata.pageHeight ?? metadata.height)
        : (metadata.autoOrient?.height ?? metadata.height);
    if (!width || !height) return file;
    return { contentType: detected.mime, inline: true, width, height };
  } catch {
    return file;
  }
}

/** The text that places an attachment in a document, exactly as reading the document writes it back. */
export function attachmentMarkdown(attachment: Pick<AttachmentRow, 'uuid' | 'filename' | 'inline'>): string {
  const href = `attachment:${attachment.uuid}`;
  const inline = attachment.inline
    ? { type: 'image', attrs: { src: href, alt: attachment.filename } }
    : { type: 'text', text: attachment.filename, marks: [{ type: 'link', attrs: { href } }] };
  const state: DocumentState = {
    version: 1,
    doc: { type: 'doc', content: [{ type: 'paragraph', content: [inline] }] },
    threads: [],
  };
  return renderMarkdown(state);
}

/** One object per attachment: documents/<workspace>/<document>/<attachment>. */
const storageKey = (workspaceUuid: string, documentUuid: string, attachmentUuid: string) =>
  `documents/${workspaceUuid}/${documentUuid}/${attachmentUuid}`;

/**
 * Uploads an attachment. Before a byte is read the caller must be editor on a document not in Trash; then `read`
 * gives the bytes (the route reads the request, refusing it past the cap). The same bytes already completed on the
 * document answer that attachment (created false), and the same bytes for a row still awaiting them finish that row
 * (a retry after a crash). Otherwise the row is written awaiting_upload with its bytes reserved in the workspace
 * pool, the encrypted object is put outside any transaction, and the row turns completed; a storage failure turns
 * it failed and gives the bytes back.
 */
export async function uploadAttachment(
  run: RunInTransaction,
  deps: DocumentsDeps,
  caller: Caller,
  documentUuid: string,
  upload: { filename: string; read: () => Promise<Buffer> },
): Promise<{ attachment: AttachmentRow; created: boolean }> {
  const uploadable = (tx: Knex.Transaction, forUpdate: boolean) =>
    findVisibleDocument(tx, deps, caller, documentUuid, {
      needs: 'editor',
      action: 'Uploading an attachment',
      forUpdate,
    }).then((document) => {
      if (document.trashed_at) throw documentTrashed();
      return document;
    });
  await run(({ tx }) => uploadable(tx, false));
  const bytes = await upload.read();
  const sha256 = createHash('sha256').update(bytes).digest();
  const type = await sniffType(bytes);
  const uuid = randomUUID();
  const dataKey = generateDataKey();
  const layout = chunkLayout(bytes.length);

  const staged = await run(async ({ tx }) => {
    const document = await uploadable(tx, true);
    // Under the document lock, so two uploads of the same bytes cannot both create one.
    const same = (await tx('document_attachments')
      .where({ document_uuid: document.uuid, sha256 })
      .whereNot({ upload_status: 'failed' })
      .first()) as AttachmentRow | undefined;
    if (same) return { existing: same };
    await reserveStorage(tx, document.workspace_uuid, bytes.length, storageFull);
    const [row] = await tx('document_attachments')
      .insert({
        uuid,
        document_uuid: document.uuid,
        workspace_uuid: document.workspace_uuid,
        uploader_uuid: caller.userUuid,
        filename: upload.filename,
        content_type: type.contentType,
        byte_size: bytes.length,
        sha256,
        upload_status: 'awaiting_upload',
        width: type.width,
        height: type.height,
        inline: type.inline,
        storage_key: storageKey(document.workspace_uuid, document.uuid, uuid),
        wrapped_key: wrapDataKey(deps.masterKey, uuid, dataKey),
        chunk_size_bytes: layout.chunkSizeBytes,
      })
      .returning('*');
    return { row: row as AttachmentRow };
  });
  if ('existing' in staged) {
    const existing = staged.existing!;
    if (existing.upload_status === 'completed') return { attachment: existing, created: false };
    // The same bytes again while a row awaits them: an earlier upload died between its row and its object
    // (or is still writing it). Writing the object again with that row's key finishes it either way.
    const existingKey = unwrapDataKey(deps.masterKey, existing.uuid, existing.wrapped_key);
    return { attachment: await putAndComplete(run, deps, existing, existingKey, bytes), created: false };
  }
  return { attachment: await putAndComplete(run, deps, staged.row, dataKey, bytes), created: true };
}

/** Puts the encrypted object of an awaiting row and marks it completed; a storage failure marks it failed. */
async function putAndComplete(
  run: RunInTransaction,
  { attachmentObjects }: Pick<DocumentsDeps, 'attachmentObjects'>,
  row: AttachmentRow,
  dataKey: Buffer,
  bytes: Buffer,
): Promise<AttachmentRow> {
  const layout = chunkLayout(bytes.length);
  try {
    const ciphertext = Readable.from(encryptChunks(dataKey, row.uuid, layout, bytes));
    await attachmentObjects.putStream(row.storage_key, ciphertext, layout.ciphertextSizeBytes);
  } catch (error) {
    await run(async ({ tx }) => {
      const failed = await tx('document_attachments')
        .where({ uuid: row.uuid, upload_status: 'awaiting_upload' })
        .update({ upload_status: 'failed', updated_at: tx.fn.now() });
      if (failed) await releaseStorage(tx, row.workspace_uuid, bytes.length);
    });
    throw error;
  }
  return run(async ({ tx }) => {
    const [completed] = await tx('document_attachments')
      .where({ uuid: row.uuid, upload_status: 'awaiting_upload' })
      .update({ upload_status: 'completed', updated_at: tx.fn.now() })
      .returning('*');
    return (completed ??
      (await tx('document_attachments').where({ uuid: row.uuid }).first())) as AttachmentRow;
  });
}

/**
 * A completed attachment of a document the caller can see (viewer and up), for its metadata GET and its download:
 * another document's attachment is 404, and one whose upload_status is not `completed` is 409 not_uploaded (the
 * spec says so of the attachment, not only of its bytes).
 */
export async function findAttachment(
  knex: Knex,
  deps: Pick<DocumentsDeps, 'settings'>,
  caller: Caller,
  ref: { documentUuid: string; attachmentUuid: string },
): Promise<AttachmentRow> {
  const document = await findVisibleDocument(knex, deps, caller, ref.documentUuid);
  const attachment = (await knex('document_attachments')
    .where({ uuid: ref.attachmentUuid, document_uuid: document.uuid })
    .first()) as AttachmentRow | undefined;
  if (!attachment) throw attachmentNotFound();
  if (attachment.upload_status !== 'completed') throw notUploaded();
  return attachment;
}

/** A completed attachment the caller can see, and its plaintext, decrypted chunk by chunk as it streams from storage. */
export async function openAttachment(
  knex: Knex,
  deps: DocumentsDeps,
  caller: Caller,
  ref: { documentUuid: string; attachmentUuid: string },
): Promise<{ attachment: AttachmentRow; content: Readable }> {
  const attachment = await findAttachment(knex, deps, caller, ref);
  const key = unwrapDataKey(deps.masterKey, attachment.uuid, attachment.wrapped_key);
  const layout = chunkLayout(Number(attachment.byte_size));
  const source = await deps.attachmentObjects.get(attachment.storage_key);
  return { attachment, content: Readable.from(decryptChunks(source, key, attachment.uuid, layout)) };
}

/** Removes the stored bytes of every attachment of a document; what is already gone stays gone. */
export async function removeAttachmentObjects(
  knex: Knex,
  { attachmentObjects }: Pick<DocumentsDeps, 'attachmentObjects'>,
  documentUuid: string,
): Promise<number> {
  const keys = (await knex('document_attachments')
    .where({ document_uuid: documentUuid })
    .pluck('storage_key')) as string[];
  if (keys.length) await attachmentObjects.removeMany(keys);
  return keys.length;
}
