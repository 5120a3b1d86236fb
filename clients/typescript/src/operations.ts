// Generated from openapi/folio.yaml by clients/typescript/scripts/generate-types.ts: do not edit.
// Regenerate with `npm run generate:client-types`; README.md § Every operation describes what is generated.
import type { CallOptions, OperationCaller } from './operation-caller.js';
import type { HeaderParams, PathParams, QueryParams, RequestBody, SuccessBody } from './types.js';

/** Every error code the document names (an error body's `error`): ApiError.code is one of them. */
export type ErrorCode =
  | 'batch_id_reused'
  | 'comment_not_found'
  | 'conflict'
  | 'content_hash_mismatch'
  | 'document_too_large'
  | 'document_trashed'
  | 'empty_file'
  | 'file_too_large'
  | 'forbidden'
  | 'insufficient_scope'
  | 'internal_error'
  | 'invalid'
  | 'invalid_base_revision'
  | 'invalid_batch_id'
  | 'invalid_body'
  | 'invalid_cursor'
  | 'invalid_file_size'
  | 'invalid_filename'
  | 'invalid_format'
  | 'invalid_if_match'
  | 'invalid_limit'
  | 'invalid_markdown'
  | 'invalid_move'
  | 'invalid_operation'
  | 'invalid_operations'
  | 'invalid_parts'
  | 'invalid_query'
  | 'invalid_revision'
  | 'invalid_state'
  | 'invalid_status'
  | 'invalid_suggestions'
  | 'invalid_title'
  | 'invalid_token'
  | 'invalid_trashed'
  | 'invalid_upload_status'
  | 'invalid_url'
  | 'invalid_uuid'
  | 'invalid_variant'
  | 'method_not_allowed'
  | 'missing_required_fields'
  | 'name_taken'
  | 'not_a_comment'
  | 'not_a_suggestion'
  | 'not_authorized'
  | 'not_found'
  | 'not_suggestible'
  | 'not_uploaded'
  | 'nothing_to_suggest'
  | 'precondition_failed'
  | 'request_too_large'
  | 'revision_not_found'
  | 'storage_limit_exceeded'
  | 'suggestion_closed'
  | 'suggestion_not_found'
  | 'suggestion_not_in_document'
  | 'sync_token_invalid'
  | 'target_ambiguous'
  | 'target_not_found'
  | 'target_spans_blocks'
  | 'too_many_requests'
  | 'too_many_streams'
  | 'too_many_threads'
  | 'too_many_uploads'
  | 'too_many_uuids'
  | 'too_many_waits'
  | 'unknown_mailboxes';

/**
 * One method per operation of the document, named by its operationId: the input's `path`, `query`, `headers` and
 * `body` are the operation's parameters and request body, the answer its success body (a Response where that is not
 * JSON). Errors throw ApiError; reads and batch_id requests are retried on 429 and 5xx (README.md § Retries).
 */
export class FolioApi {
  constructor(private readonly caller: OperationCaller) {}

  /**
   * Liveness.
   *
   * `GET /healthz` · retried (a read).
   */
  getLiveness(options?: CallOptions): Promise<SuccessBody<'getLiveness'>> {
    return this.caller.call<SuccessBody<'getLiveness'>>(
      { method: 'GET', path: '/healthz', retry: 'safe' },
      undefined,
      options,
    );
  }

  /**
   * Readiness (PostgreSQL, Temporal and object storage answer within 2 seconds).
   *
   * `GET /readyz` · retried (a read).
   */
  getReadiness(options?: CallOptions): Promise<SuccessBody<'getReadiness'>> {
    return this.caller.call<SuccessBody<'getReadiness'>>(
      { method: 'GET', path: '/readyz', retry: 'safe' },
      undefined,
      options,
    );
  }

  /**
   * This document, as JSON.
   *
   * `GET /openapi.json` · retried (a read).
   */
  getOpenApiDocument(options?: CallOptions): Promise<SuccessBody<'getOpenApiDocument'>> {
    return this.caller.call<SuccessBody<'getOpenApiDocument'>>(
      { method: 'GET', path: '/openapi.json', retry: 'safe' },
      undefined,
      options,
    );
  }

  /**
   * The HTML reference page rendered from this document.
   *
   * `GET /docs/api` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  getApiReference(options?: CallOptions): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'GET', path: '/docs/api', retry: 'safe', raw: true },
      undefined,
      options,
    );
  }

  /**
   * Redirect to this reference.
   *
   * `GET /docs` · retried (a read).
   */
  redirectToApiReference(options?: CallOptions): Promise<SuccessBody<'redirectToApiReference'>> {
    return this.caller.call<SuccessBody<'redirectToApiReference'>>(
      { method: 'GET', path: '/docs', retry: 'safe' },
      undefined,
      options,
    );
  }

