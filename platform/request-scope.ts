// The request id of the operation running now, wherever it runs: an API request, a workflow it started (the memo),
// or an activity of that workflow (a Temporal header). Every log line written inside the scope carries it
// (platform/logger.ts), so one id finds an operation in the API log, the Temporal UI and the worker log.
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return scope.run(requestId, work);
}

export function currentRequestId(): string | undefined {
  return scope.getStore();
}
