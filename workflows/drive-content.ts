// Lifecycles of Drive bytes in flight: a new file's upload, and a content replacement with the retention of
// the version it retires. The API completes and aborts; these workflows expire what nobody finished and purge
// retired versions. Ids only in inputs, results and signals.
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
import { LONG_STORAGE_WORK } from './activity-profiles.js';

/** A settle may discard an expired upload's stored parts; a purge removes every version a replacement retired. */
const { settleUpload, settleReplace, purgeSupersededVersions } =
  proxyActivities<Activities>(LONG_STORAGE_WORK);

/** Sent by the API after it commits a complete or abort; wakes the workflow to look at the outcome. */
export const uploadSettledSignal = defineSignal('uploadSettled');

export interface UploadLifecycleInput {
  workspaceUuid: string;
  fileUuid: string;
  /** How long the upload may stay unfinished (config uploadExpiryMs when it started). */
  expiresInMs: number;
}

export interface UploadLifecycleResult {
  outcome: 'completed' | 'aborted' | 'expired';
}

export async function uploadLifecycleWorkflow(input: UploadLifecycleInput): Promise<UploadLifecycleResult> {
  let woken = false;
  setHandler(uploadSettledSignal, () => {
    woken = true;
  });
  const deadline = Date.now() + input.expiresInMs;
  for (;;) {
    // A signal may already be buffered (delivered when the handler is set), so reset only after waking.
    const signalled = await condition(() => woken, Math.max(1, deadline - Date.now()));
    woken = false;
    const state = await settleUpload({
      workspaceUuid: input.workspaceUuid,
      fileUuid: input.fileUuid,
      expired: !signalled,
    });
    if (state !== 'uploading') {
      log.info('upload settled', { fileUuid: input.fileUuid, outcome: state });
      return { outcome: state };
    }
    // Only a signal that changed nothing gets here; should they pile up, a new run keeps the same deadline.
    if (!woken && workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof uploadLifecycleWorkflow>({
        ...input,
        expiresInMs: Math.max(1, deadline - Date.now()),
      });
    }
  }
}

export const replaceSettledSignal = defineSignal('replaceSettled');

export interface ReplaceLifecycleInput {
  workspaceUuid: string;
  fileUuid: string;
  versionUuid: string;
  expiresInMs: number;
  /** How long the version this replacement retires is kept (config fileVersionRetentionMs when it started). */
  retentionMs: number;
}

export interface ReplaceLifecycleResult {
  outcome: 'completed' | 'aborted' | 'expired';
  purgedVersions: number;
}

export async function replaceLifecycleWorkflow(
  input: ReplaceLifecycleInput,
): Promise<ReplaceLifecycleResult> {
  let woken = false;
  setHandler(replaceSettledSignal, () => {
    woken = true;
  });
  const ids = {
    workspaceUuid: input.workspaceUuid,
    fileUuid: input.fileUuid,
    versionUuid: input.versionUuid,
  };
  const deadline = Date.now() + input.expiresInMs;
  for (;;) {
    // A signal may already be buffered (delivered when the handler is set), so reset only after waking.
    const signalled = await condition(() => woken, Math.max(1, deadline - Date.now()));
    woken = false;
    const settled = await settleReplace({ ...ids, expired: !signalled });
    if (settled.state === 'staged') {
      // As for uploads: a run of signals that changed nothing continues as new, with the same deadline.
      if (!woken && workflowInfo().continueAsNewSuggested) {
        return continueAsNew<typeof replaceLifecycleWorkflow>({
          ...input,
          expiresInMs: Math.max(1, deadline - Date.now()),
        });
      }
      continue;
    }
    if (settled.state !== 'completed') return { outcome: settled.state, purgedVersions: 0 };
    // Keep the retired version for the retention period, counted from the moment it was retired.
    const retiredAt = settled.retiredAt ? Date.parse(settled.retiredAt) : Date.now();
    await sleep(Math.max(1, retiredAt + input.retentionMs - Date.now()));
    const { purged } = await purgeSupersededVersions({ versionUuid: input.versionUuid });
    log.info('retired version purged', { fileUuid: input.fileUuid, versionUuid: input.versionUuid, purged });
    return { outcome: 'completed', purgedVersions: purged };
  }
}
