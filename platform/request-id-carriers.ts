// How the id of the request that started a workflow travels (platform/request-scope.ts holds it inside a process): in
// the workflow's memo, shown by the Temporal UI, and in a header on every activity the workflow schedules, so the
// worker's logs name it too. A leaf with no imports, so the workflow sandbox may import it (workflows/interceptors.ts).
export const REQUEST_ID_HEADER = 'folio-request-id';
export const REQUEST_ID_MEMO = 'requestId';
