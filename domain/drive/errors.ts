// Drive's error codes (spec/drive.md § Errors) as factories of the one AppError type.
import { AppError } from '../errors.js';

export const notAuthorized = (
  description = 'You can see this item but your role does not allow this change.',
) => new AppError(403, 'not_authorized', description);
export const inTrash = () =>
  notAuthorized(
    'The item is in the trash, or inside a folder that is; restore it first (trashed: false may come with the change).',
  );
export const nameTaken = () =>
  new AppError(422, 'name_taken', 'A live item with that name exists in the folder.');
export const missingRequiredFields = (fields: string[]) =>
  new AppError(422, 'missing_required_fields', `Missing required fields: ${fields.join(', ')}.`, { fields });
export const invalidFileSize = (description = 'The declared file size is not valid.') =>
  new AppError(422, 'invalid_file_size', description);
export const invalidMove = () =>
  new AppError(422, 'invalid_move', 'A folder cannot move inside its own subtree.');
export const invalidField = (field: string, description: string) =>
  new AppError(422, 'invalid', description, { field });
export const invalidVariant = () => new AppError(400, 'invalid_variant', 'Unknown thumbnail variant.');
export const tooManyUuids = () =>
  new AppError(400, 'too_many_uuids', 'At most 25 uuids per thumbnail batch.');
export const syncTokenInvalid = () =>
  new AppError(
    410,
    'sync_token_invalid',
    'The changes cursor cannot be honored; discard it and reseed without since.',
  );
export const tooManyWaits = (maxWaits: number, retryAfterSeconds: number) =>
  new AppError(
    429,
    'too_many_waits',
    `You have ${maxWaits} changes long-polls open, the most one person may hold; let one end first.`,
    { max_waits: maxWaits },
    {
      'Retry-After': String(retryAfterSeconds),
    },
  );
export const invalidUploadStatus = (description = 'The upload is not in a state that allows this.') =>
  new AppError(422, 'invalid_upload_status', description);
export const invalidParts = (partNumbers: number[]) =>
  new AppError(
    422,
    'invalid_parts',
    'Some parts are missing, unexpected, or differ from what storage holds.',
    { part_numbers: partNumbers },
  );
/**
 * An extension (docs/extensions.md § Content hash): the plaintext storage holds is not the one the client's
 * content_hash describes; with part_numbers, the first part that does not even decrypt with the version's key.
 */
export const contentHashMismatch = (partNumbers?: number[]) =>
  new AppError(
    422,
    'content_hash_mismatch',
    'The stored content does not match content_hash.',
    partNumbers ? { part_numbers: partNumbers } : {},
  );
export const tooManyUploads = (retryAfterSeconds: number) =>
  new AppError(
    503,
    'too_many_uploads',
    `The server is reading as many large uploads as it can; retry after ${retryAfterSeconds} seconds.`,
    {},
    {
      'Retry-After': String(retryAfterSeconds),
    },
  );
// Conditional writes, an extension (docs/extensions.md § Conditional writes).
export const preconditionFailed = (current: object, etag: string) =>
  new AppError(
    412,
    'precondition_failed',
    'The item changed since the ETag in If-Match was read; current is the item as it now stands.',
    { current },
    { ETag: etag },
  );
export const invalidIfMatch = () =>
  new AppError(
    400,
    'invalid_if_match',
    'If-Match is "*" or a comma-separated list of quoted entity tags (RFC 9110 § 13.1.1).',
  );
