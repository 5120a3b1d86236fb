// Drive thumbnails (spec/drive.md § Thumbnails; decisions in docs/drive-thumbnails.md): which files may have a
// preview, what a request finds (ready, generating, no preview), rendering one file version and storing its thumbnail
// encrypted beside the file's bytes, has_preview with its version bump and change, and removing thumbnails with their
// versions. One thumbnail per (file version, variant); a replacement gets its own.
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { isUuid } from '../uuid.js';
import { appendChange } from './change-log.js';
import type { StoredContent } from './content-objects.js';
import { decryptChunks, decryptThumbnail, encryptThumbnail, unwrapDataKey } from './crypto.js';
import { invalidVariant } from './errors.js';
import { findVisibleItem, selectVisible } from './items.js';
import type { ItemRow, VersionRow, VisibleItem } from './rows.js';
import {
  renderThumbnail,
  UnrenderableImage,
  type RenderedThumbnail,
  type RenderLimits,
} from './thumbnail-render.js';
import { layoutOfVersion } from './versions.js';

/** The spec's only variant: aspect kept, longest edge 1024 px. */
const THUMBNAIL_VARIANTS = ['1024_fit'] as const;
export type ThumbnailVariant = (typeof THUMBNAIL_VARIANTS)[number];
const DEFAULT_THUMBNAIL_VARIANT: ThumbnailVariant = '1024_fit';
/** spec/drive.md § Limits. */
export const THUMBNAIL_BATCH_MAX_UUIDS = 25;
export const THUMBNAIL_CACHE_SECONDS = 31_536_000;

/** The variant a request names, or the default; anything else is 400 invalid_variant. */
export function checkVariant(value: unknown): ThumbnailVariant {
  if (value === undefined) return DEFAULT_THUMBNAIL_VARIANT;
  if (typeof value === 'string' && (THUMBNAIL_VARIANTS as readonly string[]).includes(value))
    return value as ThumbnailVariant;
  throw invalidVariant();
}

export interface ThumbnailLimits extends RenderLimits {
  /** Plaintext size above which a file is not rendered at all (the spec's "over the size cap"). */
  maxSourceBytes: number;
}

// The image types the spec lists for has_preview (jpeg, png, gif, webp, tiff, heic) and their usual aliases, plus
// HEIF and AVIF, which are the same container.
const PREVIEW_TYPES = new Set([
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/tiff',
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
  'image/avif',
]);
const PREVIEW_EXTENSION = /\.(jpe?g|jfif|png|gif|webp|tiff?|heic|heif|avif)$/i;
/** Types that say nothing about the bytes: a file with one of these is judged by its name's extension. */
const UNTYPED = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown']);

const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Whether a file is of a kind that has previews: an image type the spec lists, or an untyped file named like one. The
 * bytes decide in the end: a file whose type or name lies renders by what it is, or ends with no preview.
 */
export function isPreviewable(item: Pick<ItemRow, 'kind' | 'content_type' | 'name'>): boolean {
  if (item.kind !== 'file') return false;
  const type = mediaType(item.content_type);
  return PREVIEW_TYPES.has(type) || (UNTYPED.has(type) && PREVIEW_EXTENSION.test(item.name));
}

/** A previewable file within the size cap. */
export const mayHavePreview = (
  item: Pick<ItemRow, 'kind' | 'content_type' | 'name' | 'file_size_bytes'>,
  limits: Pick<ThumbnailLimits, 'maxSourceBytes'>,
) => isPreviewable(item) && Number(item.file_size_bytes ?? 0) <= limits.maxSourceBytes;

/** The ids a thumbnail workflow carries: never bytes or keys. */
export interface ThumbnailIds {
  workspaceUuid: string;
  fileUuid: string;
  versionUuid: string;
}

/**
 * Asks for the thumbnail of the file's live version after the transaction commits (the workflow outbox). The size cap
 * is the worker's to apply (its setting when it runs), so an upload needs none of the thumbnail settings.
 */
