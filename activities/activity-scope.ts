// Every activity run logs one line when it ends (like the API's one line per request), inside the scope of the request
// that started its workflow: the header the workflow interceptors add (workflows/interceptors.ts) names it, so the
// line, and whatever the activity logs, carry that request id. An activity with more to tell about its run (a webhook
// attempt: destination, event, status) adds fields to that line rather than writing one of its own.
import { AsyncLocalStorage } from 'node:async_hooks';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { logger } from '../platform/logger.js';
import { runWithRequestId } from '../platform/request-scope.js';
import { REQUEST_ID_HEADER } from '../platform/request-id-carriers.js';

interface LineNotes {
  fields: Record<string, unknown>;
  warn: boolean;
}

const notes = new AsyncLocalStorage<LineNotes>();

/**
 * Adds fields to the `activity` line the running activity ends with (ids, numbers and outcomes only, like every log
 * line); `warn` logs it at warn even when the activity completes. Outside an activity run it does nothing.
 */
export function noteOnActivityLine(fields: Record<string, unknown>, options: { warn?: boolean } = {}): void {
  const current = notes.getStore();
  if (!current) return;
  Object.assign(current.fields, fields);
  if (options.warn) current.warn = true;
}

export const activityScope: ActivityInterceptorsFactory = (context) => ({
  inbound: {
    execute(input, next) {
      const header = input.headers[REQUEST_ID_HEADER];
      const requestId: unknown = header ? defaultPayloadConverter.fromPayload(header) : undefined;
      const noted: LineNotes = { fields: {}, warn: false };
      const run = () =>
        notes.run(noted, async () => {
          const started = performance.now();
          const { activityType, attempt, workflowExecution } = context.info;
          const line = (outcome: 'completed' | 'failed') => ({
            category: 'activity',
            activity: activityType,
            workflow_id: workflowExecution?.workflowId,
            attempt,
            ...noted.fields,
            outcome,
            duration_ms: Math.round(performance.now() - started),
          });
          try {
            const result = await next(input);
            logger[noted.warn ? 'warn' : 'info'](line('completed'), 'activity');
            return result;
          } catch (error) {
            logger.warn({ ...line('failed'), error: (error as Error).name }, 'activity');
            throw error;
          }
        });
      return typeof requestId === 'string' ? runWithRequestId(requestId, run) : run();
    },
  },
});
