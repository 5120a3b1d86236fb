// Which activity errors end the activity at once (non-retryable) and which are left to the retry policy.
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { neverSucceeds, permanent, permanentFailures, permanentWhen } from '../../../activities/failures.js';
import { AppError, notFound } from '../../../domain/errors.js';

const pgError = (code: string) => Object.assign(new Error('database said no'), { code });

describe('neverSucceeds', () => {
  it('takes a value the database can never accept, and a domain refusal of the request itself, as permanent', () => {
    expect(neverSucceeds(pgError('22P02'))).toBe(true); // invalid_text_representation: a malformed uuid
    expect(neverSucceeds(notFound())).toBe(true);
  });

  it('leaves outages, conflicts, rates and bugs to the retry policy', () => {
    expect(neverSucceeds(pgError('57P01'))).toBe(false); // admin_shutdown
    expect(neverSucceeds(pgError('40001'))).toBe(false); // serialization_failure
    expect(neverSucceeds(pgError('42703'))).toBe(false); // undefined_column: a deploy fixes it
    expect(neverSucceeds(new AppError(409, 'conflict', 'busy'))).toBe(false);
    expect(neverSucceeds(new AppError(500, 'internal_error', 'boom'))).toBe(false);
    expect(neverSucceeds(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      false,
    );
    expect(neverSucceeds(undefined)).toBe(false);
  });
});

describe('permanent', () => {
  it('wraps the error as a non-retryable failure that keeps its message, type and cause', () => {
    const cause = notFound('no such document');
    const failure = permanent(cause);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ nonRetryable: true, type: 'not_found', message: cause.message, cause });
    expect(permanent(failure)).toBe(failure);
    expect(permanent('plain text')).toMatchObject({
      nonRetryable: true,
      type: 'Error',
      message: 'plain text',
    });
  });
});

describe('permanentWhen and the worker interceptor', () => {
  it('fails for good only on what the predicate recognises, and passes results and other errors through', async () => {
    await expect(
      permanentWhen(
        () => true,
        async () => 7,
      ),
    ).resolves.toBe(7);
    await expect(
      permanentWhen(
        (error) => error instanceof RangeError,
        () => Promise.reject(new RangeError('bad')),
      ),
    ).rejects.toMatchObject({ nonRetryable: true });
    const transient = new Error('timeout');
    await expect(
      permanentWhen(
        (error) => error instanceof RangeError,
        () => Promise.reject(transient),
      ),
    ).rejects.toBe(transient);
  });

  it('applies neverSucceeds to every activity the worker runs', async () => {
    const execute = permanentFailures({} as never).inbound!.execute!;
    const input = { args: [], headers: {} } as never;
    await expect(execute(input, () => Promise.reject(pgError('22P02')))).rejects.toMatchObject({
      nonRetryable: true,
      type: 'Error',
    });
    const outage = pgError('57P01');
    await expect(execute(input, () => Promise.reject(outage))).rejects.toBe(outage);
    await expect(execute(input, () => Promise.resolve('ok'))).resolves.toBe('ok');
  });
});