export async function requestThumbnail(unit: UnitOfWork, item: ItemRow): Promise<void> {
  if (!item.live_version_uuid || item.upload_status !== 'completed' || !isPreviewable(item)) return;
  await unit.workflows.startThumbnail({
    workspaceUuid: item.workspace_uuid,
    fileUuid: item.uuid,
    versionUuid: item.live_version_uuid,
  });
}

/** One object per thumbnail, under the file's folder of objects: thumbnails/<workspace>/<file>/<version>/<variant>. */
const thumbnailStorageKey = (ids: ThumbnailIds, variant: ThumbnailVariant) =>
  `thumbnails/${ids.workspaceUuid}/${ids.fileUuid}/${ids.versionUuid}/${variant}`;

interface ThumbnailRow {
  version_uuid: string;
  variant: ThumbnailVariant;
  file_uuid: string;
  workspace_uuid: string;
  status: 'ready' | 'failed';
  content_type: 'image/jpeg' | 'image/png' | null;
  storage_key: string | null;
  width: number | null;
  height: number | null;
  size_bytes: number | null;
  failure: string | null;
  created_at: Date;
}

// --- Reading --------------------------------------------------------------------------------------------

export type ThumbnailLookup =
  | { status: 'ready'; item: VisibleItem; thumbnail: ThumbnailRow & { wrapped_key: Buffer }; etag: string }
  | { status: 'generating'; item: VisibleItem; ids: ThumbnailIds }
  | { status: 'no_preview'; item: VisibleItem };

/**
 * A strong validator of the thumbnail's bytes: they never change for a version and variant, and a replacement is a
 * new version, so the version uuid and the variant identify them.
 */
const thumbnailEtag = (thumbnail: Pick<ThumbnailRow, 'version_uuid' | 'variant'>) =>
  `"${thumbnail.version_uuid}.${thumbnail.variant}"`;

type StoredThumbnail = ThumbnailRow & { wrapped_key: Buffer };

function judge(
  item: VisibleItem,
  thumbnail: StoredThumbnail | undefined,
  limits: ThumbnailLimits,
): ThumbnailLookup {
  if (!mayHavePreview(item, limits) || !item.live_version_uuid) return { status: 'no_preview', item };
  if (!thumbnail)
    return {
      status: 'generating',
      item,
      ids: { workspaceUuid: item.workspace_uuid, fileUuid: item.uuid, versionUuid: item.live_version_uuid },
    };
  if (thumbnail.status === 'failed') return { status: 'no_preview', item };
  return { status: 'ready', item, thumbnail, etag: thumbnailEtag(thumbnail) };
}

async function thumbnailsOfVersions(
  knex: Knex,
  versionUuids: string[],
  variant: ThumbnailVariant,
): Promise<Map<string, StoredThumbnail>> {
  if (!versionUuids.length) return new Map();
  const rows = (await knex('drive_thumbnails as t')
    .join('drive_file_versions as v', 'v.uuid', 't.version_uuid')
    .whereIn('t.version_uuid', versionUuids)
    .where('t.variant', variant)
    .select('t.*', 'v.wrapped_key')) as StoredThumbnail[];
  return new Map(rows.map((row) => [row.version_uuid, row]));
}

/** What GET …/thumbnail finds for a file the caller can see (a trashed one too); 404 for anything else. */
export async function lookupThumbnail(
  knex: Knex,
  caller: Caller,
  fileUuid: string,
  variant: ThumbnailVariant,
  limits: ThumbnailLimits,
): Promise<ThumbnailLookup> {
  const item = await findVisibleItem(knex, caller, fileUuid, { kind: 'file' });
  const thumbnails = await thumbnailsOfVersions(
    knex,
    item.live_version_uuid ? [item.live_version_uuid] : [],
    variant,
  );
  return judge(item, thumbnails.get(item.live_version_uuid ?? ''), limits);
}

/**
 * What the batch finds for each uuid, in the order asked; undefined for a uuid that is malformed, unknown, not a
 * file, still uploading, deleted, or not visible to the caller: they all read the same (not_found).
 */
