// Every workflow the worker runs. Workflow code is deterministic: it reaches the outside only through activities.
export { tokenCleanupWorkflow } from './token-cleanup.js';
export * from './drive-content.js';
export * from './drive-trash.js';
export * from './drive-feed.js';
export * from './documents.js';
export * from './webhook-delivery.js';
