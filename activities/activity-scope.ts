// Every activity run logs one line when it ends (like the API's one line per request), inside the scope of the request
// that started its workflow: the header the workflow interceptors add (workflows/interceptors.ts) names it, so the
// line, and whatever the activity logs, carry that request id.
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { logger } from '../platform/logger.js';
import { runWithRequestId } from '../platform/request-scope.js';
import { REQUEST_ID_HEADER } from '../platform/request-id-carriers.js';

export const activityScope: ActivityInterceptorsFactory = (context) => ({
  inbound: {
    execute(input, next) {
      const header = input.headers[REQUEST_ID_HEADER];
      const requestId: unknown = header ? defaultPayloadConverter.fromPayload(header) : undefined;
      const run = async () => {
        const started = performance.now();
        const { activityType, attempt, workflowExecution } = context.info;
        const line = {
          category: 'activity',
          activity: activityType,
          workflow_id: workflowExecution?.workflowId,
          attempt,
        };
        try {
          const result = await next(input);
          logger.info(
            { ...line, outcome: 'completed', duration_ms: Math.round(performance.now() - started) },
            'activity',
          );
          return result;
        } catch (error) {
          logger.warn(
            {
              ...line,
              outcome: 'failed',
              duration_ms: Math.round(performance.now() - started),
              error: (error as Error).name,
            },
            'activity',
          );
          throw error;
        }
      };
      return typeof requestId === 'string' ? runWithRequestId(requestId, run) : run();
    },
  },
});
