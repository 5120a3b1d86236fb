// Workflow IDs derive from domain ids, so a retried API call finds the running workflow and on-call staff
// can find one by the id they have.
import type { DriveCascadeKind } from '../domain/unit-of-work.js';

export const TOKEN_CLEANUP_SCHEDULE_ID = 'folio-access-token-cleanup';
export const CHANGE_LOG_PRUNE_SCHEDULE_ID = 'folio-drive-change-log-prune';
export const WORKFLOW_OUTBOX_SWEEP_SCHEDULE_ID = 'folio-workflow-outbox-sweep';
export const STAGED_UPLOAD_SWEEP_SCHEDULE_ID = 'folio-drive-staged-upload-sweep';

export const tokenCleanupWorkflowId = (runKey: string) => `access-token-cleanup:${runKey}`;

/** The lifecycle of a new file's chunked upload, keyed by the file uuid. */
export const uploadWorkflowId = (fileUuid: string) => `drive-upload:${fileUuid}`;

/** The lifecycle of a content replacement, keyed by the new version's uuid. */
export const replaceWorkflowId = (versionUuid: string) => `drive-replace:${versionUuid}`;

/** Trash, restore and permanent-delete cascades over a folder's subtree, keyed by root and operation. */
export const driveCascadeWorkflowId = (kind: DriveCascadeKind, rootUuid: string, operationUuid: string) =>
  `drive-${kind}:${rootUuid}:${operationUuid}`;

/** The 30-day purge of a trashed document, keyed by the document uuid (one per document at a time). */
export const documentPurgeWorkflowId = (documentUuid: string) => `document-purge:${documentUuid}`;

/** One event's delivery to one destination (spec/webhooks.md): both ids, so neither a retry nor a sweep starts two. */
/** A manual resend (an extension) is round 1, 2, … of the same pair: `…:resend-<round>`. */
export const webhookDeliveryWorkflowId = (destinationUuid: string, eventUuid: string, round = 0) =>
  `webhook-delivery:${destinationUuid}:${eventUuid}${round ? `:resend-${round}` : ''}`;
export const WEBHOOK_HISTORY_PURGE_SCHEDULE_ID = 'folio-webhook-history-purge';

/** The thumbnail of one file version: both ids, so a replacement gets its own and a request finds the running one. */
export const thumbnailWorkflowId = (fileUuid: string, versionUuid: string) =>
  `drive-thumbnail:${fileUuid}:${versionUuid}`;
/** A workspace's Drive push fan-out (one at a time; every committed batch of changes signals it). */
export const drivePushWorkflowId = (workspaceUuid: string) => `drive-push:${workspaceUuid}`;

/** A master-key rotation, keyed by the id of the key it moves every wrapped key to (docs/operations.md). */
export const masterKeyRotationWorkflowId = (keyId: number) => `master-key-rotation:${keyId}`;
