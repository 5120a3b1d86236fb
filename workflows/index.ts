// Every workflow the worker runs (each export is a workflow type; client.ts is not workflow code and stays out).
// Workflow code is deterministic: it reaches the outside only through activities.
export {
  tokenCleanupWorkflow,
  changeLogPruneWorkflow,
  workflowOutboxSweepWorkflow,
  stagedUploadSweepWorkflow,
} from './maintenance.js';
export { uploadLifecycleWorkflow, replaceLifecycleWorkflow } from './drive-content.js';
export { trashCascadeWorkflow, restoreCascadeWorkflow, deleteCascadeWorkflow } from './drive-trash.js';
export { documentPurgeWorkflow } from './documents.js';
export { webhookDeliveryWorkflow, webhookHistoryPurgeWorkflow } from './webhook-delivery.js';
export { thumbnailWorkflow } from './thumbnail.js';
export { drivePushWorkflow } from './push.js';
export { masterKeyRotationWorkflow } from './master-key-rotation.js';
