// The exact objects of a file's bytes in spec/drive.md: the initiate answers of uploads and replacements, part
// URLs, the chunked download's init, and the simple download's JSON, streamed.
import { Readable } from 'node:stream';
import type { PartUrl, StagedContent } from '../../domain/drive/content.js';
import { base64Length, base64Stream, encodeDataKey, type ChunkLayout } from '../../domain/drive/crypto.js';
import type { VisibleItem } from '../../domain/drive/rows.js';
import type { UploadStatus } from '../../domain/drive/upload-status.js';

/** The upload initiate fields; the replace initiate answers the same with version_uuid for file_uuid. */
export function presentStagedContent(staged: StagedContent, idField: 'file_uuid' | 'version_uuid') {
  return {
    [idField]: idField === 'file_uuid' ? staged.fileUuid : staged.versionUuid,
    data_key: encodeDataKey(staged.dataKey),
    chunk_size_bytes: staged.layout.chunkSizeBytes,
    chunk_count: staged.layout.chunkCount,
    storage_upload_id: staged.uploadId,
  };
}

/** A chunked upload in flight (an extension): its layout, the parts storage holds, and when it expires. */
export function presentUploadStatus(status: UploadStatus) {
  return {
    object: 'drive_upload',
    file_uuid: status.version.file_uuid,
    upload_status: 'uploading',
    chunk_size_bytes: status.version.chunk_size_bytes,
    chunk_count: status.version.chunk_count,
    storage_upload_id: status.version.storage_upload_id,
    parts: status.parts.map((part) => ({ part_number: part.part, size_bytes: part.size, etag: part.etag })),
    expires_at: status.expiresAt.toISOString(),
  };
}

export function presentPartUrls(urls: PartUrl[]) {
  return {
    object: 'list',
    part_urls: urls.map((part) => ({
      part_number: part.partNumber,
      url: part.url,
      expires_at: part.expiresAt,
    })),
  };
}

export function presentDownloadInit(download: {
  versionUuid: string;
  layout: ChunkLayout;
  dataKey: Buffer;
  downloadUrl: string;
}) {
  return {
    data_key: encodeDataKey(download.dataKey),
    chunk_size_bytes: download.layout.chunkSizeBytes,
    chunk_count: download.layout.chunkCount,
    ciphertext_size_bytes: download.layout.ciphertextSizeBytes,
    download_url: download.downloadUrl,
    version_uuid: download.versionUuid,
  };
}

/**
 * The simple download's `{uuid, name, content_type, size, data}` as a stream of known length: the plaintext is
 * base64-encoded on the way out, so memory stays at one chunk whatever the size. A chunk failing authentication
 * cuts the body short (its Content-Length unmet), after `onFailure` is told.
 */
export function presentDownload(
  download: { item: VisibleItem; layout: ChunkLayout; plaintext: AsyncIterable<Buffer> },
  onFailure: (error: unknown) => void,
): { body: Readable; length: number } {
  const { item, layout, plaintext } = download;
  const head = `${JSON.stringify({ uuid: item.uuid, name: item.name, content_type: item.content_type, size: layout.plaintextSizeBytes }).slice(0, -1)},"data":"`;
  const tail = '"}';
  async function* body() {
    yield head;
    try {
      yield* base64Stream(plaintext);
    } catch (error) {
      onFailure(error);
      throw error;
    }
    yield tail;
  }
  return {
    body: Readable.from(body(), { objectMode: false }),
    length: Buffer.byteLength(head) + base64Length(layout.plaintextSizeBytes) + tail.length,
  };
}
