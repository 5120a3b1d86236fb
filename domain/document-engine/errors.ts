// The Documents error codes the edit engine raises (spec/documents.md § Errors), as factories of the one AppError type.
import { AppError } from '../errors.js';

/** One place a quote could mean, offered back so the caller can pick it with `occurrence`. */
export interface QuoteCandidate {
  occurrence: number;
  snippet: string;
}

// `operation` is the index (from 0) of the refused operation in the request's array; comments have none.
const withOperation = (operation: number | undefined, extras: Record<string, unknown> = {}) =>
  operation === undefined ? extras : { operation, ...extras };

export const targetNotFound = (operation?: number, description = 'The quoted text is not in the document.') =>
  new AppError(422, 'target_not_found', description, withOperation(operation, { retryable: true }));

/**
 * `found` is how many matches there are; past the candidates listed (the first ones, capped in quotes.ts) the body
 * says `truncated: true`, so a client knows the list is not the whole story. The flag is absent on a full list.
 */
export const targetAmbiguous = (
  candidates: QuoteCandidate[],
  operation?: number,
  found = candidates.length,
) =>
  new AppError(
    422,
    'target_ambiguous',
    `The quoted text appears ${found} times${found > candidates.length ? ` (the first ${candidates.length} are listed)` : ''}; pick one with occurrence, or narrow it with before or after.`,
    withOperation(operation, {
      retryable: true,
      candidates,
      ...(found > candidates.length ? { truncated: true } : {}),
    }),
  );

export const targetSpansBlocks = (operation: number) =>
  new AppError(
    422,
    'target_spans_blocks',
    'A replace works inside one paragraph, heading or list item; this quote reaches across blocks. Use delete and insert.',
    withOperation(operation),
  );

export const invalidOperation = (operation: number, description: string) =>
  new AppError(422, 'invalid_operation', description, withOperation(operation));

export const invalidOperations = (description: string) =>
  new AppError(422, 'invalid_operations', description);

export const invalidMarkdown = (description: string, operation?: number) =>
  new AppError(422, 'invalid_markdown', description, withOperation(operation));

export const notSuggestible = (
  operation: number,
  description = 'set_document cannot be suggested; suggest replace, insert and delete operations instead.',
) => new AppError(422, 'not_suggestible', description, withOperation(operation));

export const nothingToSuggest = (
  operation: number,
  description = 'That text is already suggested for removal.',
) => new AppError(422, 'nothing_to_suggest', description, withOperation(operation));

export const suggestionNotFound = () =>
  new AppError(404, 'suggestion_not_found', 'No such suggestion on this document.');

export const suggestionClosed = () =>
  new AppError(422, 'suggestion_closed', 'The suggestion was already accepted or rejected.');

export const suggestionNotInDocument = () =>
  new AppError(422, 'suggestion_not_in_document', 'None of the suggestion is left in the document.');

export const notASuggestion = () =>
  new AppError(422, 'not_a_suggestion', 'That thread is a comment, not a suggestion.');

export const notAComment = () =>
  new AppError(422, 'not_a_comment', 'That thread is a suggestion, not a comment.');

/** Re-tags an error raised while reading markdown with the index of the operation that carried it. */
export function atOperation(error: unknown, operation: number): unknown {
  if (error instanceof AppError && error.extras.operation === undefined && isOperationError(error.code)) {
    return new AppError(error.status, error.code, error.description, withOperation(operation, error.extras));
  }
  return error;
}

const operationErrorCodes = new Set([
  'target_not_found',
  'target_ambiguous',
  'target_spans_blocks',
  'invalid_operation',
  'invalid_markdown',
  'not_suggestible',
  'nothing_to_suggest',
]);
const isOperationError = (code: string) => operationErrorCodes.has(code);
