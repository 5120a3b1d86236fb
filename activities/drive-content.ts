// Activities of the upload and replace lifecycles and of the staged-upload sweep: thin, idempotent wrappers of
// domain/drive/content.ts and domain/drive/staged-uploads.ts.
import {
  purgeSupersededVersions,
  settleReplace,
  settleUpload,
  type ReplaceState,
  type UploadState,
} from '../domain/drive/content.js';
import { sweepStagedUploads } from '../domain/drive/staged-uploads.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

/** How long after its request's own limit a live process may still be storing and committing a simple upload. */
const STAGED_UPLOAD_MARGIN_MS = 15 * 60_000;

export function createDriveContentActivities(deps: ActivityDeps) {
  return {
    /** Expires an upload still in flight when `expired`; otherwise reports where it stands. */
    async settleUpload(input: {
      workspaceUuid: string;
      fileUuid: string;
      expired: boolean;
    }): Promise<UploadState> {
      return heartbeating(() => settleUpload(deps, input, input.expired));
    },

    /** Expires a replacement still staged when `expired`; otherwise reports where it stands. */
    async settleReplace(input: {
      workspaceUuid: string;
      fileUuid: string;
      versionUuid: string;
      expired: boolean;
    }): Promise<ReplaceState> {
      return heartbeating(() => settleReplace(deps, input, input.expired));
    },

    /**
     * Discards what crashed simple uploads left (their API process is gone) and what no request can still be writing:
     * older than the longest request (FOLIO_HTTP_REQUEST_TIMEOUT, read now) plus a margin for its storage and commit.
     */
    async sweepStagedUploads(): Promise<{ swept: number }> {
      const maxAgeMs = deps.settings().http.requestTimeoutMs + STAGED_UPLOAD_MARGIN_MS;
      return heartbeating(async () => ({ swept: await sweepStagedUploads(deps, { maxAgeMs }) }));
    },

    /** Deletes the objects and rows of the versions this replacement retired; a retry finds less to do. */
    async purgeSupersededVersions(input: { versionUuid: string }): Promise<{ purged: number }> {
      return heartbeating(async () => ({ purged: await purgeSupersededVersions(deps, input.versionUuid) }));
    },
  };
}
