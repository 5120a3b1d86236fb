// Starting and waking the Temporal lifecycles of uploads and replacements (workflows/drive-content.ts).
import { config } from '../../platform/config.js';
import { logger } from '../../platform/logger.js';
import { temporalClient } from '../../platform/temporal.js';
import { FOLIO_RESOURCE_ID, FOLIO_WORKSPACE_ID } from '../../workflows/client.js';
import { replaceWorkflowId, uploadWorkflowId } from '../../workflows/ids.js';
import {
  replaceSettledSignal,
  uploadSettledSignal,
  type replaceLifecycleWorkflow,
  type uploadLifecycleWorkflow,
} from '../../workflows/drive-content.js';

const log = logger.child({ category: 'drive-content' });

const searchAttributes = (workspaceUuid: string, resourceUuid: string) => [
  { key: FOLIO_WORKSPACE_ID, value: workspaceUuid },
  { key: FOLIO_RESOURCE_ID, value: resourceUuid },
];

/** Started before anything is staged, so every staged upload has a workflow that will expire it. */
export async function startUploadLifecycle(workspaceUuid: string, fileUuid: string): Promise<void> {
  const client = await temporalClient();
  await client.workflow.start<typeof uploadLifecycleWorkflow>('uploadLifecycleWorkflow', {
    workflowId: uploadWorkflowId(fileUuid),
    taskQueue: config().temporal.taskQueue,
    args: [{ workspaceUuid, fileUuid, expiresInMs: config().uploadExpiryMs }],
    typedSearchAttributes: searchAttributes(workspaceUuid, fileUuid),
  });
}

export async function startReplaceLifecycle(workspaceUuid: string, fileUuid: string, versionUuid: string): Promise<void> {
  const client = await temporalClient();
  await client.workflow.start<typeof replaceLifecycleWorkflow>('replaceLifecycleWorkflow', {
    workflowId: replaceWorkflowId(versionUuid),
    taskQueue: config().temporal.taskQueue,
    args: [{ workspaceUuid, fileUuid, versionUuid, expiresInMs: config().uploadExpiryMs, retentionMs: config().fileVersionRetentionMs }],
    typedSearchAttributes: searchAttributes(workspaceUuid, fileUuid),
  });
}

/**
 * Wakes a lifecycle after the API settled its upload. Only a shortcut: a lost signal leaves the workflow to
 * find the same outcome when its expiry fires, so a failure here is logged and not surfaced.
 */
export async function wakeUploadLifecycle(fileUuid: string): Promise<void> {
  try {
    await (await temporalClient()).workflow.getHandle(uploadWorkflowId(fileUuid)).signal(uploadSettledSignal);
  } catch (error) {
    log.warn({ err: error, file_uuid: fileUuid }, 'could not wake the upload lifecycle; it will settle at expiry');
  }
}

export async function wakeReplaceLifecycle(versionUuid: string): Promise<void> {
  try {
    await (await temporalClient()).workflow.getHandle(replaceWorkflowId(versionUuid)).signal(replaceSettledSignal);
  } catch (error) {
    log.warn({ err: error, version_uuid: versionUuid }, 'could not wake the replace lifecycle; it will settle at expiry');
  }
}
