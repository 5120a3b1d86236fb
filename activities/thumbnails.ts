// Activities of the thumbnail workflow: thin wrappers of domain/drive/thumbnails.ts, safe to retry, with a bound on
// how many images this worker decodes at once (the memory bound of docs/drive-thumbnails.md § Limits).
import {
  recordThumbnailFailure,
  renderVersionThumbnail,
  type ThumbnailIds,
  type ThumbnailOutcome,
} from '../domain/drive/thumbnails.js';
import {
  renderThumbnail,
  type RenderLimits,
  type RenderedThumbnail,
} from '../domain/drive/thumbnail-render.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

/** Runs at most `slots` renders at a time; the others wait their turn (heartbeating meanwhile). */
export function renderSlots(slots: () => number, render: typeof renderThumbnail = renderThumbnail) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (source: Buffer, limits: RenderLimits): Promise<RenderedThumbnail> => {
    while (running >= Math.max(1, slots())) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await render(source, limits);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export function createThumbnailActivities(deps: ActivityDeps) {
  const render = renderSlots(() => deps.settings().thumbnails.concurrency);
  return {
    /**
     * Renders and stores the version's thumbnail, or records that it has none; a retry finds the row and stops.
     * has_preview turning true is a committed Drive change: devices hear of it now, not at the next outbox sweep.
     */
    async renderFileThumbnail(input: ThumbnailIds): Promise<ThumbnailOutcome> {
      const { concurrency: _, ...limits } = deps.settings().thumbnails;
      const outcome = await heartbeating(() =>
        renderVersionThumbnail(
          {
            db: deps.db,
            objects: deps.objects,
            masterKey: deps.masterKey,
            limits,
            render,
          },
          input,
        ),
      );
      if (outcome === 'ready') await deps.workflows.dispatchDrivePushes(deps.db);
      return outcome;
    },

    /** The version ends with no preview after its render gave up. */
    async recordThumbnailFailure(input: ThumbnailIds & { reason: string }): Promise<'failed' | 'gone'> {
      return recordThumbnailFailure(deps.db, input, input.reason);
    },
  };
}
