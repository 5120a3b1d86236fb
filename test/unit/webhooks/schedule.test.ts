// The retry schedule (domain/webhooks/schedule.ts): attempt numbering and delays derive from the list of waits, as
// Svix's retry_schedule; spec/webhooks.md's is five attempts with 1 minute, 5 minutes, 30 minutes and 2 hours between.
import { describe, expect, it } from 'vitest';
import { attemptsOf, delayAfter, retrySchedule, TEST_ATTEMPTS } from '../../../domain/webhooks/schedule.js';

const MINUTE = 60_000;
const SPEC = [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE];

describe('the retry schedule', () => {
  it("makes the spec's five attempts with its four delays, and nothing after the fifth", () => {
    const schedule = retrySchedule(SPEC);
    expect(attemptsOf(schedule)).toBe(5);
    expect([1, 2, 3, 4, 5].map((attempt) => delayAfter(schedule, attempt))).toEqual([...SPEC, null]);
    expect(delayAfter(schedule, 6)).toBeNull();
  });

  it('makes one attempt more than it has waits', () => {
    const schedule = retrySchedule([1000, 2000]);
    expect(attemptsOf(schedule)).toBe(3);
    expect([1, 2, 3].map((attempt) => delayAfter(schedule, attempt))).toEqual([1000, 2000, null]);
    expect(attemptsOf(retrySchedule([]))).toBe(1);
  });

  it('is cut short by a delivery that makes fewer attempts (a webhook.test makes one)', () => {
    const test = retrySchedule(SPEC, TEST_ATTEMPTS);
    expect(attemptsOf(test)).toBe(1);
    expect(delayAfter(test, 1)).toBeNull();
    // A resend started before the schedule named its five attempts: the same schedule.
    expect(retrySchedule(SPEC, 5)).toEqual(retrySchedule(SPEC));
  });

  it('waits at least 1 ms, so the workflow never waits without a bound', () => {
    expect(delayAfter(retrySchedule([0, 5]), 1)).toBe(1);
  });

  it("refuses more waits than the spec's five attempts allow", () => {
    expect(() => retrySchedule([...SPEC, MINUTE])).toThrow(/at most 4 waits/);
  });
});
