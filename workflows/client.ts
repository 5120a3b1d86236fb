// The one door to Temporal for the API, the activities, the worker and the CLI: starts of the workflows in
// registry.ts, the shortcut signals, terminations, and the transactional outbox (outbox.ts) that makes a start follow
// its commit. Workflow code never imports this file (it runs in the worker's Node process, not in the sandbox).
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import { config } from '../platform/config.js';
import { logger } from '../platform/logger.js';
import { temporalClient } from '../platform/temporal.js';
import type { LifecycleStarter } from '../domain/unit-of-work.js';
import { documentTrashChangedSignal } from './documents.js';
import { replaceSettledSignal, uploadSettledSignal } from './drive-content.js';
import {
  documentPurgeWorkflowId,
  replaceWorkflowId,
  uploadWorkflowId,
  webhookDeliveryWorkflowId,
} from './ids.js';
import { outboxKit, type Wakes } from './outbox.js';
import {
  DIRECT_WORKFLOWS,
  outboxEntry,
  type DirectRequest,
  type DirectWorkflows,
  type OutboxRequest,
  type RegisteredWorkflow,
  type StartSettings,
} from './registry.js';
import { retryWebhookDeliverySignal } from './webhook-delivery.js';

interface WarnLogger {
  warn(fields: object, message: string): void;
}

interface WorkflowClientSettings extends StartSettings {
  temporal: () => Promise<Client>;
  taskQueue: string;
  log: WarnLogger;
}

export type WorkflowClient = ReturnType<typeof createWorkflowClient>;

export function createWorkflowClient(settings: WorkflowClientSettings) {
  const { temporal, taskQueue, log } = settings;

  /**
   * Starts one registered workflow (or signals it, for a signal-with-start entry). A start that finds the id taken as
   * the entry's reuse policy forbids counts as done: `started` says which happened.
   */
  async function startRegistered<Request>(
    entry: RegisteredWorkflow<Request>,
    request: Request,
  ): Promise<{ workflowId: string; started: boolean }> {
    const client = await temporal();
    const workflowId = entry.id(request);
    const options = {
      workflowId,
      taskQueue,
      args: [entry.input(request, settings)],
      workflowIdReusePolicy: entry.idReuse,
      typedSearchAttributes: entry.searchAttributes(request),
    };
    try {
      if (entry.signal)
        await client.workflow.signalWithStart(entry.workflow(request), {
          ...options,
          signal: entry.signal,
          signalArgs: [],
        });
      else await client.workflow.start(entry.workflow(request), options);
      return { workflowId, started: true };
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      return { workflowId, started: false };
    }
  }

  /** Starts a workflow of the DIRECT_WORKFLOWS table, outside any transaction. */
  const startDirect = <Name extends keyof DirectWorkflows>(name: Name, request: DirectRequest<Name>) =>
    startRegistered(DIRECT_WORKFLOWS[name] as RegisteredWorkflow<DirectRequest<Name>>, request);

  /** Starts what an outbox row asks for. */
  const startOutboxRequest = async (request: OutboxRequest): Promise<void> =>
    void (await startRegistered(outboxEntry(request), request));

  /** A shortcut signal: a lost one only delays the workflow until its own timer, so a failure is logged, not thrown. */
  async function wake<Args extends unknown[]>(
    workflowId: string,
    signal: SignalDefinition<Args>,
    fields: object,
    ...args: Args
  ): Promise<void> {
    try {
      await (await temporal()).workflow.getHandle(workflowId).signal(signal, ...args);
    } catch (error) {
      log.warn(
        { err: error, workflow_id: workflowId, ...fields },
        'could not wake the workflow; it will act on its own timer',
      );
    }
  }

  /** A terminate after the who and why are recorded; the record stops the delivery at its next attempt anyway. */
  async function terminate(workflowId: string, reason: string): Promise<void> {
    try {
      await (await temporal()).workflow.getHandle(workflowId).terminate(reason);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError))
        log.warn(
          { err: error, workflow_id: workflowId },
          'could not terminate the workflow; it stops at its next attempt',
        );
    }
  }

  const wakes: Wakes = {
    uploadLifecycle: (fileUuid) =>
      wake(uploadWorkflowId(fileUuid), uploadSettledSignal, { file_uuid: fileUuid }),
    replaceLifecycle: (versionUuid) =>
      wake(replaceWorkflowId(versionUuid), replaceSettledSignal, { version_uuid: versionUuid }),
    documentPurge: (documentUuid) =>
      wake(documentPurgeWorkflowId(documentUuid), documentTrashChangedSignal, {
        document_uuid: documentUuid,
      }),
    retryWebhookDelivery: ({ destinationUuid, eventUuid, round, afterAttempt }) =>
      wake(
        webhookDeliveryWorkflowId(destinationUuid, eventUuid, round),
        retryWebhookDeliverySignal,
        { destination_uuid: destinationUuid },
        { afterAttempt },
      ),
    terminateWebhookDelivery: ({ destinationUuid, eventUuid, round }, reason) =>
      terminate(webhookDeliveryWorkflowId(destinationUuid, eventUuid, round), reason),
  };

  const lifecycles: LifecycleStarter = {
    startUploadLifecycle: async (input) => void (await startDirect('uploadLifecycle', input)),
    startReplaceLifecycle: async (input) => void (await startDirect('replaceLifecycle', input)),
  };

  /** A request found no thumbnail: start its render now (a read has no transaction to follow). */
  const startThumbnail = (request: Omit<Extract<OutboxRequest, { type: 'thumbnail' }>, 'type'>) =>
    startOutboxRequest({ type: 'thumbnail', ...request });

  const { runInTransaction, runOneStatement, sweepOutbox, dispatchDrivePushes } = outboxKit({
    start: startOutboxRequest,
    wakes,
    log,
  });
  return {
    ...lifecycles,
    startDirect,
    runInTransaction,
    runOneStatement,
    sweepOutbox,
    startThumbnail,
    dispatchDrivePushes,
  };
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
