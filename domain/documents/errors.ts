// The Documents error codes of the HTTP layer and persistence (spec/documents.md § Errors); the edit engine's own
// codes are in domain/document-engine/errors.ts. All are factories of the one AppError type.
import { AppError } from '../errors.js';
import type { Role } from '../roles.js';

const ROLE_PHRASE: Record<Role, string> = {
  viewer: 'the viewer role or higher',
  commenter: 'the commenter role or higher',
  editor: 'the editor role or higher',
  manager: 'the manager or owner role',
  owner: 'the owner role',
};

export const forbidden = (needed: Role, what = 'This change') =>
  new AppError(403, 'forbidden', `${what} needs ${ROLE_PHRASE[needed]} on the document.`);
export const forbiddenNotAuthor = (what: string) =>
  new AppError(
    403,
    'forbidden',
    `${what} is allowed to its author, or to the manager or owner role on the document.`,
  );
export const forbiddenOwnMessage = () =>
  new AppError(403, 'forbidden', 'Only the author of a message can edit it.');

export const documentNotFound = () =>
  new AppError(404, 'not_found', 'No such document, or it is not visible to you.');
export const attachmentNotFound = () =>
  new AppError(404, 'not_found', 'No such attachment on this document.');
export const revisionNotFound = (revision: number) =>
  new AppError(404, 'revision_not_found', `This document has no revision ${revision}.`);
export const commentNotFound = () =>
  new AppError(404, 'comment_not_found', 'No such comment or message on this document.');

export const conflict = (current: Record<string, unknown>) =>
  new AppError(
    409,
    'conflict',
    'The document moved past base_revision; nothing changed. current is the document as it now is.',
    { current },
  );
export const documentTrashed = () =>
  new AppError(
    409,
    'document_trashed',
    'The document is in Trash; its content, comments and suggestions cannot change. Restore it first.',
  );
export const notUploaded = () =>
  new AppError(409, 'not_uploaded', 'The attachment file has not finished uploading.');

// Limits the spec leaves open (docs/documents-api.md § Limits); each names its limit, as file_too_large does.
export const documentTooLarge = (maxBytes: number) =>
  new AppError(
    413,
    'document_too_large',
    `A document's markdown is at most ${maxBytes} bytes (UTF-8); nothing changed.`,
    { max_bytes: maxBytes },
  );
export const tooManyThreads = (maxThreads: number) =>
  new AppError(
    422,
    'too_many_threads',
    `A document holds at most ${maxThreads} comments and suggestions; delete some first. Nothing changed.`,
    {
      max_threads: maxThreads,
    },
  );
export const tooManyStreams = (maxStreams: number, retryAfterSeconds: number) =>
  new AppError(
    429,
    'too_many_streams',
    `You have ${maxStreams} live event streams open, the most one person may hold; close one (or retry after ${retryAfterSeconds} seconds).`,
    { max_streams: maxStreams },
    { 'Retry-After': String(retryAfterSeconds) },
  );

export const invalidUuid = (name: string) =>
  new AppError(422, 'invalid_uuid', `The ${name} in the path is not a UUID.`);
export const invalidTitle = () =>
  new AppError(422, 'invalid_title', 'title must be a string of at most 255 characters, or null.');
export const invalidTrashed = () => new AppError(422, 'invalid_trashed', 'trashed must be true or false.');
export const invalidBaseRevision = () =>
  new AppError(
    422,
    'invalid_base_revision',
    'base_revision must be a revision number of this document (a whole number from 1 up to the current revision).',
  );
export const invalidBatchId = () =>
  new AppError(422, 'invalid_batch_id', 'batch_id must be a string of 1 to 64 characters.');
export const batchIdReused = (usedOn: 'edit' | 'suggest') =>
  new AppError(
    422,
    'batch_id_reused',
    `This batch_id was already applied ${usedOn === 'edit' ? 'as an edit (POST …/content)' : 'as suggestions (POST …/suggestions)'} on this document; nothing changed. Send a new batch_id.`,
  );
export const invalidCommentBody = () =>
  new AppError(422, 'invalid_body', 'body must be a non-blank markdown string.');
export const blankSuggestionComment = (operation: number) =>
  new AppError(422, 'invalid_body', `Operation ${operation}: comment must be a non-blank markdown string.`, {
    operation,
  });
/** A malformed comment quote (on, occurrence, before, after): invalid_operation, as for an edit's quote, without an index. */
export const invalidCommentTarget = (description: string) =>
  new AppError(422, 'invalid_operation', description);
export const invalidStatus = () =>
  new AppError(422, 'invalid_status', 'status must be "open" or "resolved".');
export const invalidFilename = () =>
  new AppError(
    422,
    'invalid_filename',
    'The filename query parameter is required: a name of 1 to 255 characters without control characters.',
  );
export const emptyFile = () => new AppError(422, 'empty_file', 'The attachment has no bytes.');
export const invalidLimit = () =>
  new AppError(422, 'invalid_limit', 'limit must be a whole number from 1 to 100.');
export const invalidRevision = () =>
  new AppError(422, 'invalid_revision', 'The revision in the path must be a whole number from 1.');
export const invalidExportFormat = () => new AppError(422, 'invalid_format', 'format must be md or html.');
export const invalidSuggestionsView = () =>
  new AppError(422, 'invalid_suggestions', 'suggestions must be show, accept or reject.');
export const invalidCursor = () =>
  new AppError(422, 'invalid_cursor', 'cursor must be the next_cursor of a previous page of the same list.');
export const invalidQuery = () =>
  new AppError(422, 'invalid_query', 'q must be a single string of at most 255 characters.');

/**
 * The workspace pool is full: an attachment, or a revision of the content (its log counts too). Documents lists no
 * pool_bytes among its error fields (spec/documents.md § Errors), unlike Drive.
 */
export const storageFull = () =>
  new AppError(422, 'storage_limit_exceeded', 'The workspace storage is full.');
