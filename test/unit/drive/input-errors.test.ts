// Drive's answers to a request that fails its route schema (spec/drive.md § Errors), through validate()'s policy.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { driveInput, uuidParam, validate } from '../../../api/middleware/validate.js';
import { invalidFileSize } from '../../../domain/drive/errors.js';
import { AppError } from '../../../domain/errors.js';

const Schema = z.object({
  params: z.object({ uuid: uuidParam }),
  body: z.object({ name: z.string(), size: z.number().int().min(0), note: z.string().optional() }),
});
const check = validate(Schema, { ...driveInput, fields: { 'body.size': () => invalidFileSize() } });

/** What validate() answers for a request: 'ok', or the error's status, code and extras. */
async function answer(raw: { params?: object; body?: unknown }) {
  const ctx = {
    params: { uuid: '6f1d3c1e-0000-4000-8000-000000000000' },
    query: {},
    request: { body: {} },
    state: {},
  } as any;
  if (raw.params) ctx.params = raw.params;
  if ('body' in raw) ctx.request.body = raw.body;
  try {
    await check(ctx, async () => {});
    return 'ok';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, code: error.code, ...error.extras };
  }
}

describe('Drive input errors', async () => {
  it('answers 404 not_found for a malformed path uuid before looking at the body', async () => {
    expect(await answer({ params: { uuid: 'nope' }, body: { name: 42 } })).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('answers 422 missing_required_fields for required fields absent or null, in schema order, before any field code', async () => {
    expect(await answer({ body: { size: -1 } })).toEqual({
      status: 422,
      code: 'missing_required_fields',
      fields: ['name'],
    });
    expect(await answer({ body: { name: null } })).toEqual({
      status: 422,
      code: 'missing_required_fields',
      fields: ['name', 'size'],
    });
  });

  it("answers a field's own code once nothing required is missing", async () => {
    expect(await answer({ body: { name: 'a', size: '10' } })).toEqual({
      status: 422,
      code: 'invalid_file_size',
    });
  });

  it('answers 400 invalid_body with the fields for a wrong type, null in an optional field included', async () => {
    expect(await answer({ body: { name: 42, size: 1 } })).toEqual({
      status: 400,
      code: 'invalid_body',
      fields: ['name'],
    });
    expect(await answer({ body: { name: 'a', size: 1, note: null } })).toEqual({
      status: 400,
      code: 'invalid_body',
      fields: ['note'],
    });
  });

  it('answers 400 invalid_body for a body that is not a JSON object', async () => {
    expect(await answer({ body: [1, 2] })).toEqual({ status: 400, code: 'invalid_body' });
  });
});

describe('text holding U+0000', () => {
  it('is refused wherever it sits, with the field it is in, before the schema runs', async () => {
    expect(await answer({ body: { name: 'a\u0000b', size: 1 } })).toEqual({
      status: 400,
      code: 'invalid_body',
      fields: ['name'],
    });
    expect(await answer({ body: { name: 'a', size: 1, note: '\u0000' } })).toEqual({
      status: 400,
      code: 'invalid_body',
      fields: ['note'],
    });
    expect(await answer({ params: { uuid: '\u0000' }, body: { name: 'a', size: 1 } })).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('is left to the markdown reader inside edit operations, which replaces it as CommonMark says', async () => {
    const Operations = z.object({
      body: z.object({ operations: z.array(z.object({ markdown: z.string() })) }),
    });
    const ctx = {
      params: {},
      query: {},
      request: { body: { operations: [{ markdown: 'a\u0000b' }] } },
      state: {},
    } as any;
    await validate(Operations, driveInput)(ctx, async () => {});
    expect(ctx.state.input.body.operations[0].markdown).toBe('a\u0000b');
  });
});
