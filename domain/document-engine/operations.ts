// The edit operations of spec/documents.md § Edit content, and the check that turns a request's array into them.
import { invalidOperation, invalidOperations } from './errors.js';
import type { Occurrence } from './quotes.js';

const MAX_OPERATIONS = 100;

interface QuoteFields {
  find: string;
  occurrence?: Occurrence;
  before?: string;
  after?: string;
}

export interface ReplaceOperation extends QuoteFields {
  type: 'replace';
  /** Inline markdown; empty removes the text. */
  with: string;
  comment?: string;
}

export interface InsertOperation {
  type: 'insert';
  markdown: string;
  /** Exactly one of after and before: a quote, `heading:<Title>`, `section:<Title>`, `start` or `end`. */
  after?: string;
  before?: string;
  /** Picks one of several places a quote or heading anchor matches. */
  occurrence?: Occurrence;
  comment?: string;
}

export interface DeleteOperation extends QuoteFields {
  type: 'delete';
  comment?: string;
}

interface SetDocumentOperation {
  type: 'set_document';
  markdown: string;
}

export type EditOperation = ReplaceOperation | InsertOperation | DeleteOperation | SetDocumentOperation;

export type EditMode = 'edit' | 'suggest';

const FIELDS: Record<EditOperation['type'], string[]> = {
  replace: ['type', 'find', 'with', 'occurrence', 'before', 'after'],
  insert: ['type', 'markdown', 'after', 'before', 'occurrence'],
  delete: ['type', 'find', 'occurrence', 'before', 'after'],
  set_document: ['type', 'markdown'],
};

/**
 * Checks a request's operations. Throws invalid_operations for a list that is not an array, is empty or is too long,
 * and invalid_operation (with the index) for the first malformed one. In suggest mode each operation may carry a
 * `comment` (the suggestion's first message, which the caller stores).
 */
export function parseOperations(input: unknown, mode: EditMode): EditOperation[] {
  if (!Array.isArray(input)) throw invalidOperations('operations must be an array.');
  if (input.length === 0) throw invalidOperations('operations must hold at least one operation.');
  if (input.length > MAX_OPERATIONS)
    throw invalidOperations(
      `An edit holds at most ${MAX_OPERATIONS} operations; this one has ${input.length}.`,
    );
  return input.map((raw, index) => parseOperation(raw, index, mode));
}

function parseOperation(raw: unknown, index: number, mode: EditMode): EditOperation {
  const fail = (description: string) => invalidOperation(index, `Operation ${index}: ${description}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw fail('must be an object.');
  const op = raw as Record<string, unknown>;
  const type = op.type;
  if (type !== 'replace' && type !== 'insert' && type !== 'delete' && type !== 'set_document') {
    throw fail('type must be replace, insert, delete or set_document.');
  }
  const allowed = mode === 'suggest' && type !== 'set_document' ? [...FIELDS[type], 'comment'] : FIELDS[type];
  const unknown = Object.keys(op).filter((key) => !allowed.includes(key));
  if (unknown.length > 0)
    throw fail(`${type} does not take ${unknown.join(', ')}; it takes ${allowed.join(', ')}.`);

  // 'any' takes the empty string (a replace's `with`), 'filled' needs a character, 'written' needs one that is not
  // whitespace (an insert's markdown).
  const text = (key: string, required: boolean, rule: 'any' | 'filled' | 'written') => {
    const value = op[key];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string') throw fail(`${key} must be a string.`);
    if (rule === 'filled' && value === '') throw fail(`${key} must not be empty.`);
    if (rule === 'written' && value.trim() === '') throw fail(`${key} must not be blank.`);
    return value;
  };
  const occurrence = (): Occurrence | undefined => {
    const value = op.occurrence;
    if (value === undefined) return undefined;
    if (value === 'first' || value === 'last') return value;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
    throw fail('occurrence must be a whole number from 1, "first" or "last".');
  };
  const comment = text('comment', false, 'any');
  const withComment = <T extends object>(value: T): T =>
    comment === undefined ? value : { ...value, comment };
  const quote = (): QuoteFields => {
    const fields: QuoteFields = { find: text('find', true, 'filled')! };
    const picked = occurrence();
    const before = text('before', false, 'filled');
    const after = text('after', false, 'filled');
    if (picked !== undefined) fields.occurrence = picked;
    if (before !== undefined) fields.before = before;
    if (after !== undefined) fields.after = after;
    return fields;
  };

  switch (type) {
    case 'replace':
      return withComment({ type, ...quote(), with: text('with', true, 'any')! });
    case 'delete':
      return withComment({ type, ...quote() });
    case 'set_document':
      return { type, markdown: text('markdown', true, 'any')! };
    case 'insert': {
      const markdown = text('markdown', true, 'written')!;
      const after = text('after', false, 'written');
      const before = text('before', false, 'written');
      if ((after === undefined) === (before === undefined))
        throw fail('insert takes exactly one of after and before.');
      const picked = occurrence();
      const insert: InsertOperation = { type, markdown };
      if (after !== undefined) insert.after = after;
      if (before !== undefined) insert.before = before;
      if (picked !== undefined) insert.occurrence = picked;
      return withComment(insert);
    }
  }
}
