// The transactional outbox sweep: starts the workflows whose dispatch after commit failed or never ran (a crash).
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

/** Rows younger than this belong to a request that may still be dispatching them itself after its commit. */
const OUTBOX_SETTLE_MS = 30_000;

export function createWorkflowOutboxActivities(deps: Pick<ActivityDeps, 'db' | 'workflows'>) {
  return {
    /** A start Temporal already has counts as done and the row goes, so a retry or a second sweep is harmless. */
    async sweepWorkflowOutbox(): Promise<{ started: number; failed: number }> {
      return heartbeating(() => deps.workflows.sweepOutbox(deps.db, OUTBOX_SETTLE_MS));
    },
  };
}
