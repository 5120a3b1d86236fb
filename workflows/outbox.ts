// The transactional outbox: a transaction (or a one-statement write) records the workflows it asks for as rows beside
// its own writes; after it commits each row's workflow is started and its row removed, and a sweep starts what a crash
// left behind. This is the
// implementation of domain/unit-of-work.ts. Not workflow code: it never runs in the sandbox.
import type { Knex } from 'knex';
import { prepared } from '../domain/prepared.js';
import type {
  RunInTransaction,
  RunOneStatement,
  WorkflowRequests,
  WorkflowStarts,
} from '../domain/unit-of-work.js';
import { outboxWorkflowId, type OutboxRequest } from './registry.js';

/** The signals a transaction may send after it commits, by what they wake. */
export interface Wakes {
  uploadLifecycle(fileUuid: string): Promise<void>;
  replaceLifecycle(versionUuid: string): Promise<void>;
  documentPurge(documentUuid: string): Promise<void>;
  retryWebhookDelivery(delivery: {
    destinationUuid: string;
    eventUuid: string;
    round?: number;
    afterAttempt: number;
  }): Promise<void>;
  terminateWebhookDelivery(
    delivery: { destinationUuid: string; eventUuid: string; round?: number },
    reason: string,
  ): Promise<void>;
}

interface OutboxSettings {
  /** Starts the registered workflow a row asks for; throws when Temporal could not be asked. */
  start(request: OutboxRequest): Promise<void>;
  wakes: Wakes;
  log: { warn(fields: object, message: string): void };
}

/** The drivePush requests this transaction's changes recorded, as one array (one row, whatever matches). */
const PUSHES_RECORDED = `select coalesce(jsonb_agg(request), '[]'::jsonb) as pushes
  from workflow_outbox
  where request->>'type' = 'drivePush' and request->>'batch' = txid_current_if_assigned()::text`;

/**
 * The first CTE of a one-statement write (RunOneStatement): its commit returns before its WAL is flushed, so its locks
 * go at once, and `batch` is the batch its push fan-outs are recorded under (drive_push_record_fanout,
 * db/migrations/015_drive_push.ts), read after the commit with the flush.
 */
const COMMIT_MODE = `commit_mode as materialized (
  select set_config('synchronous_commit', 'off', true) as mode, txid_current()::text as batch)`;

/**
 * Returns once every transaction committed before the call is on disk (and on synchronous standbys, as the
 * deployment's synchronous_commit asks): a message written in a transaction of its own, whose commit waits for the
 * WAL flush up to its record, which covers every commit record written before it. Flushes of concurrent callers are
 * grouped by PostgreSQL. Reads in the same statement the push fan-outs the committed batch recorded and not yet
 * started (another process may have started them meanwhile: then none).
 */
async function flushWalReadingPushes(knex: Knex, batch: string): Promise<OutboxRequest[]> {
  const { rows } = await prepared<{ pushes: OutboxRequest[] }>(
    knex,
    'flush_reading_pushes',
    `select pg_logical_emit_message(true, 'folio.flush', '') as flushed,
       (select coalesce(jsonb_agg(request), '[]'::jsonb) from workflow_outbox
        where request->>'type' = 'drivePush' and request->>'batch' = ?) as pushes`,
    [batch],
  );
  return rows[0]!.pushes;
}

/** The starts a transaction or a one-statement write may ask for, each handed to `record` as its outbox request. */
function workflowStarts(record: (request: OutboxRequest) => Promise<void>): WorkflowStarts {
  return {
    startDriveCascade: (cascade) => record({ type: 'driveCascade', ...cascade }),
    scheduleDocumentPurge: (document) => record({ type: 'documentPurge', ...document }),
    startWebhookDelivery: (delivery) => record({ type: 'webhookDelivery', ...delivery }),
    startThumbnail: (thumbnail) => record({ type: 'thumbnail', ...thumbnail }),
  };
}

