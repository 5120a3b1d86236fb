// Every request and response type of the client. The API's shapes are not written here: they are generated from
// openapi/folio.yaml into openapi.ts (scripts/generate-types.ts; a unit test fails when it is stale), and this
// module names the ones the client uses. Only the client's own types (progress, the resume file) are written here.
import type { components, operations } from './openapi.js';

export type { components, operations, paths } from './openapi.js';

type Schemas = components['schemas'];
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body an operation (by its operationId) answers with `Status`: its 200, 201 or 202 unless said. */
export type ResponseBody<
  Op extends keyof operations,
  Status extends keyof operations[Op]['responses'] = Extract<
    keyof operations[Op]['responses'],
    200 | 201 | 202
  >,
> = JsonOf<operations[Op]['responses'][Status]>;

/** The JSON body an operation (by its operationId) takes. */
export type RequestBody<Op extends keyof operations> = JsonOf<NonNullable<operations[Op]['requestBody']>>;

type Parameters<Op extends keyof operations> = operations[Op]['parameters'];
/** An operation's path parameters by name (`{uuid: string}`). */
export type PathParams<Op extends keyof operations> = NonNullable<Parameters<Op>['path']>;
/** An operation's query parameters by name. */
export type QueryParams<Op extends keyof operations> = NonNullable<Parameters<Op>['query']>;
/** An operation's request headers by name, as the document spells them (`If-Match`). */
export type HeaderParams<Op extends keyof operations> = NonNullable<Parameters<Op>['header']>;

/** What an operation answers on success: the JSON body of any of its 2xx statuses, undefined for one without. */
export type SuccessBody<Op extends keyof operations> = {
  [Status in keyof operations[Op]['responses']]: Status extends 200 | 201 | 202 | 203 | 204 | 206
    ? operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } }
      ? Body
      : undefined
    : never;
}[keyof operations[Op]['responses']];

export type Role = Schemas['Role'];
/** The owner object, and a thread's or message's author. */
export type Person = Schemas['Person'];
export type Owner = Person;

// --- Drive -------------------------------------------------------------------------------------------

export type DriveFile = Schemas['DriveFile'];
export type DriveFolder = Schemas['DriveFolder'];
export type DriveList = ResponseBody<'listFiles'>;
export type CreateFolderRequest = RequestBody<'createFolder'>;
export type SimpleUploadRequest = RequestBody<'uploadFile'>;
export type SimpleDownload = Schemas['DriveDownload'];
export type UploadInitiateRequest = RequestBody<'initUpload'>;
export type UploadInitiate = ResponseBody<'initUpload'>;
/** An upload in progress with the parts the store holds (`GET /v1/drive/uploads/{uuid}`, a Folio extension). */
export type UploadStatus = ResponseBody<'getUploadStatus'>;
export type ReplaceInitiateRequest = RequestBody<'initReplace'>;
export type ReplaceInitiate = ResponseBody<'initReplace'>;
export type PartUrlsRequest = RequestBody<'getUploadPartUrls'>;
export type PartUrls = ResponseBody<'getUploadPartUrls'>;
export type PartUrl = PartUrls['part_urls'][number];
export type CompleteRequest = RequestBody<'completeUpload'>;
export type CompletedPart = CompleteRequest['parts'][number];
export type DownloadInit = ResponseBody<'initChunkedDownload'>;
export type ChangeEntry = Schemas['DriveChange'];
export type ChangesPage = ResponseBody<'listChanges'>;

// --- Documents ---------------------------------------------------------------------------------------

export type Document = Schemas['Document'];
export type ThreadMessage = Schemas['Message'];
export type Thread = Schemas['Thread'];
export type DocumentContent = ResponseBody<'getDocumentContent'>;
export type EditOperation = Schemas['EditOperation'];
/** A quote's narrowing, as for an edit (spec/documents.md § Quote matching). */
export type QuoteNarrowing = Pick<EditOperation, 'occurrence' | 'before' | 'after'>;
export type EditRequest = RequestBody<'editDocumentContent'>;

// --- Webhooks (the admin API) -------------------------------------------------------------------------

export type WebhookDestination = Schemas['WebhookDestination'];
/** One delivery of an event; `round` is 0 for the spec's own and 1, 2, … for resends (a Folio extension). */
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookAttempt = Schemas['WebhookAttempt'];

// --- Errors ------------------------------------------------------------------------------------------

/** Drive answers `{error, …}`; Documents, Email and the admin API `{error, error_description, …}`. */
export type ErrorBody = Schemas['DriveError'] | Schemas['ApiError'];

// --- The client's own -----------------------------------------------------------------------------------

/** What `onResponse` sees of every JSON API response (not of storage transfers). */
export interface ResponseRecord {
  method: string;
  /** The request path with its query, relative to baseUrl. */
  path: string;
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined for an empty one. */
  body: unknown;
}

export interface Progress {
  /** Plaintext bytes transferred so far (a chunk counts once it is stored or decrypted). */
  bytesDone: number;
  bytesTotal: number;
  partsDone: number;
  partsTotal: number;
}

/** The resume file of a chunked upload or replacement (docs: clients/typescript/README.md § Resuming). */
export interface UploadState {
  format: 'folio-upload-state-v1';
  kind: 'upload' | 'replace';
  /** The file being created (upload) or replaced. */
  file_uuid: string;
  /** The version the AAD binds: the file uuid for an upload, the replace initiate's version_uuid otherwise. */
  version_uuid: string;
  data_key: string;
  chunk_size_bytes: number;
  chunk_count: number;
  plaintext_size_bytes: number;
  /** Part number → etag of every part stored so far. */
  parts: Record<string, string>;
}
