// The Drive push fan-out of one workspace (docs/drive-push.md): every committed batch of changes signals it (through
// the workflow outbox); it gathers changes for a short window, then pushes each active subscription whose user can
// see something that changed, once, and moves the workspace's cursor. Rounds are at least a window apart, so a burst
// of a thousand changes makes a handful of pushes per device. It ends after a quiet spell; the next change starts it.
import {
  condition,
  continueAsNew,
  defineSignal,
  log,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { SHORT_DATABASE_STEP } from './activity-profiles.js';

const { collectDrivePushTargets, advanceDrivePushCursor } = proxyActivities<Activities>(SHORT_DATABASE_STEP);

/**
 * One push to one device. 429, 5xx and network failures back off and retry (about two minutes in all); a push that
 * still fails is dropped, since the next change pushes again and the feed loses nothing. A device the push service
 * reports gone is not a failure: the activity unregisters it.
 */
const { sendDrivePush } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 8,
  },
});

/** "Changes committed in this workspace": sent with every fan-out start (signal-with-start). */
export const drivePushChangesSignal = defineSignal('drivePushChanges');

export interface DrivePushInput {
  workspaceUuid: string;
  /** FOLIO_PUSH_COALESCE_WINDOW: how long changes gather before a round pushes. */
  windowMs: number;
  /** FOLIO_PUSH_IDLE: how long without changes before the workflow ends. */
  idleMs: number;
  /** Carried over continue-as-new: changes signalled but not yet pushed. */
  pending?: boolean;
}

export interface DrivePushResult {
  rounds: number;
  pushes: number;
}

/** Rounds per run before continue-as-new keeps the history small (each round is a few events per device). */
const ROUNDS_PER_RUN = 100;

export async function drivePushWorkflow(input: DrivePushInput): Promise<DrivePushResult> {
  let pending = input.pending ?? false;
  setHandler(drivePushChangesSignal, () => {
    pending = true;
  });
  let rounds = 0;
  let pushes = 0;
  for (;;) {
    await condition(() => pending, input.idleMs);
    if (!pending) return { rounds, pushes };
    // Let the rest of the burst commit, so one push covers it.
    await sleep(input.windowMs);
    pending = false;
    const targets = await collectDrivePushTargets({ workspaceUuid: input.workspaceUuid });
    const results = await Promise.allSettled(
      targets.subscriptionUuids.map((subscriptionUuid) => sendDrivePush({ subscriptionUuid })),
    );
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') {
        if (result.value === 'sent') pushes++;
      } else {
        log.warn('push dropped after its retries', {
          subscriptionUuid: targets.subscriptionUuids[index],
          error: String(result.reason),
        });
      }
    });
    await advanceDrivePushCursor({ workspaceUuid: input.workspaceUuid, throughSeq: targets.throughSeq });
    rounds++;
    if (rounds >= ROUNDS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof drivePushWorkflow>({ ...input, pending });
    }
  }
}
