// Input several Drive routes read the same way: the declared size of an upload or replacement, and the bodies of
// the chunked transfer steps both uploads and replacements take (spec/drive.md § Chunked upload, § Replace contents).
import * as z from 'zod';
import { CONTENT_HASH_PATTERN } from '../../domain/drive/content-hash.js';
import { invalidField, invalidFileSize } from '../../domain/drive/errors.js';
import { MAX_CHUNKED_FILE_BYTES } from '../../domain/drive/crypto.js';
import { checkedBy, driveInput, type InputErrors } from '../middleware/validate.js';

/** Part URLs are presigned in batches; a 1 TiB file has 10,000 parts. */
const MAX_PART_URLS_PER_REQUEST = 1000;

/** A declared plaintext size: an integer from 0 to 1 TiB; anything else is 422 invalid_file_size. */
export const PlaintextSize = z.number().int().min(0).max(MAX_CHUNKED_FILE_BYTES);

/** Drive's error policy for a body with plaintext_size_bytes. */
export const sizedInput: InputErrors = {
  ...driveInput,
  fields: { 'body.plaintext_size_bytes': () => invalidFileSize() },
};

export const PartUrlsBody = z.object({
  part_numbers: z.array(z.number().int()).max(MAX_PART_URLS_PER_REQUEST),
});

/** A client's content hash (an extension, docs/extensions.md § Content hash): 64 hex digits, kept lower-case. */
const ContentHash = z.string().transform(
  checkedBy((value) => {
    const hash = String(value).toLowerCase();
    if (!CONTENT_HASH_PATTERN.test(hash))
      throw invalidField(
        'content_hash',
        "content_hash is 64 hexadecimal digits (the SHA-256 of the 4 MiB blocks' SHA-256s).",
      );
    return hash;
  }),
);

export const CompleteBody = z.object({
  parts: z.array(z.object({ part_number: z.number().int(), etag: z.string() })).max(10_000),
  content_hash: ContentHash.optional(),
});
