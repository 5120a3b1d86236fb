// The one door to Temporal for the API, the activities, the worker and the CLI: search attributes, typed starts and
// signals of every workflow, and the transactional outbox that makes a start follow its commit. Workflow code never
// imports this file (it runs in the worker's Node process, not in the workflow sandbox).
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, WorkflowIdReusePolicy, type SignalDefinition } from '@temporalio/common';
import type { Knex } from 'knex';
import { config } from '../platform/config.js';
import { logger } from '../platform/logger.js';
import { temporalClient } from '../platform/temporal.js';
import type { DriveCascadeKind, DriveCascadeStart, LifecycleStarter, RunInTransaction, ThumbnailStart, WebhookDeliveryStart, WorkflowRequests } from '../domain/unit-of-work.js';
import { documentTrashChangedSignal, type documentPurgeWorkflow } from './documents.js';
import { replaceSettledSignal, uploadSettledSignal, type replaceLifecycleWorkflow, type uploadLifecycleWorkflow } from './drive-content.js';
import type { DriveCascadeInput, DriveCascadeResult } from './drive-trash.js';
import { documentPurgeWorkflowId, driveCascadeWorkflowId, drivePushWorkflowId, replaceWorkflowId, thumbnailWorkflowId, uploadWorkflowId, webhookDeliveryWorkflowId } from './ids.js';
import { drivePushChangesSignal, type drivePushWorkflow } from './push.js';
import type { thumbnailWorkflow } from './thumbnail.js';
import { retryWebhookDeliverySignal, WEBHOOK_SEARCH_ATTRIBUTES, type webhookDeliveryWorkflow } from './webhook-delivery.js';

/** Registered on the dev server at start (deploy/local/services.ts) and on a cluster by the operator. */
export const FOLIO_WORKSPACE_ID = defineSearchAttributeKey('FolioWorkspaceId', SearchAttributeType.KEYWORD);
export const FOLIO_RESOURCE_ID = defineSearchAttributeKey('FolioResourceId', SearchAttributeType.KEYWORD);
export const FOLIO_WEBHOOK_DESTINATION = defineSearchAttributeKey(WEBHOOK_SEARCH_ATTRIBUTES.destination, SearchAttributeType.KEYWORD);
export const FOLIO_WEBHOOK_EVENT = defineSearchAttributeKey(WEBHOOK_SEARCH_ATTRIBUTES.event, SearchAttributeType.KEYWORD);
export const FOLIO_MAILBOX = defineSearchAttributeKey(WEBHOOK_SEARCH_ATTRIBUTES.mailbox, SearchAttributeType.KEYWORD);
export const FOLIO_WEBHOOK_OUTCOME = defineSearchAttributeKey(WEBHOOK_SEARCH_ATTRIBUTES.outcome, SearchAttributeType.KEYWORD);
export const SEARCH_ATTRIBUTES = [FOLIO_WORKSPACE_ID, FOLIO_RESOURCE_ID, FOLIO_WEBHOOK_DESTINATION, FOLIO_WEBHOOK_EVENT, FOLIO_MAILBOX, FOLIO_WEBHOOK_OUTCOME];

const searchAttributes = (workspaceUuid: string, resourceUuid: string) => [
  { key: FOLIO_WORKSPACE_ID, value: workspaceUuid },
  { key: FOLIO_RESOURCE_ID, value: resourceUuid },
];

const CASCADE_WORKFLOWS: Record<DriveCascadeKind, string> = {
  trash: 'trashCascadeWorkflow',
  restore: 'restoreCascadeWorkflow',
  delete: 'deleteCascadeWorkflow',
};

/** What an outbox row asks for: ids only, like every workflow input. */
export type OutboxRequest =
  | ({ type: 'driveCascade' } & DriveCascadeStart)
  | { type: 'documentPurge'; documentUuid: string; workspaceUuid: string }
  | ({ type: 'webhookDelivery' } & WebhookDeliveryStart)
  | ({ type: 'thumbnail' } & ThumbnailStart)
  // Written by the drive_changes trigger (db/migrations/015_drive_push.ts), one per transaction and workspace.
  | { type: 'drivePush'; workspaceUuid: string; batch: string };

