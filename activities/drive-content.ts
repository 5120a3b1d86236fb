// Activities of the upload and replace lifecycles: thin, idempotent wrappers of domain/drive/content.ts.
import { purgeSupersededVersions, settleReplace, settleUpload, type ReplaceState, type UploadState } from '../domain/drive/content.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export function createDriveContentActivities(deps: ActivityDeps) {
  return {
    /** Expires an upload still in flight when `expired`; otherwise reports where it stands. */
    async settleUpload(input: { workspaceUuid: string; fileUuid: string; expired: boolean }): Promise<UploadState> {
      return heartbeating(() => settleUpload(deps, input, input.expired));
    },

    /** Expires a replacement still staged when `expired`; otherwise reports where it stands. */
    async settleReplace(input: { workspaceUuid: string; fileUuid: string; versionUuid: string; expired: boolean }): Promise<ReplaceState> {
      return heartbeating(() => settleReplace(deps, input, input.expired));
    },

    /** Deletes the objects and rows of the versions this replacement retired; a retry finds less to do. */
    async purgeSupersededVersions(input: { versionUuid: string }): Promise<{ purged: number }> {
      return heartbeating(async () => ({ purged: await purgeSupersededVersions(deps, input.versionUuid) }));
    },
  };
}
