// Activities of the trash, restore and permanent-delete cascades: one bounded batch each, idempotent because
// every batch picks what is not yet in the target state (domain/drive/trash-cascade.ts).
import {
  deleteCascadeBatch,
  finishTrashOperation,
  restoreCascadeBatch,
  trashCascadeBatch,
  type CascadeBatchInput,
  type CascadeBatchResult,
} from '../domain/drive/trash-cascade.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export function createDriveTrashActivities(deps: ActivityDeps) {
  // A batch commits its changes in its own transaction: devices hear of them now, not at the next outbox sweep.
  const announced = async (result: CascadeBatchResult) => {
    await deps.workflows.dispatchDrivePushes(deps.db);
    return result;
  };
  return {
    async trashCascadeBatch(input: CascadeBatchInput): Promise<CascadeBatchResult> {
      return heartbeating(async () => announced(await trashCascadeBatch(deps.db, input)));
    },
    async restoreCascadeBatch(input: CascadeBatchInput): Promise<CascadeBatchResult> {
      return heartbeating(async () => announced(await restoreCascadeBatch(deps.db, input)));
    },
    async deleteCascadeBatch(input: CascadeBatchInput): Promise<CascadeBatchResult> {
      return heartbeating(async (beat) => announced(await deleteCascadeBatch(deps, input, undefined, beat)));
    },
    async finishTrashOperation(input: {
      operationUuid: string;
      outcome: 'completed' | 'superseded';
    }): Promise<number> {
      return heartbeating(() => finishTrashOperation(deps.db, input));
    },
  };
}