export function outboxKit({ start, wakes, log }: OutboxSettings) {
  /** Starts the row's workflow and removes the row; on failure the row stays for the sweep. */
  async function dispatch(knex: Knex, request: OutboxRequest): Promise<boolean> {
    const workflowId = outboxWorkflowId(request);
    try {
      await start(request);
    } catch (error) {
      log.warn(
        { err: error, workflow_id: workflowId },
        'workflow start failed; the outbox sweep will retry it',
      );
      return false;
    }
    // Named and with positional bindings: outside a transaction it goes to a pooled connection straight through pg,
    // after every start a transaction asked for (domain/prepared.ts).
    await prepared(knex, 'outbox_dispatched', 'delete from workflow_outbox where workflow_id = ?', [
      workflowId,
    ]);
    return true;
  }

  /** After a commit: the outbox rows it recorded started in order, then its wakes, then its push fan-outs. */
  async function afterCommit(
    knex: Knex,
    committed: { outbox: OutboxRequest[]; signals: (() => Promise<void>)[]; pushes: OutboxRequest[] },
  ): Promise<void> {
    for (const request of committed.outbox) await dispatch(knex, request);
    for (const send of committed.signals) await send();
    // A device push is best-effort and coalesced (docs/drive-push.md), so the answer does not wait on Temporal for
    // it: the committed row is the durable record, and what this dispatch cannot start, the sweep does.
    for (const request of committed.pushes)
      void dispatch(knex, request).catch((error: unknown) =>
        log.warn(
          { err: error, workflow_id: outboxWorkflowId(request) },
          'push dispatch failed; the outbox sweep will retry it',
        ),
      );
  }

  /** One transaction per call; outbox rows and wakes it recorded go out after the commit, in order. */
  function runInTransaction(knex: Knex): RunInTransaction {
    return async (work) => {
      let outbox: OutboxRequest[] = [];
      let pushes: OutboxRequest[] = [];
      let signals: (() => Promise<void>)[] = [];
      const result = await knex.transaction(async (tx) => {
        // knex may retry the callback only on our own throw, but start clean on every entry all the same.
        outbox = [];
        pushes = [];
        signals = [];
        const record = async (request: OutboxRequest) => {
          await prepared(
            tx,
            'outbox_record',
            `insert into workflow_outbox (workflow_id, request) values (?, cast(? as jsonb))
             on conflict (workflow_id) do nothing`,
            [outboxWorkflowId(request), JSON.stringify(request)],
          );
          outbox.push(request);
        };
        const workflows: WorkflowRequests = {
          ...workflowStarts(record),
          wakeUploadLifecycle: (fileUuid) => void signals.push(() => wakes.uploadLifecycle(fileUuid)),
          wakeReplaceLifecycle: (versionUuid) => void signals.push(() => wakes.replaceLifecycle(versionUuid)),
          wakeDocumentPurge: (documentUuid) => void signals.push(() => wakes.documentPurge(documentUuid)),
          retryWebhookDelivery: (delivery) => void signals.push(() => wakes.retryWebhookDelivery(delivery)),
          terminateWebhookDelivery: (delivery, reason) =>
            void signals.push(() => wakes.terminateWebhookDelivery(delivery, reason)),
        };
        const result = await work({ tx, workflows });
        // Push fan-outs the drive_changes trigger recorded in this transaction (only for workspaces with devices).
        const { rows } = await prepared<{ pushes: OutboxRequest[] }>(
          tx,
          'pushes_recorded',
          PUSHES_RECORDED,
          [],
        );
        pushes = rows[0]!.pushes;
        return result;
      });
      await afterCommit(knex, { outbox, signals, pushes });
      return result;
    };
  }

  /** RunOneStatement (domain/unit-of-work.ts): the statement, the flush that makes it durable, then its workflows. */
  function runOneStatement(knex: Knex): RunOneStatement {
    return async <Row extends object>(write: Parameters<RunOneStatement>[0]) => {
      const outbox: OutboxRequest[] = [];
      write.workflows?.(
        workflowStarts(async (request) => {
          outbox.push(request);
        }),
      );
      const recordWorkflows = (anchor: string) =>
        outbox.length === 0
          ? 'recorded as (select)'
          : `recorded as (
               insert into workflow_outbox (workflow_id, request)
               select w.workflow_id, w.request
               from unnest(cast(:outbox_workflow_ids as text[]), cast(:outbox_requests as jsonb[])) as w(workflow_id, request)
               where exists (select 1 from ${anchor})
               on conflict (workflow_id) do nothing)`;
      const { rows } = await prepared<Row & { batch: string }>(
        knex,
        outbox.length === 0 ? write.name : `${write.name}_recording`,
        write.sql({ commitMode: COMMIT_MODE, recordWorkflows }),
        {
          ...write.bindings,
          ...(outbox.length > 0 && {
            outbox_workflow_ids: outbox.map(outboxWorkflowId),
            outbox_requests: outbox.map((request) => JSON.stringify(request)),
          }),
        },
      );
      const row = rows[0];
      if (!row) return undefined;
      const { batch, ...written } = row;
      const pushes = await flushWalReadingPushes(knex, batch);
      await afterCommit(knex, { outbox, signals: [], pushes });
      return written as unknown as Row;
    };
  }

  /**
   * Starts what crashed or failed dispatches left in the outbox (rows older than `olderThanMs`, so a request still
   * dispatching its own rows is left alone). Run by the outbox sweep schedule; safe to run anywhere, any number of times.
   */
  async function sweepOutbox(
    knex: Knex,
    olderThanMs: number,
    limit = 500,
  ): Promise<{ started: number; failed: number }> {
    const rows = (await knex('workflow_outbox')
      .where('created_at', '<', knex.raw(`now() - (? * interval '1 millisecond')`, [olderThanMs]))
      .orderBy('created_at')
      .limit(limit)) as { request: OutboxRequest }[];
    let started = 0;
    for (const row of rows) if (await dispatch(knex, row.request)) started++;
    return { started, failed: rows.length - started };
  }

  /**
   * Starts the push fan-outs that transactions outside runInTransaction recorded (cascade batches, settled uploads):
   * called right after such a write commits, so a device hears of it at once rather than at the next sweep.
   */
  async function dispatchDrivePushes(knex: Knex, limit = 100): Promise<void> {
    const rows = (await knex('workflow_outbox')
      .select('request')
      .whereRaw(`request->>'type' = 'drivePush'`)
      .orderBy('created_at')
      .limit(limit)) as {
      request: OutboxRequest;
    }[];
    for (const row of rows) await dispatch(knex, row.request);
  }

  return { runInTransaction, runOneStatement, sweepOutbox, dispatchDrivePushes };
}
