// Waiting in Drive tests: for the latest cascade on a root to end, for a condition to hold, and on an item's row lock.
import type { Knex } from 'knex';
import type { DriveCascadeResult } from '../../workflows/drive-trash.js';
import { driveCascadeWorkflowId } from '../../workflows/ids.js';
import { operationsOn } from '../../domain/drive/trash.js';
import { db } from '../../platform/database.js';
import { temporalClient } from '../../platform/temporal.js';

/** Waits for the latest cascade on the root and returns its result. */
export async function settle(rootUuid: string): Promise<DriveCascadeResult> {
  const [operation] = await operationsOn(db(), rootUuid);
  const client = await temporalClient();
  return client.workflow
    .getHandle(driveCascadeWorkflowId(operation!.kind, rootUuid, operation!.uuid))
    .result();
}

/** Polls `check` until it holds; on a timeout the error lists the database sessions, to show who waits on what. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const sessions = await db().raw(
        `select state, wait_event_type, left(query, 120) as query from pg_stat_activity where datname = current_database()`,
      );
      throw new Error(`condition not reached in time; sessions: ${JSON.stringify(sessions.rows)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Pins an interleaving deterministically: a transaction of the test's own locks an item's row, so whatever locks it
 * next (a cascade batch, a write's locked read) waits and commits nothing until `release`. `blocking(n)` resolves
 * once n sessions wait on the held row. A workspace row is held `for no key update`, as the pool's update takes it:
 * that update waits, while inserts whose foreign keys name the workspace do not.
 */
export async function holdRow(uuid: string, table: 'drive_items' | 'workspaces' = 'drive_items') {
  const locker: Knex.Transaction = await db().transaction();
  const lockerPid: number = (await locker.raw('select pg_backend_pid() as pid')).rows[0].pid;
  const strength = table === 'workspaces' ? 'no key update' : 'update';
  await locker.raw(`select 1 from ?? where uuid = ? for ${strength}`, [table, uuid]);
  // Sessions waiting on the held row, directly or behind another waiter (a second waiter queues on the first one's
  // tuple lock, not on the holder).
  const waiting = async () =>
    Number(
      (
        await db().raw(
          `with recursive waiter(pid) as (
             select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid))
             union select a.pid from pg_stat_activity a join waiter w on w.pid = any(pg_blocking_pids(a.pid))
           ) select count(*) as sessions from waiter`,
          [lockerPid],
        )
      ).rows[0].sessions,
    );
  return {
    blocking: (sessions = 1) => waitUntil(async () => (await waiting()) >= sessions),
    /** Once no session waits on the held row any more (one that waited has ended, its client gone). */
    unwaited: () => waitUntil(async () => (await waiting()) === 0),
    release: () => locker.rollback(),
  };
}
