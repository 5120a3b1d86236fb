// Activities over the Drive change log: pruning what is older than the retention.
import { pruneChangeLogsBefore } from '../domain/drive/change-log.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export function createDriveFeedActivities(deps: Pick<ActivityDeps, 'db' | 'settings'>) {
  return {
    /**
     * Prunes every workspace's log through its newest row older than the retention: the given one (a one-off run),
     * else FOLIO_CHANGE_LOG_RETENTION as this worker has it now, so a changed setting applies at the next run.
     * Pruning the same range twice changes nothing, so a retry is harmless.
     */
    async pruneChangeLogs(input: { retentionMs?: number }): Promise<{ workspaces: number }> {
      const cutoff = new Date(Date.now() - (input.retentionMs ?? deps.settings().changeLogRetentionMs));
      return heartbeating(() => pruneChangeLogsBefore(deps.db, cutoff));
    },
  };
}
