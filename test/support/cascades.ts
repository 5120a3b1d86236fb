// Waiting in Drive tests: for the latest cascade on a root to end, and for a condition to hold.
import type { DriveCascadeResult } from '../../workflows/drive-trash.js';
import { driveCascadeWorkflowId } from '../../workflows/ids.js';
import { operationsOn } from '../../domain/drive/trash.js';
import { db } from '../../platform/database.js';
import { temporalClient } from '../../platform/temporal.js';

/** Waits for the latest cascade on the root and returns its result. */
export async function settle(rootUuid: string): Promise<DriveCascadeResult> {
  const [operation] = await operationsOn(db(), rootUuid);
  const client = await temporalClient();
  return client.workflow.getHandle(driveCascadeWorkflowId(operation!.kind, rootUuid, operation!.uuid)).result();
}

/** Polls `check` until it holds; on a timeout the error lists the database sessions, to show who waits on what. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const sessions = await db().raw(`select state, wait_event_type, left(query, 120) as query from pg_stat_activity where datname = current_database()`);
      throw new Error(`condition not reached in time; sessions: ${JSON.stringify(sessions.rows)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
