// OpenTelemetry's workflow interceptors act only in a workflow whose start carried a trace context: any other passes
// every call through untouched (no span, no trace header on what it schedules). The traced side runs in the sandbox and
// is followed by test/integration/foundation/tracing.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { interceptors } from '../../../workflows/tracing-interceptors.js';

describe('tracing workflow interceptors', () => {
  it('pass a workflow started without a trace context, and what it schedules, through untouched', async () => {
    const { inbound, outbound, internals } = interceptors();
    const start = { args: [{ destinationUuid: 'd' }], headers: {} };
    const execute = vi.fn(async () => 'result');
    expect(await inbound![0]!.execute!(start as never, execute)).toBe('result');
    expect(execute).toHaveBeenCalledWith(start);

    const attempt = { activityType: 'attemptWebhookDelivery', headers: {}, args: [] };
    const scheduled = vi.fn(async (input: { headers: Record<string, unknown> }) => input.headers);
    expect(await outbound![0]!.scheduleLocalActivity!(attempt as never, scheduled as never)).toEqual({});
    expect(scheduled).toHaveBeenCalledWith(attempt);

    const logAttributes = { namespace: 'default' };
    expect(outbound![0]!.getLogAttributes!(logAttributes, (input) => input)).toBe(logAttributes);
    const disposed = vi.fn(async () => undefined);
    await internals![0]!.dispose!({}, disposed);
    expect(disposed).toHaveBeenCalledOnce();
  });
});
