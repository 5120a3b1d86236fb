// Workflow interceptors, loaded into the workflow sandbox by the worker (worker/main.ts, deploy/build-workflow-bundle.ts):
// each activity a workflow schedules carries the request id from the workflow's memo, so its log lines name it.
import {
  defaultPayloadConverter,
  workflowInfo,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';
import { REQUEST_ID_HEADER, REQUEST_ID_MEMO } from '../platform/request-id-carriers.js';

function requestIdHeader(): Record<string, ReturnType<typeof defaultPayloadConverter.toPayload>> {
  const requestId = workflowInfo().memo?.[REQUEST_ID_MEMO];
  return typeof requestId === 'string'
    ? { [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(requestId) }
    : {};
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity: (input, next) =>
        next({ ...input, headers: { ...input.headers, ...requestIdHeader() } }),
      scheduleLocalActivity: (input, next) =>
        next({ ...input, headers: { ...input.headers, ...requestIdHeader() } }),
    },
  ],
});
