// The message of a refused API request (cli/errors.ts, docs/cli.md § Errors and exit codes): the API's own words or
// Drive's code in words, never the whole error body; `code` and `status` keep the machine-readable part.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../clients/typescript/src/index.js';
import { describeError } from '../../../cli/errors.js';

/** An answer as the client builds it from any body (the API's types do not matter to the message). */
const refusal = (status: number, body: object | string) =>
  describeError(new ApiError(status, body as ConstructorParameters<typeof ApiError>[1], 'POST /v1/somewhere'))
    .answer.error;

describe('describeError of an API refusal', () => {
  it('says a Documents error with its error_description', () => {
    expect(
      refusal(422, {
        error: 'target_ambiguous',
        error_description: 'The quote occurs 3 times; say which with occurrence.',
        operation: 0,
        retryable: true,
      }),
    ).toEqual({
      code: 'target_ambiguous',
      message: 'The quote occurs 3 times; say which with occurrence.',
      status: 422,
    });
  });

  it("says a Drive error as its code in words with the row's fields, leaving out an item in the body", () => {
    expect(refusal(422, { error: 'storage_limit_exceeded', pool_bytes: 1000 })).toEqual({
      code: 'storage_limit_exceeded',
      message: 'storage limit exceeded (pool_bytes: 1000)',
      status: 422,
    });
    expect(refusal(422, { error: 'missing_required_fields', fields: ['name', 'folder_uuid'] }).message).toBe(
      'missing required fields (fields: name, folder_uuid)',
    );
    const current = { object: 'drive_file', uuid: 'f', name: 'report.pdf', ctag: 3 };
    expect(refusal(412, { error: 'precondition_failed', current }).message).toBe('precondition failed');
  });

  it('says only the status of an answer without an error code, not its body', () => {
    expect(refusal(502, '<html><body>Bad gateway from the proxy</body></html>')).toEqual({
      code: 'http_502',
      message: 'the server answered 502',
      status: 502,
    });
  });
});
