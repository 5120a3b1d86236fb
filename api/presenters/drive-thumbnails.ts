// The exact thumbnail objects of spec/drive.md: the batch list and its items. data, content_type and version are
// present only on a ready item; nothing but the uuid asked and `not_found` is said of an item the caller cannot see.
import type { ThumbnailLookup } from '../../domain/drive/thumbnails.js';

export type BatchEntry = { uuid: string; lookup: ThumbnailLookup | undefined; data?: Buffer };

function presentThumbnailBatchItem(entry: BatchEntry) {
  const { uuid, lookup } = entry;
  if (!lookup) return { uuid, status: 'not_found' };
  if (lookup.status !== 'ready') return { uuid, status: lookup.status };
  return {
    uuid,
    status: 'ready',
    data: entry.data!.toString('base64'),
    content_type: lookup.thumbnail.content_type!,
    version: lookup.item.version,
  };
}

export function presentThumbnailBatch(entries: BatchEntry[]) {
  return { object: 'list', thumbnails: entries.map(presentThumbnailBatchItem) };
}
