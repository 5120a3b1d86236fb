// Master-key rotation (docs/operations.md § Master-key rotation): rewraps every wrapped key under the new master key,
// table by table, a bounded page at a time. Each page is one idempotent activity, so a crash anywhere resumes at the
// page it was on; a long run continues as new with its progress, keeping the history short.
import { continueAsNew, defineQuery, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { SCHEDULED_MAINTENANCE } from './activity-profiles.js';

const { rewrapWrappedKeys } = proxyActivities<Activities>(SCHEDULED_MAINTENANCE);

export interface TableProgress {
  table: string;
  /** The last row done, where the next page starts; null before the first page. */
  after: string | null;
  scanned: number;
  rewrapped: number;
  done: boolean;
}

export interface MasterKeyRotationInput {
  /** The id of the master key every wrapped key moves to; every worker must already run with it. */
  keyId: number;
  /** The tables that hold wrapped keys (domain/master-key-rotation.ts WRAPPED_KEY_TABLES), in order. */
  tables: string[];
  pageSize: number;
  /** Carried over by continue-as-new. */
  progress?: TableProgress[];
}

/**
 * The rotation's progress by table, exported beside its workflow as every query is; cli/master-key.ts may not import
 * workflow code (eslint.config.js), so it asks for it by the name 'progress'.
 * @public
 */
export const masterKeyRotationProgress = defineQuery<TableProgress[]>('progress');

export async function masterKeyRotationWorkflow(input: MasterKeyRotationInput): Promise<TableProgress[]> {
  const progress =
    input.progress ??
    input.tables.map((table) => ({ table, after: null, scanned: 0, rewrapped: 0, done: false }));
  setHandler(masterKeyRotationProgress, () => progress);
  for (const table of progress) {
    while (!table.done) {
      const page = await rewrapWrappedKeys({
        table: table.table,
        after: table.after,
        limit: input.pageSize,
        keyId: input.keyId,
      });
      table.scanned += page.scanned;
      table.rewrapped += page.rewrapped;
      table.after = page.after ?? table.after;
      table.done = page.after === null;
      if (!table.done && workflowInfo().continueAsNewSuggested)
        await continueAsNew<typeof masterKeyRotationWorkflow>({ ...input, progress });
    }
  }
  return progress;
}
