// The bare engine for bench/webhooks.ts: a workflow that makes one attempt as a local activity, the kind of activity a
// Folio delivery makes (workflows/webhook-delivery.ts runs every attempt as a local activity), and answers as a
// delivery does. No search attribute, no retry schedule, no claim: the least a delivery through Temporal needs.
import { proxyLocalActivities } from '@temporalio/workflow';

const { benchAttempt } = proxyLocalActivities<{ benchAttempt(): Promise<number> }>({
  startToCloseTimeout: '1 minute',
});

export async function benchBareDeliveryWorkflow(): Promise<{ outcome: 'succeeded'; attempts: number }> {
  await benchAttempt();
  return { outcome: 'succeeded', attempts: 1 };
}