export async function lookupThumbnails(
  knex: Knex,
  caller: Caller,
  fileUuids: string[],
  variant: ThumbnailVariant,
  limits: ThumbnailLimits,
): Promise<(ThumbnailLookup | undefined)[]> {
  const wanted = [...new Set(fileUuids.filter(isUuid).map((uuid) => uuid.toLowerCase()))];
  const items = wanted.length
    ? ((await selectVisible(knex, caller)
        .whereIn('i.uuid', wanted)
        .where('i.kind', 'file')
        .whereRaw(`i.upload_status is distinct from 'uploading'`)) as VisibleItem[])
    : [];
  const byUuid = new Map(items.map((item) => [item.uuid, item]));
  const thumbnails = await thumbnailsOfVersions(
    knex,
    items.flatMap((item) => (item.live_version_uuid ? [item.live_version_uuid] : [])),
    variant,
  );
  return fileUuids.map((uuid) => {
    const item = isUuid(uuid) ? byUuid.get(uuid.toLowerCase()) : undefined;
    return item ? judge(item, thumbnails.get(item.live_version_uuid ?? ''), limits) : undefined;
  });
}

/** The plaintext image of a ready thumbnail. */
export async function readThumbnail(
  deps: Pick<StoredContent, 'objects'> & { masterKey: Buffer },
  thumbnail: StoredThumbnail,
): Promise<Buffer> {
  const stream = await deps.objects.get(thumbnail.storage_key!);
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  const key = unwrapDataKey(deps.masterKey, thumbnail.version_uuid, thumbnail.wrapped_key);
  return decryptThumbnail(key, thumbnail.version_uuid, thumbnail.variant, Buffer.concat(pieces));
}

// --- Rendering (the thumbnail workflow's activities) -----------------------------------------------------------

export type ThumbnailOutcome = 'ready' | 'failed' | 'gone';

export interface ThumbnailDeps extends StoredContent {
  masterKey: Buffer;
  limits: ThumbnailLimits;
  /** Renders one image; the activities pass one that bounds how many run at once. */
  render?: (source: Buffer, limits: RenderLimits) => Promise<RenderedThumbnail>;
}

const isForeignKeyViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23503';

/**
 * Renders the thumbnail of one file version and stores it, or records that it has none. Idempotent: a version that
 * already has its row answers at once, and one that is gone (purged, deleted, its file deleted) is left alone.
 */
export async function renderVersionThumbnail(
  deps: ThumbnailDeps,
  ids: ThumbnailIds,
  variant: ThumbnailVariant = DEFAULT_THUMBNAIL_VARIANT,
): Promise<ThumbnailOutcome> {
  const version: VersionRow | undefined = await deps
    .db('drive_file_versions')
    .where({ uuid: ids.versionUuid, file_uuid: ids.fileUuid })
    .first();
  const item: ItemRow | undefined = await deps.db('drive_items').where({ uuid: ids.fileUuid }).first();
  // A version replaced before its turn came is never shown again: its thumbnail would be for nobody.
  if (!version || !item || item.deleted_at || version.status !== 'live') return 'gone';
  const existing: ThumbnailRow | undefined = await deps
    .db('drive_thumbnails')
    .where({ version_uuid: version.uuid, variant })
    .first();
  if (existing) return existing.status;
  const size = Number(version.plaintext_size_bytes);
  if (size > deps.limits.maxSourceBytes)
    return recordThumbnailFailure(
      deps.db,
      ids,
      `the file has ${size} bytes, over the ${deps.limits.maxSourceBytes}-byte cap`,
      variant,
    );

  const dataKey = unwrapDataKey(deps.masterKey, version.uuid, version.wrapped_key);
  const pieces: Buffer[] = [];
  for await (const piece of decryptChunks(
    await deps.objects.get(version.storage_key),
    dataKey,
    version.uuid,
    layoutOfVersion(version),
  )) {
    pieces.push(piece);
  }
  let rendered: RenderedThumbnail;
  try {
    rendered = await (deps.render ?? renderThumbnail)(Buffer.concat(pieces), deps.limits);
  } catch (error) {
    if (!(error instanceof UnrenderableImage)) throw error;
    return recordThumbnailFailure(deps.db, ids, error.message, variant);
  }

  const key = thumbnailStorageKey(ids, variant);
  const sealed = encryptThumbnail(dataKey, version.uuid, variant, rendered.data);
  await deps.objects.put(key, sealed);
  try {
    await deps.db.transaction(async (tx) => {
      await tx('drive_thumbnails')
        .insert({
          version_uuid: version.uuid,
          variant,
          file_uuid: ids.fileUuid,
          workspace_uuid: ids.workspaceUuid,
          status: 'ready',
          content_type: rendered.contentType,
          storage_key: key,
          width: rendered.width,
          height: rendered.height,
          size_bytes: rendered.data.length,
        })
        .onConflict(['version_uuid', 'variant'])
        .ignore();
      await markHasPreview(tx, ids);
    });
  } catch (error) {
    // The version or its file went while rendering: nothing will point at the object, so it goes too.
    if (!isForeignKeyViolation(error)) throw error;
    await deps.objects.discard(key, null);
    return 'gone';
  }
  return 'ready';
}

