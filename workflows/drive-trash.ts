// The trash, restore and permanent-delete cascades over a folder's subtree: bounded batches until the subtree
// is in the target state, continuing as new before the history grows large. The API changes the root itself
// and starts the workflow in its transaction; the state lives in the database, the input holds ids only.
import { continueAsNew, log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { CASCADE_BATCH, SHORT_DATABASE_STEP } from './activity-profiles.js';

const { trashCascadeBatch, restoreCascadeBatch, deleteCascadeBatch } =
  proxyActivities<Activities>(CASCADE_BATCH);
const { finishTrashOperation } = proxyActivities<Activities>(SHORT_DATABASE_STEP);

/** Batches per run before continuing as new: about 6 history events each, far below the suggested limit. */
const BATCHES_PER_RUN = 200;

interface DriveCascadeInput {
  /** drive_trash_operations.uuid: the operation the API recorded with the root's change. */
  operationUuid: string;
  rootUuid: string;
  workspaceUuid: string;
}

export interface DriveCascadeResult {
  /** completed: the subtree reached the target state; superseded: a later operation on the root took over;
   *  abandoned: the API transaction that started the workflow rolled back. */
  outcome: 'completed' | 'superseded' | 'abandoned';
  /** Items the cascade changed: the descendants for a trash or restore (the API changed the root); for a
   *  delete every row removed, the root included. */
  itemsChanged: number;
}

export type TrashCascadeInput = DriveCascadeInput;
export type TrashCascadeResult = DriveCascadeResult;
export type RestoreCascadeInput = DriveCascadeInput;
export type RestoreCascadeResult = DriveCascadeResult;
export type DeleteCascadeInput = DriveCascadeInput;
export type DeleteCascadeResult = DriveCascadeResult;

type Batch = (input: {
  operationUuid: string;
  rootUuid: string;
}) => Promise<{ state: 'continue' | 'done' | 'superseded' | 'abandoned'; changed: number }>;

async function cascade(
  name: string,
  batch: Batch,
  input: DriveCascadeInput,
  again: (next: DriveCascadeInput) => Promise<never>,
): Promise<DriveCascadeResult> {
  for (let batches = 0; ; batches++) {
    if (batches >= BATCHES_PER_RUN || workflowInfo().continueAsNewSuggested) return again(input);
    const { state } = await batch({ operationUuid: input.operationUuid, rootUuid: input.rootUuid });
    if (state === 'continue') continue;
    if (state === 'abandoned') {
      log.info(`${name}: the operation was never committed`, { operationUuid: input.operationUuid });
      return { outcome: 'abandoned', itemsChanged: 0 };
    }
    const outcome = state === 'done' ? 'completed' : 'superseded';
    // The tally lives with the operation (each batch adds to it in its transaction), so it is exact after a crash.
    const itemsChanged = await finishTrashOperation({ operationUuid: input.operationUuid, outcome });
    log.info(`${name} ${outcome}`, {
      operationUuid: input.operationUuid,
      rootUuid: input.rootUuid,
      itemsChanged,
    });
    return { outcome, itemsChanged };
  }
}

/** Trashes every live descendant of a trashed folder, with trashed_with = the folder. */
export async function trashCascadeWorkflow(input: TrashCascadeInput): Promise<TrashCascadeResult> {
  return cascade('trash cascade', trashCascadeBatch, input, (next) =>
    continueAsNew<typeof trashCascadeWorkflow>(next),
  );
}

/** Restores the descendants trashed with the restored folder. */
export async function restoreCascadeWorkflow(input: RestoreCascadeInput): Promise<RestoreCascadeResult> {
  return cascade('restore cascade', restoreCascadeBatch, input, (next) =>
    continueAsNew<typeof restoreCascadeWorkflow>(next),
  );
}

/** Removes a deleted item's subtree leaves-first, with its stored bytes, and finally the item itself. */
export async function deleteCascadeWorkflow(input: DeleteCascadeInput): Promise<DeleteCascadeResult> {
  return cascade('delete cascade', deleteCascadeBatch, input, (next) =>
    continueAsNew<typeof deleteCascadeWorkflow>(next),
  );
}
