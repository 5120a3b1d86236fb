// Input is checked once, here. A route declares one zod schema of {params, query, body}; validate() parses the
// request with it, maps a failure to the spec's error code, and the handler reads the typed result with input().
import type { Middleware } from 'koa';
import * as z from 'zod';
import { AppError, invalidBody, notFound } from '../../domain/errors.js';
import { missingRequiredFields } from '../../domain/drive/errors.js';
import { invalidUuid } from '../../domain/documents/errors.js';
import { isUuid } from '../../domain/uuid.js';

export type RouteSchema = z.ZodObject<{ params?: z.ZodType; query?: z.ZodType; body?: z.ZodType }>;

/** A path parameter that names a row by its uuid; anything else fails before it reaches a `::uuid` cast. */
export const uuidParam = z.string().refine(isUuid);

declare module 'koa' {
  interface DefaultState {
    input?: unknown;
  }
}

/** How one API turns schema failures into its error codes. Paths are "body.name", "query.limit", "params.uuid". */
export interface InputErrors {
  /** A path parameter that fails its schema (a malformed uuid). */
  pathParam(name: string): AppError;
  /**
   * Required body fields (those the schema does not accept as absent) that are absent or null. Checked before
   * `fields`, as the first refusal of the API; without it they fall to `fields` and `otherwise`.
   */
  missing?(fields: string[]): AppError;
  /** The code of one field, when the API has one: { 'body.title': invalidTitle }; it may read the issue's message. */
  fields?: Record<string, (issue: Issue) => AppError>;
  /** Everything else, with the failing field paths (without their "body."/"query." prefix). */
  otherwise(fields: string[]): AppError;
}

type Issue = z.core.$ZodIssue;

const valueAt = (root: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    root,
  );

/** Whether the route's body schema refuses `field` when absent; a body schema that is not an object counts all as required. */
const requiredIn =
  (schema: RouteSchema) =>
  (field: string): boolean => {
    const body = schema.shape.body;
    const shape = body instanceof z.ZodObject ? (body.shape as Record<string, z.ZodType>) : undefined;
    return !shape?.[field]?.isOptional();
  };

/** Picks the one error a failed parse answers with; the order of the checks is the order of the spec's rows. */
function inputError(
  issues: Issue[],
  raw: Record<string, unknown>,
  errors: InputErrors,
  isRequired: (field: string) => boolean = () => true,
): AppError {
  const where = (issue: Issue) => issue.path.map(String);
  const param = issues.find((issue) => issue.path[0] === 'params');
  if (param) return errors.pathParam(String(param.path[1] ?? ''));
  // The body itself is not a JSON object (an array, a string, a number).
  if (issues.some((issue) => issue.path.length === 1 && issue.path[0] === 'body'))
    return invalidBody('The body must be a JSON object.');
  if (errors.missing) {
    const missing = issues.filter(
      (issue) =>
        issue.path[0] === 'body' &&
        issue.path.length === 2 &&
        valueAt(raw, issue.path) == null &&
        isRequired(String(issue.path[1])),
    );
    if (missing.length) return errors.missing([...new Set(missing.map((issue) => String(issue.path[1])))]);
  }
  for (const issue of issues) {
    const own =
      issue.code === 'custom' ? (issue.params as { error?: unknown } | undefined)?.error : undefined;
    if (own instanceof AppError) return own;
    const code = errors.fields?.[where(issue).join('.')];
    if (code) return code(issue);
  }
  return errors.otherwise([...new Set(issues.map((issue) => where(issue).slice(1).join('.')))]);
}

/**
 * A schema step that runs a domain check throwing the API's own error (the edit engine's check of operations, which
 * names the refused operation): its value is the check's result, and its error is the request's answer.
 */
export const checkedBy =
  <T>(check: (value: unknown) => T) =>
  (value: unknown, ctx: z.RefinementCtx): T => {
    try {
      return check(value);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.description, params: { error } });
      return z.NEVER;
    }
  };

