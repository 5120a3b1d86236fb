// Activities over the Drive change log: pruning what is older than the retention.
import { pruneChangeLog } from '../domain/drive/feed.js';
import type { ActivityDeps } from './index.js';

export function createDriveFeedActivities(deps: ActivityDeps) {
  return {
    /**
     * Prunes every workspace's log through its newest row older than the cutoff. Pruning the same range twice
     * changes nothing, so a retry is harmless.
     */
    async pruneChangeLogs(input: { cutoff: string }): Promise<{ workspaces: number }> {
      const ends = (await deps.db('drive_changes')
        .select('workspace_uuid')
        .max('seq as seq')
        .where('created_at', '<', new Date(input.cutoff))
        .groupBy('workspace_uuid')) as { workspace_uuid: string; seq: string }[];
      for (const end of ends) await pruneChangeLog(deps.db, end.workspace_uuid, end.seq);
      return { workspaces: ends.length };
    },
  };
}
