// The one `activity` line an activity run ends with: the fields the activity noted on it, at warn when it asked,
// and the ones known by then when it throws; nothing noted outside a run.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityScope, noteOnActivityLine } from '../../../activities/activity-scope.js';
import { logger } from '../../../platform/logger.js';

const context = {
  info: { activityType: 'attemptWebhookDelivery', attempt: 1, workflowExecution: { workflowId: 'wf-1' } },
} as never;
const execute = activityScope(context).inbound!.execute!;
const input = { args: [], headers: {} } as never;

const lines = () => {
  const info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
  const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
  return { info: info.mock.calls, warn: warn.mock.calls };
};

afterEach(() => vi.restoreAllMocks());

describe('the activity line', () => {
  it('is one line that carries what the activity noted, including across awaits', async () => {
    const logged = lines();
    await execute(input, async () => {
      noteOnActivityLine({ destination_uuid: 'd-1', webhook_attempt: 2 });
      await new Promise((resolve) => setTimeout(resolve, 1));
      noteOnActivityLine({ status_code: 500, webhook_outcome: 'failure' });
      return 'done';
    });
    expect(logged.warn).toEqual([]);
    expect(logged.info).toEqual([
      [
        {
          category: 'activity',
          activity: 'attemptWebhookDelivery',
          workflow_id: 'wf-1',
          attempt: 1,
          destination_uuid: 'd-1',
          webhook_attempt: 2,
          status_code: 500,
          webhook_outcome: 'failure',
          outcome: 'completed',
          duration_ms: expect.any(Number),
        },
        'activity',
      ],
    ]);
  });

  it('is logged at warn when the activity asks, and when it fails, with what was noted before the error', async () => {
    const logged = lines();
    await execute(input, async () => noteOnActivityLine({ webhook_outcome: 'disabled' }, { warn: true }));
    const boom = new TypeError('no');
    await expect(
      execute(input, async () => {
        noteOnActivityLine({ destination_uuid: 'd-2' });
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(logged.info).toEqual([]);
    expect(logged.warn).toEqual([
      [expect.objectContaining({ webhook_outcome: 'disabled', outcome: 'completed' }), 'activity'],
      [
        expect.objectContaining({ destination_uuid: 'd-2', outcome: 'failed', error: 'TypeError' }),
        'activity',
      ],
    ]);
    // Each run starts with nothing noted: the second line has nothing of the first.
    expect(logged.warn[1]![0]).not.toHaveProperty('webhook_outcome');
  });

  it('notes nothing outside an activity run', () => {
    const logged = lines();
    noteOnActivityLine({ destination_uuid: 'd-3' });
    expect([...logged.info, ...logged.warn]).toEqual([]);
  });
});
