// Every request and response type of the client, in one module, written from spec/drive.md, spec/documents.md and
// docs/drive-encryption.md. Once openapi/folio.yaml lands these are generated from it; keep every type here.

export type Role = 'viewer' | 'commenter' | 'editor' | 'manager' | 'owner';

export interface Owner {
  self: boolean;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
}

// --- Drive -------------------------------------------------------------------------------------------

export interface DriveFile {
  object: 'drive_file';
  uuid: string;
  folder_uuid: string | null;
  name: string;
  content_type: string;
  file_size_bytes: number;
  upload_status: 'uploading' | 'completed';
  trashed: boolean;
  has_preview: boolean;
  version: number;
  ctag: number;
  created_at: string;
  updated_at: string;
  my_role: Role;
  shared: boolean;
  owner: Owner;
}

export interface DriveFolder {
  object: 'drive_folder';
  uuid: string;
  parent_uuid: string | null;
  name: string;
  color: string | null;
  trashed: boolean;
  version: number;
  created_at: string;
  updated_at: string;
  my_role: Role;
  shared: boolean;
  owner: Owner;
}

export interface DriveList {
  object: 'list';
  url: string;
  folder_uuid: string | null;
  folders: DriveFolder[];
  files: DriveFile[];
}

export interface CreateFolderRequest {
  name: string;
  parent_uuid?: string | null;
  color?: string;
}

export interface SimpleUploadRequest {
  name: string;
  content_type: string;
  /** Standard base64 of the bytes. */
  data: string;
  folder_uuid?: string | null;
}

export interface SimpleDownload {
  uuid: string;
  name: string;
  content_type: string;
  size: number;
  data: string;
}

export interface UploadInitiateRequest {
  name: string;
  content_type: string;
  plaintext_size_bytes: number;
  folder_uuid?: string | null;
}

export interface UploadInitiate {
  file_uuid: string;
  /** Standard base64 of the 32 raw key bytes (docs/drive-encryption.md § 1). */
  data_key: string;
  chunk_size_bytes: number;
  chunk_count: number;
  storage_upload_id: string;
}

export interface ReplaceInitiateRequest {
  plaintext_size_bytes: number;
  content_type?: string;
}

export interface ReplaceInitiate {
  version_uuid: string;
  data_key: string;
  chunk_size_bytes: number;
  chunk_count: number;
  storage_upload_id: string;
}

export interface PartUrlsRequest {
  part_numbers: number[];
}

export interface PartUrl {
  part_number: number;
  url: string;
  expires_at: string;
}

export interface PartUrls {
  object: 'list';
  part_urls: PartUrl[];
}

export interface CompletedPart {
  part_number: number;
  etag: string;
}

export interface CompleteRequest {
  parts: CompletedPart[];
}

export interface DownloadInit {
  data_key: string;
  chunk_size_bytes: number;
  chunk_count: number;
  ciphertext_size_bytes: number;
  download_url: string;
  /** The version the chunks' AAD binds (docs/drive-encryption.md § 2). */
  version_uuid: string;
}

export type ChangeEntry =
  | { type: 'create' | 'update'; resource_type: 'file'; uuid: string; resource: DriveFile }
  | { type: 'create' | 'update'; resource_type: 'folder'; uuid: string; resource: DriveFolder }
  | { type: 'delete'; resource_type: 'file' | 'folder'; uuid: string; parent_uuid: string | null };

export interface ChangesPage {
  object: 'list';
  url: string;
  as_of: string;
  sync_token: string;
  has_more: boolean;
  changes: ChangeEntry[];
}

// --- Documents ---------------------------------------------------------------------------------------

export interface Document {
  object: 'document';
  uuid: string;
  workspace_uuid: string;
  title: string | null;
  url: string;
  my_role: Role;
  shared: boolean;
  owner: Owner;
  trashed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ThreadMessage {
  uuid: string;
  author: Owner;
  body: string;
  created_at: string;
  edited_at: string | null;
}

export interface Thread {
  uuid: string;
  kind: 'comment' | 'suggestion';
  ref: string | null;
  status: string;
  placement: 'attached' | 'document' | 'detached';
  quote: string | null;
  suggested_text: string | null;
  suggested_format: unknown;
  author: Owner;
  created_at: string;
  messages: ThreadMessage[];
}

export interface DocumentContent {
  object: 'document_content';
  uuid: string;
  revision: number;
  markdown: string;
  threads: Thread[];
}

/** A quote's narrowing, as for an edit (spec/documents.md § Quote matching). */
export interface QuoteNarrowing {
  occurrence?: number | 'first' | 'last';
  before?: string;
  after?: string;
}

export type EditOperation =
  | ({ type: 'replace'; find: string; with: string } & QuoteNarrowing)
  | { type: 'insert'; markdown: string; after: string }
  | { type: 'insert'; markdown: string; before: string }
  | ({ type: 'delete'; find: string } & QuoteNarrowing)
  | { type: 'set_document'; markdown: string };

export interface EditRequest {
  operations: EditOperation[];
  base_revision?: number;
  batch_id?: string;
}

// --- Errors ------------------------------------------------------------------------------------------

/** Every error body carries `error`; the rest depends on the code (spec: pool_bytes, candidates, current…). */
export interface ErrorBody {
  error: string;
  error_description?: string;
  [field: string]: unknown;
}

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
