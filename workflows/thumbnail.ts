// The thumbnail of one file version: rendered, stored encrypted and announced through has_preview, or recorded as
// having none. Started after an upload or replacement commits, and again when a request finds no thumbnail. Ids only.
import { ActivityFailure, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { SHORT_DATABASE_STEP, THUMBNAIL_RENDER } from './activity-profiles.js';

const { renderFileThumbnail } = proxyActivities<Activities>(THUMBNAIL_RENDER);
const { recordThumbnailFailure } = proxyActivities<Activities>(SHORT_DATABASE_STEP);

export interface ThumbnailInput {
  workspaceUuid: string;
  fileUuid: string;
  versionUuid: string;
}

export interface ThumbnailResult {
  /** ready: stored; failed: the version has no preview; gone: the version or its file went first. */
  outcome: 'ready' | 'failed' | 'gone';
}

export async function thumbnailWorkflow(input: ThumbnailInput): Promise<ThumbnailResult> {
  try {
    return { outcome: await renderFileThumbnail(input) };
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    // Every attempt failed (or one failed for good): the version ends with no preview, so nothing retries it forever.
    log.warn('thumbnail render gave up', {
      fileUuid: input.fileUuid,
      versionUuid: input.versionUuid,
      cause: error.cause?.message,
    });
    return {
      outcome: await recordThumbnailFailure({
        ...input,
        reason: `rendering failed: ${error.cause?.message ?? error.message}`,
      }),
    };
  }
}