/** One value met by the NUL scan: its key and its parent's visit, so a path is built only for the string that is hit. */
interface Visit {
  value: unknown;
  key: PropertyKey;
  parent: Visit | undefined;
  /** How many leading keys of the path match the skipped prefix, or -1 once the path has left it. */
  matched: number;
}

const pathOf = (visit: Visit): PropertyKey[] => {
  const path: PropertyKey[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent)
    path.push(typeof at.key === 'number' ? String(at.key) : at.key);
  return path.reverse();
};

/**
 * Where the first string holding U+0000 sits in the input, if any. PostgreSQL text and jsonb cannot store it, so no
 * field may carry one. Markdown is the exception: CommonMark replaces it with U+FFFD (the engine's reader does), so
 * the subtree at `skipped` is not read. Iterative and linear in the input, whatever its nesting: a visit points at
 * its parent instead of copying its path, and only the one path answered is built.
 */
export function firstNulPath(
  raw: Record<string, unknown>,
  skipped: readonly PropertyKey[],
): PropertyKey[] | undefined {
  const stack: Visit[] = [{ value: raw, key: '', parent: undefined, matched: 0 }];
  while (stack.length) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(visit);
    } else if (Array.isArray(value)) {
      // An index is kept as a number and made a string only in the one path built.
      for (let index = 0; index < value.length; index++) {
        const matched =
          visit.matched >= 0 && skipped[visit.matched] === String(index) ? visit.matched + 1 : -1;
        if (matched < skipped.length) stack.push({ value: value[index], key: index, parent: visit, matched });
      }
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        const matched = visit.matched >= 0 && skipped[visit.matched] === key ? visit.matched + 1 : -1;
        if (matched < skipped.length)
          stack.push({ value: (value as Record<string, unknown>)[key], key, parent: visit, matched });
      }
    }
  }
  return undefined;
}

/** Where markdown sits: the operations of an edit or a suggestion. */
const MARKDOWN: readonly PropertyKey[] = ['body', 'operations'];

/** Parses params, query and body with the route's schema; the handler reads the result with input(). */
export function validate(schema: RouteSchema, errors: InputErrors): Middleware {
  const isRequired = requiredIn(schema);
  return async (ctx, next) => {
    const body = ctx.request.body === undefined || ctx.request.body === null ? {} : ctx.request.body;
    const raw = { params: ctx.params ?? {}, query: ctx.query, body };
    const nul = firstNulPath(raw, MARKDOWN);
    if (nul) {
      const issue: Issue = {
        code: 'custom',
        path: nul.length > 2 ? nul.slice(0, 2) : nul,
        message: 'Text may not contain U+0000.',
        input: undefined,
      };
      throw inputError([issue], raw, errors, () => false);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw inputError(parsed.error.issues, raw, errors, isRequired);
    ctx.state.input = parsed.data;
    await next();
  };
}

/** The validated input of the route's schema (validate(schema) must be in the route's chain). */
export function input<S extends RouteSchema>(state: { input?: unknown }, _schema: S): z.output<S> {
  if (state.input === undefined)
    throw new Error('input() read on a route without validate() in its middleware chain');
  return state.input as z.output<S>;
}

/** Drive (spec/drive.md § Errors): an unknown path id is 404, an absent field 422 missing_required_fields, else 400 invalid_body. */
export const driveInput: InputErrors = {
  pathParam: () => notFound(),
  missing: missingRequiredFields,
  otherwise: (fields) => invalidBody(`Invalid fields: ${fields.join(', ')}.`, { fields }),
};

const DOCUMENT_PATH_PARAMS: Record<string, string> = {
  uuid: 'document uuid',
  attachment: 'attachment uuid',
  thread: 'thread uuid',
  message: 'message uuid',
};

/** Documents (spec/documents.md § Errors): a malformed path uuid is 422 invalid_uuid; each field has its own code. */
export const documentsInput: InputErrors = {
  pathParam: (name) => invalidUuid(DOCUMENT_PATH_PARAMS[name] ?? name),
  otherwise: (fields) => invalidBody(`Invalid fields: ${fields.join(', ')}.`, { fields }),
};
