// Activities of the trash, restore and permanent-delete cascades: one bounded batch each, idempotent because
// every batch picks what is not yet in the target state (domain/drive/trash.ts).
import { Context } from '@temporalio/activity';
import {
  deleteCascadeBatch,
  finishTrashOperation,
  restoreCascadeBatch,
  trashCascadeBatch,
  type CascadeBatchInput,
  type CascadeBatchResult,
} from '../domain/drive/trash.js';
import type { ActivityDeps } from './index.js';

const HEARTBEAT_EVERY_MS = 1000;

/**
 * Heartbeats while the work runs, so a worker killed mid-batch is noticed within the heartbeat timeout
 * rather than the start-to-close timeout, and the batch is retried elsewhere.
 */
async function heartbeating<T>(work: (beat: () => void) => Promise<T>): Promise<T> {
  const context = Context.current();
  const beat = () => context.heartbeat();
  beat();
  const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
  try {
    return await work(beat);
  } finally {
    clearInterval(timer);
  }
}

export function createDriveTrashActivities(deps: ActivityDeps) {
  const store = { storage: deps.storage, bucket: deps.bucket };
  return {
    async trashCascadeBatch(input: CascadeBatchInput): Promise<CascadeBatchResult> {
      return heartbeating(() => trashCascadeBatch(deps.db, input));
    },
    async restoreCascadeBatch(input: CascadeBatchInput): Promise<CascadeBatchResult> {
      return heartbeating(() => restoreCascadeBatch(deps.db, input));
    },
    async deleteCascadeBatch(input: CascadeBatchInput): Promise<CascadeBatchResult> {
      return heartbeating((beat) => deleteCascadeBatch(deps.db, store, input, undefined, beat));
    },
    async finishTrashOperation(input: { operationUuid: string; outcome: 'completed' | 'superseded' }): Promise<number> {
      return heartbeating(() => finishTrashOperation(deps.db, input));
    },
  };
}
