// UnitOfWork.commitBeforeFlush (workflows/outbox.ts runInTransaction): the transaction's commit does not wait for the
// WAL flush, so the locks it holds go at once, and the runner waits for a flush that covers that commit before it
// returns, so what the caller then answers is durable. Nothing but the COMMIT follows the work's last statement: the
// push fan-outs the transaction recorded are read with the flush. Seen in the statements the runner sends and when
// they answer.
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { workflowClient } from '../../../workflows/client.js';
import { makeUser } from '../../support/api.js';

/** The statements of this test's transaction and its flush, in the order they were sent and answered. */
function recordStatements(knex: Knex) {
  const steps: string[] = [];
  // Every statement but the test's own set-up (makeUser ran before the recorder started).
  const ours = (sql: string) => !/^BEGIN/i.test(sql);
  const sent = (query: { sql: string }) => {
    if (ours(query.sql)) steps.push(`sent ${query.sql}`);
  };
  const answered = (_response: unknown, query: { sql: string }) => {
    if (ours(query.sql)) steps.push(`answered ${query.sql}`);
  };
  knex.on('query', sent).on('query-response', answered);
  return {
    steps,
    stop: () => knex.removeListener('query', sent).removeListener('query-response', answered),
  };
}

async function touchWorkspace(commitBeforeFlush: boolean) {
  const user = await makeUser();
  const recorder = recordStatements(db());
  try {
    await workflowClient().runInTransaction(db())(async (unit) => {
      if (commitBeforeFlush) await unit.commitBeforeFlush();
      // A write (WAL to flush), tagged so the recorder finds it.
      await unit.tx.raw(`update workspaces set name = name where uuid = ? /* folio_commit_flush_probe */`, [
        user.workspaceUuid,
      ]);
    });
    recorder.steps.push('returned');
  } finally {
    recorder.stop();
  }
  return recorder.steps;
}

const indexOf = (steps: string[], pattern: RegExp) => steps.findIndex((step) => pattern.test(step));

describe('a transaction that commits before its flush', () => {
  it('commits with synchronous_commit off, the COMMIT right after the work, and returns once a later flush answered', async () => {
    const steps = await touchWorkspace(true);
    // knex reports a COMMIT when it sends it, not when it is answered; the runner sends the flush once the transaction
    // resolved, which is after the answer.
    const setOff = indexOf(steps, /^answered .*set_config\('synchronous_commit', 'off', true\)/);
    const probeAnswered = indexOf(steps, /^answered .*folio_commit_flush_probe/);
    const commitSent = indexOf(steps, /^sent COMMIT/i);
    const flushSent = indexOf(steps, /^sent .*pg_logical_emit_message\(true/);
    const flushAnswered = indexOf(steps, /^answered .*pg_logical_emit_message\(true/);
    expect(setOff, steps.join('\n')).toBeGreaterThan(-1);
    expect(probeAnswered).toBeGreaterThan(setOff);
    expect(commitSent).toBe(probeAnswered + 1);
    expect(flushSent).toBeGreaterThan(commitSent);
    expect(flushAnswered).toBeGreaterThan(flushSent);
    expect(steps.indexOf('returned')).toBeGreaterThan(flushAnswered);
  });

  it('leaves a transaction that did not ask to commit and flush as PostgreSQL is configured', async () => {
    const steps = await touchWorkspace(false);
    expect(indexOf(steps, /^sent COMMIT/i), steps.join('\n')).toBeGreaterThan(-1);
    expect(indexOf(steps, /synchronous_commit/)).toBe(-1);
    expect(indexOf(steps, /pg_logical_emit_message/)).toBe(-1);
  });
});
