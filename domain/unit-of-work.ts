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
  /**
   * Lets this transaction's locks go once its commit record is written, before the WAL is flushed to disk; the
   * runner then waits for the flush outside the locks, before it returns, so what the caller answers is durable. For a
   * transaction that holds a lock every writer of a workspace queues on (the change-log lock) until its end: the
   * writers' flushes then overlap instead of taking turns, and nothing but the COMMIT follows the work's last statement
   * (docs/benchmarks.md § the 1 KB upload's commit, § session 15). Called first, before the work's statements.
   */
  commitBeforeFlush(): Promise<void>;
}

/** Runs `work` in one transaction; what it asked of `workflows` goes out after the commit. */
export type RunInTransaction = <T>(work: (unit: UnitOfWork) => Promise<T>) => Promise<T>;