  /**
   * The renderer of the reference page (Redoc's standalone bundle).
   *
   * `GET /docs/api/redoc.standalone.js` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  getApiReferenceBundle(options?: CallOptions): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'GET', path: '/docs/api/redoc.standalone.js', retry: 'safe', raw: true },
      undefined,
      options,
    );
  }

  /**
   * List a folder's live children (the caller's Drive root without folder_uuid).
   *
   * `GET /v1/drive/files` · retried (a read).
   */
  listFiles(
    input?: { query?: QueryParams<'listFiles'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'listFiles'>> {
    return this.caller.call<SuccessBody<'listFiles'>>(
      { method: 'GET', path: '/v1/drive/files', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Simple upload (the server encrypts); the whole file is buffered, 100 MB cap.
   *
   * `POST /v1/drive/files`.
   */
  uploadFile(
    input: { body: RequestBody<'uploadFile'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'uploadFile'>> {
    return this.caller.call<SuccessBody<'uploadFile'>>(
      { method: 'POST', path: '/v1/drive/files', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Every trashed folder and file the caller can see, flat across the workspace.
   *
   * `GET /v1/drive/trash` · retried (a read).
   */
  listDriveTrash(options?: CallOptions): Promise<SuccessBody<'listDriveTrash'>> {
    return this.caller.call<SuccessBody<'listDriveTrash'>>(
      { method: 'GET', path: '/v1/drive/trash', retry: 'safe' },
      undefined,
      options,
    );
  }

  /**
   * Read a file.
   *
   * `GET /v1/drive/files/{uuid}` · retried (a read).
   */
  getFile(
    input: { path: PathParams<'getFile'>; headers?: HeaderParams<'getFile'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getFile'>> {
    return this.caller.call<SuccessBody<'getFile'>>(
      { method: 'GET', path: '/v1/drive/files/{uuid}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Rename, move, trash or restore a file.
   *
   * `POST /v1/drive/files/{uuid}`.
   */
  updateFile(
    input: {
      path: PathParams<'updateFile'>;
      headers?: HeaderParams<'updateFile'>;
      body?: RequestBody<'updateFile'>;
    },
    options?: CallOptions,
  ): Promise<SuccessBody<'updateFile'>> {
    return this.caller.call<SuccessBody<'updateFile'>>(
      { method: 'POST', path: '/v1/drive/files/{uuid}', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Delete a file permanently.
   *
   * `DELETE /v1/drive/files/{uuid}`.
   */
  deleteFile(
    input: { path: PathParams<'deleteFile'>; headers?: HeaderParams<'deleteFile'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'deleteFile'>> {
    return this.caller.call<SuccessBody<'deleteFile'>>(
      { method: 'DELETE', path: '/v1/drive/files/{uuid}', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Move a file to the trash.
   *
   * `POST /v1/drive/files/{uuid}/trash`.
   */
  trashFile(
    input: { path: PathParams<'trashFile'>; headers?: HeaderParams<'trashFile'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'trashFile'>> {
    return this.caller.call<SuccessBody<'trashFile'>>(
      { method: 'POST', path: '/v1/drive/files/{uuid}/trash', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Simple download (the server decrypts), as base64 in JSON.
   *
   * `GET /v1/drive/files/{uuid}/download` · retried (a read).
   */
  downloadFile(
    input: { path: PathParams<'downloadFile'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'downloadFile'>> {
    return this.caller.call<SuccessBody<'downloadFile'>>(
      { method: 'GET', path: '/v1/drive/files/{uuid}/download', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Chunked download init (the client decrypts).
   *
   * `GET /v1/drive/files/{uuid}/download_init` · retried (a read).
   */
  initChunkedDownload(
    input: { path: PathParams<'initChunkedDownload'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'initChunkedDownload'>> {
    return this.caller.call<SuccessBody<'initChunkedDownload'>>(
      { method: 'GET', path: '/v1/drive/files/{uuid}/download_init', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Start replacing a file's contents (one replacement in flight per file).
   *
   * `POST /v1/drive/files/{uuid}/replace`.
   */
  initReplace(
    input: {
      path: PathParams<'initReplace'>;
      headers?: HeaderParams<'initReplace'>;
      body: RequestBody<'initReplace'>;
    },
    options?: CallOptions,
  ): Promise<SuccessBody<'initReplace'>> {
    return this.caller.call<SuccessBody<'initReplace'>>(
      { method: 'POST', path: '/v1/drive/files/{uuid}/replace', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Presigned PUT URLs for parts of the staged version.
   *
   * `POST /v1/drive/files/{uuid}/replace/part_urls`.
   */
  getReplacePartUrls(
    input: { path: PathParams<'getReplacePartUrls'>; body: RequestBody<'getReplacePartUrls'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getReplacePartUrls'>> {
    return this.caller.call<SuccessBody<'getReplacePartUrls'>>(
      { method: 'POST', path: '/v1/drive/files/{uuid}/replace/part_urls', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Promote the staged version (ctag bumps).
   *
   * `POST /v1/drive/files/{uuid}/replace/complete`.
   */
  completeReplace(
    input: { path: PathParams<'completeReplace'>; body: RequestBody<'completeReplace'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'completeReplace'>> {
    return this.caller.call<SuccessBody<'completeReplace'>>(
      { method: 'POST', path: '/v1/drive/files/{uuid}/replace/complete', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Discard the staged version.
   *
   * `POST /v1/drive/files/{uuid}/replace/abort`.
   */
  abortReplace(
    input: { path: PathParams<'abortReplace'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'abortReplace'>> {
    return this.caller.call<SuccessBody<'abortReplace'>>(
      { method: 'POST', path: '/v1/drive/files/{uuid}/replace/abort', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Start a chunked upload of a new file.
   *
   * `POST /v1/drive/uploads`.
   */
  initUpload(
    input: { body: RequestBody<'initUpload'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'initUpload'>> {
    return this.caller.call<SuccessBody<'initUpload'>>(
      { method: 'POST', path: '/v1/drive/uploads', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * An upload in progress, with the parts the store holds (to resume it).
   *
   * `GET /v1/drive/uploads/{uuid}` · a Folio extension (docs/extensions.md) · retried (a read).
   */
  getUploadStatus(
    input: { path: PathParams<'getUploadStatus'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getUploadStatus'>> {
    return this.caller.call<SuccessBody<'getUploadStatus'>>(
      { method: 'GET', path: '/v1/drive/uploads/{uuid}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Presigned PUT URLs for parts of an upload.
   *
   * `POST /v1/drive/uploads/{uuid}/part_urls`.
   */
  getUploadPartUrls(
    input: { path: PathParams<'getUploadPartUrls'>; body: RequestBody<'getUploadPartUrls'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getUploadPartUrls'>> {
    return this.caller.call<SuccessBody<'getUploadPartUrls'>>(
      { method: 'POST', path: '/v1/drive/uploads/{uuid}/part_urls', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Complete an upload; the file becomes downloadable.
   *
   * `POST /v1/drive/uploads/{uuid}/complete`.
   */
  completeUpload(
    input: { path: PathParams<'completeUpload'>; body: RequestBody<'completeUpload'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'completeUpload'>> {
    return this.caller.call<SuccessBody<'completeUpload'>>(
      { method: 'POST', path: '/v1/drive/uploads/{uuid}/complete', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Cancel an upload and discard its parts.
   *
   * `POST /v1/drive/uploads/{uuid}/abort`.
   */
  abortUpload(
    input: { path: PathParams<'abortUpload'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'abortUpload'>> {
    return this.caller.call<SuccessBody<'abortUpload'>>(
      { method: 'POST', path: '/v1/drive/uploads/{uuid}/abort', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Create a folder.
   *
   * `POST /v1/drive/folders`.
   */
  createFolder(
    input: { body: RequestBody<'createFolder'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'createFolder'>> {
    return this.caller.call<SuccessBody<'createFolder'>>(
      { method: 'POST', path: '/v1/drive/folders', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Read a folder.
   *
   * `GET /v1/drive/folders/{uuid}` · retried (a read).
   */
  getFolder(
    input: { path: PathParams<'getFolder'>; headers?: HeaderParams<'getFolder'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getFolder'>> {
    return this.caller.call<SuccessBody<'getFolder'>>(
      { method: 'GET', path: '/v1/drive/folders/{uuid}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Rename, move, recolor, trash or restore a folder.
   *
   * `POST /v1/drive/folders/{uuid}`.
   */
  updateFolder(
    input: {
      path: PathParams<'updateFolder'>;
      headers?: HeaderParams<'updateFolder'>;
      body?: RequestBody<'updateFolder'>;
    },
    options?: CallOptions,
  ): Promise<SuccessBody<'updateFolder'>> {
    return this.caller.call<SuccessBody<'updateFolder'>>(
      { method: 'POST', path: '/v1/drive/folders/{uuid}', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Delete a folder and its whole subtree permanently.
   *
   * `DELETE /v1/drive/folders/{uuid}`.
   */
  deleteFolder(
    input: { path: PathParams<'deleteFolder'>; headers?: HeaderParams<'deleteFolder'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'deleteFolder'>> {
    return this.caller.call<SuccessBody<'deleteFolder'>>(
      { method: 'DELETE', path: '/v1/drive/folders/{uuid}', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Move a folder and every descendant to the trash.
   *
   * `POST /v1/drive/folders/{uuid}/trash`.
   */
  trashFolder(
    input: { path: PathParams<'trashFolder'>; headers?: HeaderParams<'trashFolder'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'trashFolder'>> {
    return this.caller.call<SuccessBody<'trashFolder'>>(
      { method: 'POST', path: '/v1/drive/folders/{uuid}/trash', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Sharing settings of a file (viewer role or higher).
   *
   * `GET /v1/drive/files/{uuid}/sharing` · retried (a read).
   */
  getFileSharing(
    input: { path: PathParams<'getFileSharing'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getFileSharing'>> {
    return this.caller.call<SuccessBody<'getFileSharing'>>(
      { method: 'GET', path: '/v1/drive/files/{uuid}/sharing', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Sharing settings of a folder (viewer role or higher).
   *
   * `GET /v1/drive/folders/{uuid}/sharing` · retried (a read).
   */
  getFolderSharing(
    input: { path: PathParams<'getFolderSharing'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getFolderSharing'>> {
    return this.caller.call<SuccessBody<'getFolderSharing'>>(
      { method: 'GET', path: '/v1/drive/folders/{uuid}/sharing', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * A file's thumbnail.
   *
   * `GET /v1/drive/files/{uuid}/thumbnail` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  getThumbnail(
    input: {
      path: PathParams<'getThumbnail'>;
      query?: QueryParams<'getThumbnail'>;
      headers?: HeaderParams<'getThumbnail'>;
    },
    options?: CallOptions,
  ): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'GET', path: '/v1/drive/files/{uuid}/thumbnail', retry: 'safe', raw: true },
      input,
      options,
    );
  }

  /**
   * Up to 25 thumbnails at once.
   *
   * `POST /v1/drive/thumbnails/batch`.
   */
  getThumbnailBatch(
    input: { body: RequestBody<'getThumbnailBatch'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getThumbnailBatch'>> {
    return this.caller.call<SuccessBody<'getThumbnailBatch'>>(
      { method: 'POST', path: '/v1/drive/thumbnails/batch', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * The changes feed.
   *
   * `GET /v1/drive/changes` · retried (a read).
   */
  listChanges(
    input?: { query?: QueryParams<'listChanges'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'listChanges'>> {
    return this.caller.call<SuccessBody<'listChanges'>>(
      { method: 'GET', path: '/v1/drive/changes', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Long-poll whether the changes feed has something after a sync token (the token is not advanced).
   *
   * `GET /v1/drive/changes/wait` · a Folio extension (docs/extensions.md) · retried (a read).
   */
  waitForChanges(
    input: { query: QueryParams<'waitForChanges'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'waitForChanges'>> {
    return this.caller.call<SuccessBody<'waitForChanges'>>(
      { method: 'GET', path: '/v1/drive/changes/wait', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Register a device (again with the same client, container and domain updates it in place).
   *
   * `POST /v1/drive/push_subscriptions`.
   */
  createPushSubscription(
    input: { body: RequestBody<'createPushSubscription'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'createPushSubscription'>> {
    return this.caller.call<SuccessBody<'createPushSubscription'>>(
      { method: 'POST', path: '/v1/drive/push_subscriptions', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Unregister a device (idempotent).
   *
   * `DELETE /v1/drive/push_subscriptions/{uuid}`.
   */
  deletePushSubscription(
    input: { path: PathParams<'deletePushSubscription'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'deletePushSubscription'>> {
    return this.caller.call<SuccessBody<'deletePushSubscription'>>(
      { method: 'DELETE', path: '/v1/drive/push_subscriptions/{uuid}', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * A shared file's bytes, or a shared folder's listing (HTML, or JSON for Accept application/json).
   *
   * `GET /s/{token}` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  openPublicLink(input: { path: PathParams<'openPublicLink'> }, options?: CallOptions): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'GET', path: '/s/{token}', retry: 'safe', raw: true },
      input,
      options,
    );
  }

  /**
   * The headers of GET /s/{token}, without opening storage.
   *
   * `HEAD /s/{token}` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  headPublicLink(input: { path: PathParams<'headPublicLink'> }, options?: CallOptions): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'HEAD', path: '/s/{token}', retry: 'safe', raw: true },
      input,
      options,
    );
  }

  /**
   * A file or folder anywhere below a shared folder.
   *
   * `GET /s/{token}/{uuid}` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  openPublicLinkItem(
    input: { path: PathParams<'openPublicLinkItem'> },
    options?: CallOptions,
  ): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'GET', path: '/s/{token}/{uuid}', retry: 'safe', raw: true },
      input,
      options,
    );
  }

  /**
   * The headers of GET /s/{token}/{uuid}.
   *
   * `HEAD /s/{token}/{uuid}` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  headPublicLinkItem(
    input: { path: PathParams<'headPublicLinkItem'> },
    options?: CallOptions,
  ): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'HEAD', path: '/s/{token}/{uuid}', retry: 'safe', raw: true },
      input,
      options,
    );
  }

  /**
   * Documents the caller owns or that are shared with them, newest first, Trash excluded.
   *
   * `GET /v1/documents` · retried (a read).
   */
  listDocuments(
    input?: { query?: QueryParams<'listDocuments'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'listDocuments'>> {
    return this.caller.call<SuccessBody<'listDocuments'>>(
      { method: 'GET', path: '/v1/documents', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Create an empty document owned by the caller.
   *
   * `POST /v1/documents`.
   */
  createDocument(
    input?: { body?: RequestBody<'createDocument'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'createDocument'>> {
    return this.caller.call<SuccessBody<'createDocument'>>(
      { method: 'POST', path: '/v1/documents', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Documents in Trash, same shape and order.
   *
   * `GET /v1/documents/trash` · retried (a read).
   */
  listTrashedDocuments(
    input?: { query?: QueryParams<'listTrashedDocuments'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'listTrashedDocuments'>> {
    return this.caller.call<SuccessBody<'listTrashedDocuments'>>(
      { method: 'GET', path: '/v1/documents/trash', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Read a document.
   *
   * `GET /v1/documents/{uuid}` · retried (a read).
   */
  getDocument(
    input: { path: PathParams<'getDocument'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getDocument'>> {
    return this.caller.call<SuccessBody<'getDocument'>>(
      { method: 'GET', path: '/v1/documents/{uuid}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Rename (editor), trash or restore (owner or manager).
   *
   * `POST /v1/documents/{uuid}`.
   */
  updateDocument(
    input: { path: PathParams<'updateDocument'>; body?: RequestBody<'updateDocument'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'updateDocument'>> {
    return this.caller.call<SuccessBody<'updateDocument'>>(
      { method: 'POST', path: '/v1/documents/{uuid}', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Move a document to Trash (already trashed changes nothing).
   *
   * `POST /v1/documents/{uuid}/trash`.
   */
  trashDocument(
    input: { path: PathParams<'trashDocument'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'trashDocument'>> {
    return this.caller.call<SuccessBody<'trashDocument'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/trash', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * The document as markdown with its open threads.
   *
   * `GET /v1/documents/{uuid}/content` · retried (a read).
   */
  getDocumentContent(
    input: { path: PathParams<'getDocumentContent'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getDocumentContent'>> {
    return this.caller.call<SuccessBody<'getDocumentContent'>>(
      { method: 'GET', path: '/v1/documents/{uuid}/content', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Edit with quoted operations (one revision, or nothing changes).
   *
   * `POST /v1/documents/{uuid}/content` · retried when the body carries a batch_id.
   */
  editDocumentContent(
    input: { path: PathParams<'editDocumentContent'>; body: RequestBody<'editDocumentContent'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'editDocumentContent'>> {
    return this.caller.call<SuccessBody<'editDocumentContent'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/content', retry: 'batch', body: 'json' },
      input,
      options,
    );
  }

  /**
   * The document as a markdown or HTML file.
   *
   * `GET /v1/documents/{uuid}/export` · a Folio extension (docs/extensions.md) · answers the Response itself (its body is not JSON) · retried (a read).
   */
  exportDocument(
    input: { path: PathParams<'exportDocument'>; query?: QueryParams<'exportDocument'> },
    options?: CallOptions,
  ): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'GET', path: '/v1/documents/{uuid}/export', retry: 'safe', raw: true },
      input,
      options,
    );
  }

  /**
   * The document's revisions, newest first.
   *
   * `GET /v1/documents/{uuid}/revisions` · a Folio extension (docs/extensions.md) · retried (a read).
   */
  listDocumentRevisions(
    input: { path: PathParams<'listDocumentRevisions'>; query?: QueryParams<'listDocumentRevisions'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'listDocumentRevisions'>> {
    return this.caller.call<SuccessBody<'listDocumentRevisions'>>(
      { method: 'GET', path: '/v1/documents/{uuid}/revisions', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * One revision, with the document's markdown as it last stood at it.
   *
   * `GET /v1/documents/{uuid}/revisions/{revision}` · a Folio extension (docs/extensions.md) · retried (a read).
   */
  getDocumentRevision(
    input: { path: PathParams<'getDocumentRevision'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getDocumentRevision'>> {
    return this.caller.call<SuccessBody<'getDocumentRevision'>>(
      { method: 'GET', path: '/v1/documents/{uuid}/revisions/{revision}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Make a new revision whose text is that revision's (one set_document edit).
   *
   * `POST /v1/documents/{uuid}/revisions/{revision}/restore` · a Folio extension (docs/extensions.md).
   */
  restoreDocumentRevision(
    input: { path: PathParams<'restoreDocumentRevision'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'restoreDocumentRevision'>> {
    return this.caller.call<SuccessBody<'restoreDocumentRevision'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/revisions/{revision}/restore', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * The live channel (Server-Sent Events of new revisions and thread changes).
   *
   * `GET /v1/documents/{uuid}/events` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  streamDocumentEvents(
    input: { path: PathParams<'streamDocumentEvents'> },
    options?: CallOptions,
  ): Promise<Response> {
    return this.caller.call<Response>(
      { method: 'GET', path: '/v1/documents/{uuid}/events', retry: 'safe', raw: true },
      input,
      options,
    );
  }

  /**
   * Suggest replace, insert and delete operations; each becomes its own suggestion.
   *
   * `POST /v1/documents/{uuid}/suggestions` · retried when the body carries a batch_id.
   */
  createSuggestions(
    input: { path: PathParams<'createSuggestions'>; body: RequestBody<'createSuggestions'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'createSuggestions'>> {
    return this.caller.call<SuccessBody<'createSuggestions'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/suggestions', retry: 'batch', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Accept a suggestion (editor).
   *
   * `POST /v1/documents/{uuid}/suggestions/{thread}/accept`.
   */
  acceptSuggestion(
    input: { path: PathParams<'acceptSuggestion'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'acceptSuggestion'>> {
    return this.caller.call<SuccessBody<'acceptSuggestion'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/suggestions/{thread}/accept', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Reject a suggestion (editor).
   *
   * `POST /v1/documents/{uuid}/suggestions/{thread}/reject`.
   */
  rejectSuggestion(
    input: { path: PathParams<'rejectSuggestion'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'rejectSuggestion'>> {
    return this.caller.call<SuccessBody<'rejectSuggestion'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/suggestions/{thread}/reject', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Delete a suggestion (its author, manager or owner).
   *
   * `DELETE /v1/documents/{uuid}/suggestions/{thread}`.
   */
  deleteSuggestion(
    input: { path: PathParams<'deleteSuggestion'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'deleteSuggestion'>> {
    return this.caller.call<SuccessBody<'deleteSuggestion'>>(
      { method: 'DELETE', path: '/v1/documents/{uuid}/suggestions/{thread}', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Comment on a quote, or on the whole document without `on`.
   *
   * `POST /v1/documents/{uuid}/comments`.
   */
  createComment(
    input: { path: PathParams<'createComment'>; body: RequestBody<'createComment'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'createComment'>> {
    return this.caller.call<SuccessBody<'createComment'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/comments', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Resolve or reopen a comment.
   *
   * `POST /v1/documents/{uuid}/comments/{thread}`.
   */
  setCommentStatus(
    input: { path: PathParams<'setCommentStatus'>; body: RequestBody<'setCommentStatus'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'setCommentStatus'>> {
    return this.caller.call<SuccessBody<'setCommentStatus'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/comments/{thread}', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Delete a comment with its replies (own, or any if manager or owner).
   *
   * `DELETE /v1/documents/{uuid}/comments/{thread}`.
   */
  deleteComment(
    input: { path: PathParams<'deleteComment'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'deleteComment'>> {
    return this.caller.call<SuccessBody<'deleteComment'>>(
      { method: 'DELETE', path: '/v1/documents/{uuid}/comments/{thread}', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Reply to a comment.
   *
   * `POST /v1/documents/{uuid}/comments/{thread}/replies`.
   */
  replyToComment(
    input: { path: PathParams<'replyToComment'>; body: RequestBody<'replyToComment'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'replyToComment'>> {
    return this.caller.call<SuccessBody<'replyToComment'>>(
      {
        method: 'POST',
        path: '/v1/documents/{uuid}/comments/{thread}/replies',
        retry: 'never',
        body: 'json',
      },
      input,
      options,
    );
  }

  /**
   * Edit a message you wrote.
   *
   * `POST /v1/documents/{uuid}/comments/{thread}/messages/{message}`.
   */
  editCommentMessage(
    input: { path: PathParams<'editCommentMessage'>; body: RequestBody<'editCommentMessage'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'editCommentMessage'>> {
    return this.caller.call<SuccessBody<'editCommentMessage'>>(
      {
        method: 'POST',
        path: '/v1/documents/{uuid}/comments/{thread}/messages/{message}',
        retry: 'never',
        body: 'json',
      },
      input,
      options,
    );
  }

  /**
   * Delete a message (its opening message deletes the comment).
   *
   * `DELETE /v1/documents/{uuid}/comments/{thread}/messages/{message}`.
   */
  deleteCommentMessage(
    input: { path: PathParams<'deleteCommentMessage'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'deleteCommentMessage'>> {
    return this.caller.call<SuccessBody<'deleteCommentMessage'>>(
      { method: 'DELETE', path: '/v1/documents/{uuid}/comments/{thread}/messages/{message}', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Upload an attachment's raw bytes (type read from the bytes).
   *
   * `POST /v1/documents/{uuid}/attachments`.
   */
  uploadAttachment(
    input: { path: PathParams<'uploadAttachment'>; query: QueryParams<'uploadAttachment'>; body: Uint8Array },
    options?: CallOptions,
  ): Promise<SuccessBody<'uploadAttachment'>> {
    return this.caller.call<SuccessBody<'uploadAttachment'>>(
      { method: 'POST', path: '/v1/documents/{uuid}/attachments', retry: 'never', body: 'bytes' },
      input,
      options,
    );
  }

  /**
   * Read an attachment's metadata.
   *
   * `GET /v1/documents/{uuid}/attachments/{attachment}` · retried (a read).
   */
  getAttachment(
    input: { path: PathParams<'getAttachment'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getAttachment'>> {
    return this.caller.call<SuccessBody<'getAttachment'>>(
      { method: 'GET', path: '/v1/documents/{uuid}/attachments/{attachment}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * An attachment's bytes.
   *
   * `GET /v1/documents/{uuid}/attachments/{attachment}/download` · answers the Response itself (its body is not JSON) · retried (a read).
   */
  downloadAttachment(
    input: { path: PathParams<'downloadAttachment'> },
    options?: CallOptions,
  ): Promise<Response> {
    return this.caller.call<Response>(
      {
        method: 'GET',
        path: '/v1/documents/{uuid}/attachments/{attachment}/download',
        retry: 'safe',
        raw: true,
      },
      input,
      options,
    );
  }

  /**
   * Read an email (members of its mailbox only).
   *
   * `GET /v1/emails/{uuid}` · retried (a read).
   */
  getEmail(input: { path: PathParams<'getEmail'> }, options?: CallOptions): Promise<SuccessBody<'getEmail'>> {
    return this.caller.call<SuccessBody<'getEmail'>>(
      { method: 'GET', path: '/v1/emails/{uuid}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * The workspace's destinations.
   *
   * `GET /v1/admin/webhooks` · retried (a read).
   */
  listWebhookDestinations(options?: CallOptions): Promise<SuccessBody<'listWebhookDestinations'>> {
    return this.caller.call<SuccessBody<'listWebhookDestinations'>>(
      { method: 'GET', path: '/v1/admin/webhooks', retry: 'safe' },
      undefined,
      options,
    );
  }

  /**
   * Create a destination; its signing secret is shown this once.
   *
   * `POST /v1/admin/webhooks`.
   */
  createWebhookDestination(
    input: { body: RequestBody<'createWebhookDestination'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'createWebhookDestination'>> {
    return this.caller.call<SuccessBody<'createWebhookDestination'>>(
      { method: 'POST', path: '/v1/admin/webhooks', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * A destination.
   *
   * `GET /v1/admin/webhooks/{uuid}` · retried (a read).
   */
  getWebhookDestination(
    input: { path: PathParams<'getWebhookDestination'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getWebhookDestination'>> {
    return this.caller.call<SuccessBody<'getWebhookDestination'>>(
      { method: 'GET', path: '/v1/admin/webhooks/{uuid}', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Change url, description or mailboxes (mailboxes replaces the list).
   *
   * `PATCH /v1/admin/webhooks/{uuid}`.
   */
  updateWebhookDestination(
    input: { path: PathParams<'updateWebhookDestination'>; body: RequestBody<'updateWebhookDestination'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'updateWebhookDestination'>> {
    return this.caller.call<SuccessBody<'updateWebhookDestination'>>(
      { method: 'PATCH', path: '/v1/admin/webhooks/{uuid}', retry: 'never', body: 'json' },
      input,
      options,
    );
  }

  /**
   * Pause an active destination (events while paused are not queued).
   *
   * `POST /v1/admin/webhooks/{uuid}/pause`.
   */
  pauseWebhookDestination(
    input: { path: PathParams<'pauseWebhookDestination'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'pauseWebhookDestination'>> {
    return this.caller.call<SuccessBody<'pauseWebhookDestination'>>(
      { method: 'POST', path: '/v1/admin/webhooks/{uuid}/pause', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Resume a paused destination.
   *
   * `POST /v1/admin/webhooks/{uuid}/resume`.
   */
  resumeWebhookDestination(
    input: { path: PathParams<'resumeWebhookDestination'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'resumeWebhookDestination'>> {
    return this.caller.call<SuccessBody<'resumeWebhookDestination'>>(
      { method: 'POST', path: '/v1/admin/webhooks/{uuid}/resume', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Turn a disabled destination back on (missed events are not replayed).
   *
   * `POST /v1/admin/webhooks/{uuid}/enable`.
   */
  enableWebhookDestination(
    input: { path: PathParams<'enableWebhookDestination'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'enableWebhookDestination'>> {
    return this.caller.call<SuccessBody<'enableWebhookDestination'>>(
      { method: 'POST', path: '/v1/admin/webhooks/{uuid}/enable', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Reveal the signing secret (and the previous one while it overlaps); audited.
   *
   * `GET /v1/admin/webhooks/{uuid}/secret` · retried (a read).
   */
  revealWebhookSecret(
    input: { path: PathParams<'revealWebhookSecret'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'revealWebhookSecret'>> {
    return this.caller.call<SuccessBody<'revealWebhookSecret'>>(
      { method: 'GET', path: '/v1/admin/webhooks/{uuid}/secret', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Rotate the signing secret; the previous one keeps signing for an overlap.
   *
   * `POST /v1/admin/webhooks/{uuid}/rotate-secret`.
   */
  rotateWebhookSecret(
    input: { path: PathParams<'rotateWebhookSecret'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'rotateWebhookSecret'>> {
    return this.caller.call<SuccessBody<'rotateWebhookSecret'>>(
      { method: 'POST', path: '/v1/admin/webhooks/{uuid}/rotate-secret', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * The last 7 UTC days, oldest first, one row per day.
   *
   * `GET /v1/admin/webhooks/{uuid}/stats` · retried (a read).
   */
  getWebhookStats(
    input: { path: PathParams<'getWebhookStats'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'getWebhookStats'>> {
    return this.caller.call<SuccessBody<'getWebhookStats'>>(
      { method: 'GET', path: '/v1/admin/webhooks/{uuid}/stats', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Delivery attempts, newest first.
   *
   * `GET /v1/admin/webhooks/{uuid}/attempts` · retried (a read).
   */
  listWebhookAttempts(
    input: { path: PathParams<'listWebhookAttempts'>; query?: QueryParams<'listWebhookAttempts'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'listWebhookAttempts'>> {
    return this.caller.call<SuccessBody<'listWebhookAttempts'>>(
      { method: 'GET', path: '/v1/admin/webhooks/{uuid}/attempts', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Deliveries (those in flight when no state is given).
   *
   * `GET /v1/admin/webhooks/{uuid}/deliveries` · retried (a read).
   */
  listWebhookDeliveries(
    input: { path: PathParams<'listWebhookDeliveries'>; query?: QueryParams<'listWebhookDeliveries'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'listWebhookDeliveries'>> {
    return this.caller.call<SuccessBody<'listWebhookDeliveries'>>(
      { method: 'GET', path: '/v1/admin/webhooks/{uuid}/deliveries', retry: 'safe' },
      input,
      options,
    );
  }

  /**
   * Send a waiting delivery's next attempt now.
   *
   * `POST /v1/admin/webhooks/{uuid}/deliveries/{event}/retry`.
   */
  retryWebhookDelivery(
    input: { path: PathParams<'retryWebhookDelivery'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'retryWebhookDelivery'>> {
    return this.caller.call<SuccessBody<'retryWebhookDelivery'>>(
      { method: 'POST', path: '/v1/admin/webhooks/{uuid}/deliveries/{event}/retry', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Stop a delivery in flight, with a reason.
   *
   * `POST /v1/admin/webhooks/{uuid}/deliveries/{event}/terminate`.
   */
  terminateWebhookDelivery(
    input: { path: PathParams<'terminateWebhookDelivery'>; body: RequestBody<'terminateWebhookDelivery'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'terminateWebhookDelivery'>> {
    return this.caller.call<SuccessBody<'terminateWebhookDelivery'>>(
      {
        method: 'POST',
        path: '/v1/admin/webhooks/{uuid}/deliveries/{event}/terminate',
        retry: 'never',
        body: 'json',
      },
      input,
      options,
    );
  }

  /**
   * Send a signed webhook.test event to an active destination, once.
   *
   * `POST /v1/admin/webhooks/{uuid}/test` · a Folio extension (docs/extensions.md).
   */
  sendWebhookTestEvent(
    input: { path: PathParams<'sendWebhookTestEvent'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'sendWebhookTestEvent'>> {
    return this.caller.call<SuccessBody<'sendWebhookTestEvent'>>(
      { method: 'POST', path: '/v1/admin/webhooks/{uuid}/test', retry: 'never' },
      input,
      options,
    );
  }

  /**
   * Send one past event to this destination again, as a new round of five attempts.
   *
   * `POST /v1/admin/webhooks/{uuid}/deliveries/{event}/resend` · a Folio extension (docs/extensions.md).
   */
  resendWebhookEvent(
    input: { path: PathParams<'resendWebhookEvent'> },
    options?: CallOptions,
  ): Promise<SuccessBody<'resendWebhookEvent'>> {
    return this.caller.call<SuccessBody<'resendWebhookEvent'>>(
      { method: 'POST', path: '/v1/admin/webhooks/{uuid}/deliveries/{event}/resend', retry: 'never' },
      input,
      options,
    );
  }
}
