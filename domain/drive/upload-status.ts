// Upload session status (an extension, docs/extensions.md § Upload session status; Dropbox upload sessions, OneDrive
// nextExpectedRanges): the parts the store holds for the caller's chunked upload in flight, so an interrupted client
// resumes without sending them again.
import type { Caller } from '../caller.js';
import { stagedChunkedUpload } from './content.js';
import type { StoredContent, UploadedPart } from './content-objects.js';
import { invalidUploadStatus } from './errors.js';
import type { VersionRow } from './rows.js';

export interface UploadStatus {
  version: VersionRow;
  parts: UploadedPart[];
  /** When the upload's lifecycle discards it if not completed: its start plus FOLIO_UPLOAD_EXPIRY. */
  expiresAt: Date;
}

/** The caller's chunked upload in flight with the parts S3 lists (ListParts): 404 if unknown, 422 once completed. */
export async function readUploadStatus(
  deps: StoredContent,
  caller: Caller,
  fileUuid: string,
  uploadExpiryMs: number,
): Promise<UploadStatus> {
  const version = await stagedChunkedUpload(deps.db, caller, fileUuid);
  const parts = await deps.objects.listParts(version.storage_key, version.storage_upload_id);
  if (!parts) {
    // A complete assembled the parts and then was refused (content_hash_mismatch) or did not commit: there are no
    // parts left to list or send, only that object to complete again or abort (docs/extensions.md § Content hash).
    throw invalidUploadStatus('The parts are assembled: complete the upload again, or abort it.');
  }
  return {
    version,
    parts: parts.sort((a, b) => a.part - b.part),
    expiresAt: new Date(new Date(version.created_at).getTime() + uploadExpiryMs),
  };
}
