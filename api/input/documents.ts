// Input pieces several Documents routes share: the body of an edit or a suggestion with its codes.
import * as z from 'zod';
import { parseOperations, type EditMode } from '../../domain/document-engine/index.js';
import type { OperationsInput } from '../../domain/documents/content.js';
import {
  blankSuggestionComment,
  invalidBaseRevision,
  invalidBatchId,
} from '../../domain/documents/errors.js';
import { checkedBy, documentsInput, type InputErrors } from '../middleware/validate.js';

/** Edits carry whole documents (set_document), so their bodies may be far larger than other JSON bodies. */
export const OPERATIONS_BODY_LIMIT = '16mb';

/**
 * The body of an edit or a suggestion, checked before the document is touched: operations (the engine's check, which
 * names the refused operation), base_revision (a whole number from 1; null means absent), batch_id (1 to 64
 * characters; null means absent), and in suggest mode a non-blank comment where an operation has one.
 */
export function operationsBody(mode: EditMode) {
  return z
    .object({
      operations: z
        .unknown()
        .optional()
        .transform(checkedBy((raw) => parseOperations(raw, mode))),
      base_revision: z.number().int().min(1).nullish(),
      batch_id: z.string().min(1).max(64).nullish(),
    })
    .superRefine(({ operations }, ctx) => {
      operations.forEach((operation, index) => {
        if ('comment' in operation && operation.comment !== undefined && operation.comment.trim() === '') {
          ctx.addIssue({
            code: 'custom',
            path: ['operations', index, 'comment'],
            message: 'blank comment',
            params: { error: blankSuggestionComment(index) },
          });
        }
      });
    })
    .transform((body): OperationsInput => ({
      operations: body.operations,
      ...(body.base_revision != null ? { baseRevision: body.base_revision } : {}),
      ...(body.batch_id != null ? { batchId: body.batch_id } : {}),
    }));
}

/** The codes of an operations body's fields. */
export const operationsInput: InputErrors = {
  ...documentsInput,
  fields: { 'body.base_revision': invalidBaseRevision, 'body.batch_id': invalidBatchId },
};

const MAX_PAGE_LIMIT = 100;
const DEFAULT_PAGE_LIMIT = 25;

/** A list's page query: limit 1..100 (default 25) and cursor (empty means the first page). */
export const pageQuery = {
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_PAGE_LIMIT))
    .default(DEFAULT_PAGE_LIMIT),
  cursor: z
    .string()
    .optional()
    .transform((cursor) => cursor || undefined),
};
