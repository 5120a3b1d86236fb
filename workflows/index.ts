// Every workflow the worker runs. Workflow code is deterministic: it reaches the outside only through activities.
export { tokenCleanupWorkflow } from './token-cleanup.js';