export function outboxWorkflowId(request: OutboxRequest): string {
  switch (request.type) {
    case 'driveCascade':
      return driveCascadeWorkflowId(request.kind, request.rootUuid, request.operationUuid);
    case 'webhookDelivery':
      return webhookDeliveryWorkflowId(request.destinationUuid, request.eventUuid, request.round);
    case 'thumbnail':
      return thumbnailWorkflowId(request.fileUuid, request.versionUuid);
    case 'documentPurge':
      return documentPurgeWorkflowId(request.documentUuid);
    case 'drivePush':
      // The row of a push fan-out is keyed by its transaction; every row signals the workspace's one workflow.
      return `${drivePushWorkflowId(request.workspaceUuid)}:${request.batch}`;
  }
}

interface WarnLogger {
  warn(fields: object, message: string): void;
}

export interface WorkflowClientSettings {
  temporal: () => Promise<Client>;
  taskQueue: string;
  uploadExpiryMs: number;
  fileVersionRetentionMs: number;
  push: { coalesceWindowMs: number; idleMs: number };
  log: WarnLogger;
}

export type WorkflowClient = ReturnType<typeof createWorkflowClient>;

export function createWorkflowClient(settings: WorkflowClientSettings) {
  const { temporal, taskQueue, log } = settings;

  /** A shortcut signal: a lost one only delays the workflow until its own timer, so a failure is logged, not thrown. */
  async function wake<Args extends unknown[]>(workflowId: string, signal: SignalDefinition<Args>, fields: object, ...args: Args): Promise<void> {
    try {
      await (await temporal()).workflow.getHandle(workflowId).signal(signal, ...args);
    } catch (error) {
      log.warn({ err: error, workflow_id: workflowId, ...fields }, 'could not wake the workflow; it will act on its own timer');
    }
  }

  /** Starts what an outbox row asks for; a start that Temporal already has counts as done. */
  async function start(request: OutboxRequest): Promise<void> {
    const client = await temporal();
    const workflowId = outboxWorkflowId(request);
    if (request.type === 'webhookDelivery') {
      await startWebhookDelivery(client, request);
      return;
    }
    if (request.type === 'thumbnail') {
      await startThumbnailOn(client, request);
      return;
    }
    if (request.type === 'drivePush') {
      await client.workflow.signalWithStart<typeof drivePushWorkflow>('drivePushWorkflow', {
        workflowId: drivePushWorkflowId(request.workspaceUuid),
        taskQueue,
        args: [{ workspaceUuid: request.workspaceUuid, windowMs: settings.push.coalesceWindowMs, idleMs: settings.push.idleMs }],
        signal: drivePushChangesSignal,
        signalArgs: [],
        typedSearchAttributes: searchAttributes(request.workspaceUuid, request.workspaceUuid),
      });
      return;
    }
    if (request.type === 'documentPurge') {
      await client.workflow.signalWithStart<typeof documentPurgeWorkflow>('documentPurgeWorkflow', {
        workflowId,
        taskQueue,
        args: [{ documentUuid: request.documentUuid }],
        signal: documentTrashChangedSignal,
        signalArgs: [],
        typedSearchAttributes: searchAttributes(request.workspaceUuid, request.documentUuid),
      });
      return;
    }
    try {
      await client.workflow.start<(input: DriveCascadeInput) => Promise<DriveCascadeResult>>(CASCADE_WORKFLOWS[request.kind], {
        workflowId,
        taskQueue,
        args: [{ operationUuid: request.operationUuid, rootUuid: request.rootUuid, workspaceUuid: request.workspaceUuid }],
        // A cascade runs once: an outbox row dispatched again after the cascade ended must not run it twice.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: searchAttributes(request.workspaceUuid, request.rootUuid),
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }

  /** One delivery runs once: a sweep that dispatches its row again after it ended must not deliver twice. */
  async function startWebhookDelivery(client: Client, request: WebhookDeliveryStart): Promise<void> {
    try {
      await client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
        workflowId: webhookDeliveryWorkflowId(request.destinationUuid, request.eventUuid, request.round),
        taskQueue,
        // Ids only: the history shows which destination, event and mailbox, never the message.
        args: [
          {
            destinationUuid: request.destinationUuid,
            eventUuid: request.eventUuid,
            localAttempts: true,
            ...(request.round ? { round: request.round } : {}),
            ...(request.maxAttempts ? { maxAttempts: request.maxAttempts } : {}),
          },
        ],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: [
          ...searchAttributes(request.workspaceUuid, request.eventUuid),
          { key: FOLIO_WEBHOOK_DESTINATION, value: request.destinationUuid },
          { key: FOLIO_WEBHOOK_EVENT, value: `whevt_${request.eventUuid}` },
          ...(request.mailboxUuid ? [{ key: FOLIO_MAILBOX, value: request.mailboxUuid }] : []),
          { key: FOLIO_WEBHOOK_OUTCOME, value: 'pending' },
        ],
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }

  /**
   * The thumbnail of one version. A running one is found by its id and left alone; one that ended may run again
   * (a request that finds no thumbnail row after it ended), which is harmless: the render stops at a row it finds.
   */
  async function startThumbnailOn(client: Client, request: ThumbnailStart): Promise<void> {
    try {
      await client.workflow.start<typeof thumbnailWorkflow>('thumbnailWorkflow', {
        workflowId: thumbnailWorkflowId(request.fileUuid, request.versionUuid),
        taskQueue,
        args: [{ workspaceUuid: request.workspaceUuid, fileUuid: request.fileUuid, versionUuid: request.versionUuid }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        typedSearchAttributes: searchAttributes(request.workspaceUuid, request.fileUuid),
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }

  /** A request found no thumbnail: start its render now (a read has no transaction to follow). */
  async function startThumbnail(request: ThumbnailStart): Promise<void> {
    await startThumbnailOn(await temporal(), request);
  }

  /** A terminate after the who and why are recorded; the record stops the delivery at its next attempt anyway. */
  async function terminate(workflowId: string, reason: string): Promise<void> {
    try {
      await (await temporal()).workflow.getHandle(workflowId).terminate(reason);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) log.warn({ err: error, workflow_id: workflowId }, 'could not terminate the workflow; it stops at its next attempt');
    }
  }

  /** Starts the row's workflow and removes the row; on failure the row stays for the sweep. */
  async function dispatch(knex: Knex, request: OutboxRequest): Promise<boolean> {
    const workflowId = outboxWorkflowId(request);
    try {
      await start(request);
    } catch (error) {
      log.warn({ err: error, workflow_id: workflowId }, 'workflow start failed; the outbox sweep will retry it');
      return false;
    }
    await knex('workflow_outbox').where({ workflow_id: workflowId }).delete();
    return true;
  }

  const lifecycles: LifecycleStarter = {
    async startUploadLifecycle({ workspaceUuid, fileUuid }) {
      await (await temporal()).workflow.start<typeof uploadLifecycleWorkflow>('uploadLifecycleWorkflow', {
        workflowId: uploadWorkflowId(fileUuid),
        taskQueue,
        args: [{ workspaceUuid, fileUuid, expiresInMs: settings.uploadExpiryMs }],
        typedSearchAttributes: searchAttributes(workspaceUuid, fileUuid),
      });
    },
    async startReplaceLifecycle({ workspaceUuid, fileUuid, versionUuid }) {
      await (await temporal()).workflow.start<typeof replaceLifecycleWorkflow>('replaceLifecycleWorkflow', {
        workflowId: replaceWorkflowId(versionUuid),
        taskQueue,
        args: [{ workspaceUuid, fileUuid, versionUuid, expiresInMs: settings.uploadExpiryMs, retentionMs: settings.fileVersionRetentionMs }],
        typedSearchAttributes: searchAttributes(workspaceUuid, fileUuid),
      });
    },
  };

  /** One transaction per call; outbox rows and wakes it recorded go out after the commit, in order. */
  function runInTransaction(knex: Knex): RunInTransaction {
    return async (work) => {
      let outbox: OutboxRequest[] = [];
      let wakes: (() => Promise<void>)[] = [];
      const result = await knex.transaction(async (tx) => {
        // knex may retry the callback only on our own throw, but start clean on every entry all the same.
        outbox = [];
        wakes = [];
        const record = async (request: OutboxRequest) => {
          await tx('workflow_outbox').insert({ workflow_id: outboxWorkflowId(request), request }).onConflict('workflow_id').ignore();
          outbox.push(request);
        };
        const workflows: WorkflowRequests = {
          startDriveCascade: (cascade) => record({ type: 'driveCascade', ...cascade }),
          scheduleDocumentPurge: ({ documentUuid, workspaceUuid }) => record({ type: 'documentPurge', documentUuid, workspaceUuid }),
          startWebhookDelivery: (delivery) => record({ type: 'webhookDelivery', ...delivery }),
          startThumbnail: (thumbnail) => record({ type: 'thumbnail', ...thumbnail }),
          wakeUploadLifecycle: (fileUuid) => void wakes.push(() => wake(uploadWorkflowId(fileUuid), uploadSettledSignal, { file_uuid: fileUuid })),
          wakeReplaceLifecycle: (versionUuid) =>
            void wakes.push(() => wake(replaceWorkflowId(versionUuid), replaceSettledSignal, { version_uuid: versionUuid })),
          wakeDocumentPurge: (documentUuid) =>
            void wakes.push(() => wake(documentPurgeWorkflowId(documentUuid), documentTrashChangedSignal, { document_uuid: documentUuid })),
          retryWebhookDelivery: ({ destinationUuid, eventUuid, round, afterAttempt }) =>
            void wakes.push(() =>
              wake(webhookDeliveryWorkflowId(destinationUuid, eventUuid, round), retryWebhookDeliverySignal, { destination_uuid: destinationUuid }, { afterAttempt }),
            ),
          terminateWebhookDelivery: ({ destinationUuid, eventUuid, round }, reason) =>
            void wakes.push(() => terminate(webhookDeliveryWorkflowId(destinationUuid, eventUuid, round), reason)),
        };
        const result = await work({ tx, workflows });
        // Push fan-outs the drive_changes trigger recorded in this transaction go out after the commit like the rest.
        const pushes = (await tx('workflow_outbox')
          .select('request')
          .whereRaw(`request->>'type' = 'drivePush' and request->>'batch' = txid_current_if_assigned()::text`)) as { request: OutboxRequest }[];
        outbox.push(...pushes.map((row) => row.request));
        return result;
      });
      for (const request of outbox) await dispatch(knex, request);
      for (const send of wakes) await send();
      return result;
    };
  }

  /**
   * Starts what crashed or failed dispatches left in the outbox (rows older than `olderThanMs`, so a request still
   * dispatching its own rows is left alone). Run by the outbox sweep schedule; safe to run anywhere, any number of times.
   */
  async function sweepOutbox(knex: Knex, olderThanMs: number, limit = 500): Promise<{ started: number; failed: number }> {
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
    const rows = (await knex('workflow_outbox').select('request').whereRaw(`request->>'type' = 'drivePush'`).orderBy('created_at').limit(limit)) as {
      request: OutboxRequest;
    }[];
    for (const row of rows) await dispatch(knex, row.request);
  }

  return { ...lifecycles, runInTransaction, sweepOutbox, startThumbnail, dispatchDrivePushes };
}

let shared: WorkflowClient | undefined;

/** The process-wide client, from configuration: what the API, the worker's activities and the CLI use. */
export function workflowClient(): WorkflowClient {
  const settings = config();
  shared ??= createWorkflowClient({
    temporal: temporalClient,
    taskQueue: settings.temporal.taskQueue,
    uploadExpiryMs: settings.uploadExpiryMs,
    fileVersionRetentionMs: settings.fileVersionRetentionMs,
    push: settings.push,
    log: logger.child({ category: 'workflows' }),
  });
  return shared;
}
