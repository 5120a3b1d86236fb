// Reading Drive request bodies: a missing required field is 422 missing_required_fields, a wrong type 400 invalid_body.
import type { z } from 'zod';
import { invalidBody } from '../../domain/errors.js';
import { missingRequiredFields } from '../../domain/drive/errors.js';

export function readDriveBody<S extends z.ZodType>(body: unknown, schema: S, required: string[] = []): z.infer<S> {
  const value = body === undefined ? {} : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidBody('The body must be a JSON object.');
  const missing = required.filter((key) => (value as Record<string, unknown>)[key] === undefined || (value as Record<string, unknown>)[key] === null);
  if (missing.length) throw missingRequiredFields(missing);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
    throw invalidBody(`Invalid fields: ${fields.join(', ')}.`, { fields });
  }
  return parsed.data;
}

/** True when the key is present in the body, even with null: Drive moves on a present key. */
export const hasKey = (body: unknown, key: string): boolean =>
  typeof body === 'object' && body !== null && Object.prototype.hasOwnProperty.call(body, key);
