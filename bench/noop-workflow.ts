// The bare engine for bench/webhooks.ts: a workflow that runs one activity that does nothing.
import { proxyActivities } from '@temporalio/workflow';

const { benchNoop } = proxyActivities<{ benchNoop(): Promise<void> }>({ startToCloseTimeout: '1 minute' });

export async function benchNoopWorkflow(): Promise<void> {
  await benchNoop();
}
