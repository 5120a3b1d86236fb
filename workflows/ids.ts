// Workflow IDs derive from domain ids, so a retried API call finds the running workflow and on-call staff
// can find one by the id they have. Each has its inverse.

export const TOKEN_CLEANUP_SCHEDULE_ID = 'folio-access-token-cleanup';
export const CHANGE_LOG_PRUNE_SCHEDULE_ID = 'folio-drive-change-log-prune';
export const WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID = 'folio-workflow-outbox-sweep';
export const STAGED_UPLOAD_SWEEP_SCHEDULE_ID = 'folio-drive-staged-upload-sweep';

export const tokenCleanupWorkflowId = (runKey: string) => `access-token-cleanup:${runKey}`;

/** The lifecycle of a new file's chunked upload, keyed by the file uuid. */
export const uploadWorkflowId = (fileUuid: string) => `drive-upload:${fileUuid}`;
export const fileUuidOfUploadWorkflow = (workflowId: string) => workflowId.replace(/^drive-upload:/, '');

/** The lifecycle of a content replacement, keyed by the new version's uuid. */
export const replaceWorkflowId = (versionUuid: string) => `drive-replace:${versionUuid}`;
export const versionUuidOfReplaceWorkflow = (workflowId: string) => workflowId.replace(/^drive-replace:/, '');

/** Trash, restore and permanent-delete cascades over a folder's subtree, keyed by root and operation. */
export type DriveCascadeKind = 'trash' | 'restore' | 'delete';
export const driveCascadeWorkflowId = (kind: DriveCascadeKind, rootUuid: string, operationUuid: string) =>
  `drive-${kind}:${rootUuid}:${operationUuid}`;
export function driveCascadeOfWorkflow(workflowId: string): { kind: DriveCascadeKind; rootUuid: string; operationUuid: string } | undefined {
  const match = /^drive-(trash|restore|delete):([0-9a-f-]{36}):([0-9a-f-]{36})$/.exec(workflowId);
  return match ? { kind: match[1] as DriveCascadeKind, rootUuid: match[2]!, operationUuid: match[3]! } : undefined;
}

/** The 30-day purge of a trashed document, keyed by the document uuid (one per document at a time). */
export const documentPurgeWorkflowId = (documentUuid: string) => `document-purge:${documentUuid}`;
export const documentUuidOfPurgeWorkflow = (workflowId: string) => workflowId.replace(/^document-purge:/, '');

/** One event's delivery to one destination (spec/webhooks.md): both ids, so neither a retry nor a sweep starts two. */
/** A manual resend (an extension) is round 1, 2, … of the same pair: `…:resend-<round>`. */
export const webhookDeliveryWorkflowId = (destinationUuid: string, eventUuid: string, round = 0) =>
  `webhook-delivery:${destinationUuid}:${eventUuid}${round ? `:resend-${round}` : ''}`;
export function webhookDeliveryOfWorkflow(workflowId: string): { destinationUuid: string; eventUuid: string; round: number } | undefined {
  const match = /^webhook-delivery:([0-9a-f-]{36}):([0-9a-f-]{36})(?::resend-([1-9]\d*))?$/.exec(workflowId);
  return match ? { destinationUuid: match[1]!, eventUuid: match[2]!, round: Number(match[3] ?? 0) } : undefined;
}
export const WEBHOOK_HISTORY_PURGE_SCHEDULE_ID = 'folio-webhook-history-purge';

/** The thumbnail of one file version: both ids, so a replacement gets its own and a request finds the running one. */
export const thumbnailWorkflowId = (fileUuid: string, versionUuid: string) => `drive-thumbnail:${fileUuid}:${versionUuid}`;
export function thumbnailOfWorkflow(workflowId: string): { fileUuid: string; versionUuid: string } | undefined {
  const match = /^drive-thumbnail:([0-9a-f-]{36}):([0-9a-f-]{36})$/.exec(workflowId);
  return match ? { fileUuid: match[1]!, versionUuid: match[2]! } : undefined;
}
/** A workspace's Drive push fan-out (one at a time; every committed batch of changes signals it). */
export const drivePushWorkflowId = (workspaceUuid: string) => `drive-push:${workspaceUuid}`;
export const workspaceUuidOfDrivePushWorkflow = (workflowId: string) => workflowId.replace(/^drive-push:/, '');

/**
 * How the id of the request that started a workflow travels (platform/request-scope.ts): in the workflow's memo, shown
 * by the Temporal UI, and in a header on every activity the workflow schedules, so the worker's logs name it too.
 */
export const REQUEST_ID_HEADER = 'folio-request-id';
export const REQUEST_ID_MEMO = 'requestId';

/** A master-key rotation, keyed by the id of the key it moves every wrapped key to (docs/operations.md). */
export const masterKeyRotationWorkflowId = (keyId: number) => `master-key-rotation:${keyId}`;
