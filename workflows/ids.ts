// Workflow IDs derive from domain ids, so a retried API call finds the running workflow and on-call staff
// can find one by the id they have. Each has its inverse.

export const TOKEN_CLEANUP_SCHEDULE_ID = 'folio-access-token-cleanup';

export const tokenCleanupWorkflowId = (runKey: string) => `access-token-cleanup:${runKey}`;