/**
 * has_preview becomes true when the live version's thumbnail is stored: a metadata change, so the item's version
 * goes up and the change feed gets an update, in the transaction that stores the row.
 */
async function markHasPreview(tx: Knex.Transaction, ids: ThumbnailIds): Promise<void> {
  const item: ItemRow | undefined = await tx('drive_items').where({ uuid: ids.fileUuid }).forUpdate().first();
  if (!item || item.has_preview || item.live_version_uuid !== ids.versionUuid || item.deleted_at) return;
  const [updated] = (await tx('drive_items')
    .where({ uuid: item.uuid })
    .update({ has_preview: true, version: tx.raw('version + 1'), updated_at: tx.fn.now() })
    .returning('*')) as ItemRow[];
  await appendChange(tx, 'update', updated!);
}

/** Records that the version has no preview (never retried); a row already there, or a version gone, stays as it is. */
export async function recordThumbnailFailure(
  knex: Knex,
  ids: ThumbnailIds,
  reason: string,
  variant: ThumbnailVariant = DEFAULT_THUMBNAIL_VARIANT,
): Promise<'failed' | 'gone'> {
  try {
    await knex('drive_thumbnails')
      .insert({
        version_uuid: ids.versionUuid,
        variant,
        file_uuid: ids.fileUuid,
        workspace_uuid: ids.workspaceUuid,
        status: 'failed',
        failure: reason.slice(0, 500),
      })
      .onConflict(['version_uuid', 'variant'])
      .ignore();
  } catch (error) {
    if (isForeignKeyViolation(error)) return 'gone';
    throw error;
  }
  return 'failed';
}

// --- Removal with the file or version ------------------------------------------------------------------------

/** The stored thumbnail objects of these files (every version), for a permanent delete to remove with their bytes. */
export async function thumbnailKeysOfFiles(knex: Knex, fileUuids: string[]): Promise<string[]> {
  if (!fileUuids.length) return [];
  const rows = (await knex('drive_thumbnails')
    .whereIn('file_uuid', fileUuids)
    .whereNotNull('storage_key')
    .select('storage_key')) as { storage_key: string }[];
  return rows.map((row) => row.storage_key);
}

/** Removes a version's thumbnail objects before its row goes (the rows follow it by foreign key). Idempotent. */
export async function discardVersionThumbnails(deps: StoredContent, versionUuid: string): Promise<void> {
  const rows = (await deps
    .db('drive_thumbnails')
    .where({ version_uuid: versionUuid })
    .whereNotNull('storage_key')
    .select('storage_key')) as { storage_key: string }[];
  for (const row of rows) await deps.objects.remove(row.storage_key);
}
