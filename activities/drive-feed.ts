// Activities over the Drive change log: pruning what is older than the retention.
import type { Knex } from 'knex';
import { pruneChangeLog } from '../domain/drive/feed.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

// Stands in for the Drive change-log module's pruneChangeLogsBefore(knex, cutoff) until it lands; then this function
// goes and the activity imports that one, unchanged otherwise.
async function pruneChangeLogsBefore(knex: Knex, cutoff: Date): Promise<number> {
  const ends = (await knex('drive_changes')
    .select('workspace_uuid')
    .max('seq as seq')
    .where('created_at', '<', cutoff)
    .groupBy('workspace_uuid')) as { workspace_uuid: string; seq: string }[];
  for (const end of ends) await pruneChangeLog(knex, end.workspace_uuid, end.seq);
  return ends.length;
}

export function createDriveFeedActivities(deps: Pick<ActivityDeps, 'db' | 'settings'>) {
  return {
    /**
     * Prunes every workspace's log through its newest row older than the retention: the given one (a one-off run),
     * else FOLIO_CHANGE_LOG_RETENTION as this worker has it now, so a changed setting applies at the next run.
     * Pruning the same range twice changes nothing, so a retry is harmless.
     */
    async pruneChangeLogs(input: { retentionMs?: number }): Promise<{ workspaces: number }> {
      const cutoff = new Date(Date.now() - (input.retentionMs ?? deps.settings().changeLogRetentionMs));
      return { workspaces: await heartbeating(() => pruneChangeLogsBefore(deps.db, cutoff)) };
    },
  };
}
