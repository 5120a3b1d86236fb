// What a domain operation that writes is handed: one transaction, and the durable processes it asks for, which
// start only once that transaction commits. The API opens one per request (api/middleware/transaction.ts); the
// implementation is workflows/client.ts. Domain code never reaches Temporal or the database by itself.
import type { Knex } from 'knex';

export type DriveCascadeKind = 'trash' | 'restore' | 'delete';

export interface DriveCascadeStart {
  kind: DriveCascadeKind;
  /** drive_trash_operations.uuid, recorded in the same transaction. */
  operationUuid: string;
  rootUuid: string;
  workspaceUuid: string;
}

/** One event's delivery to one destination: ids only, like every workflow input. */
export interface WebhookDeliveryStart {
  destinationUuid: string;
  eventUuid: string;
  workspaceUuid: string;
  /** null for a webhook.test (an extension), which names no mailbox. */
  mailboxUuid: string | null;
  /** A manual resend's round (1, 2, …); absent for the spec's delivery (round 0). */
  round?: number;
  /** The attempts the delivery makes when not the spec's five (a webhook.test makes one). */
  maxAttempts?: number;
}

/** The thumbnail of one file version (domain/drive/thumbnails.ts): ids only. */
export interface ThumbnailStart {
  workspaceUuid: string;
  fileUuid: string;
  versionUuid: string;
}

/** Durable processes a transaction asks for. Each takes effect only if the transaction commits. */
export interface WorkflowRequests {
  /** Recorded in the transactional outbox: started after commit, or by the outbox sweep after a crash. */
  startDriveCascade(start: DriveCascadeStart): Promise<void>;
  /** Starts the document's purge, or wakes the one waiting so it reads trashed_at again (outbox, like a start). */
  scheduleDocumentPurge(document: { documentUuid: string; workspaceUuid: string }): Promise<void>;
  /** The delivery workflow of an event to one destination (outbox, like a start). */
  startWebhookDelivery(start: WebhookDeliveryStart): Promise<void>;
  /** The render of a file version's thumbnail, once its upload or replacement commits (outbox, like a start). */
  startThumbnail(start: ThumbnailStart): Promise<void>;
  /** Shortcuts sent after commit; a lost one only delays the workflow until its own timer, so failures are logged. */
  wakeUploadLifecycle(fileUuid: string): void;
  wakeReplaceLifecycle(versionUuid: string): void;
  wakeDocumentPurge(documentUuid: string): void;
  /** `folio delivery retry`: the waiting delivery attempts now. `terminate`: Temporal ends it with the reason. */
  /** `afterAttempt`: the attempt the caller saw finished; the wait after it ends even if the timer has not begun. */
  retryWebhookDelivery(delivery: {
    destinationUuid: string;
    eventUuid: string;
    round?: number;
    afterAttempt: number;
  }): void;
  terminateWebhookDelivery(
    delivery: { destinationUuid: string; eventUuid: string; round?: number },
    reason: string,
  ): void;
}

/** Lifecycles started before anything is staged (outside any transaction), so every staged upload has one. */
export interface LifecycleStarter {
  startUploadLifecycle(input: { workspaceUuid: string; fileUuid: string }): Promise<void>;
  startReplaceLifecycle(input: {
    workspaceUuid: string;
    fileUuid: string;
    versionUuid: string;
  }): Promise<void>;
}

export interface UnitOfWork {
  tx: Knex.Transaction;
  workflows: WorkflowRequests;
}

/** The durable processes a one-statement write may ask for: starts, which are rows the statement records. */
export type WorkflowStarts = Pick<
  WorkflowRequests,
  'startDriveCascade' | 'scheduleDocumentPurge' | 'startWebhookDelivery' | 'startThumbnail'
>;

/**
 * A write that is one statement, committed as it ends: no round trip of the client between the locks it takes last
 * and its commit, so writers queued on those locks (the change-log lock every Drive writer of a workspace takes) wait
 * for PostgreSQL alone, not for a busy API process to read an answer and send a COMMIT (docs/benchmarks.md § the 1 KB
 * upload's commit). Its commit does not wait for the WAL flush; the runner waits for a flush that covers it before it
 * returns, so what the caller then answers is durable, and then starts the workflows it recorded.
 */
interface OneStatementWrite {
  /** The prepared statement's name, one per text. */
  name: string;
  /**
   * The statement, with named bindings (`:name`). `commitMode` is its first CTE, and its one row selects
   * `commit_mode.batch`; `recordWorkflows(anchor)` is a CTE listed after the CTE `anchor`, recording the workflows
   * asked for only when `anchor` has a row. A step that finds the write must not happen calls
   * `folio_refuse_unless(ok, refusal)` (db/migrations/031), which rolls the statement back with SQLSTATE FL001 and the
   * refusal as the error's `detail`. The statement returns its row exactly when `anchor` has one.
   */
  sql(parts: { commitMode: string; recordWorkflows(anchor: string): string }): string;
  bindings: Record<string, unknown>;
  /** Asks for the workflows the statement records, as a transaction's work asks UnitOfWork.workflows. */
  workflows?(requests: WorkflowStarts): void;
}

/** Runs a one-statement write; its row (without `batch`), or undefined when it returned none. */
export type RunOneStatement = <Row extends object>(write: OneStatementWrite) => Promise<Row | undefined>;

/** The SQLSTATE folio_refuse_unless raises; the error's `detail` is the refusal. */
export const STATEMENT_REFUSED = 'FL001';

/** Runs `work` in one transaction; what it asked of `workflows` goes out after the commit. */
export type RunInTransaction = <T>(work: (unit: UnitOfWork) => Promise<T>) => Promise<T>;
