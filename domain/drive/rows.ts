// The rows Drive reads and writes: items (files and folders) as stored and as a caller sees them, file versions,
// and the trash operations that cascades carry out.
import type { ReadTime } from '../answer-times.js';
import type { Role } from '../roles.js';
import type { DriveCascadeKind } from '../unit-of-work.js';

export type ItemKind = 'file' | 'folder';

export interface ItemRow {
  uuid: string;
  workspace_uuid: string;
  owner_uuid: string;
  kind: ItemKind;
  parent_uuid: string | null;
  name: string;
  content_type: string | null;
  file_size_bytes: string | number | null;
  upload_status: 'uploading' | 'completed' | null;
  color: string | null;
  trashed: boolean;
  trashed_at: Date | null;
  trashed_with: string | null;
  /** Set when a permanent delete was asked for; the delete cascade then removes the subtree's rows. */
  deleted_at: Date | null;
  depth: number;
  /**
   * As stored, the item's own counter; as selectVisible reads it, the presented version: that counter plus the epochs
   * of the folders above, less epoch_base (docs/drive-trash.md § Versions).
   */
  version: number;
  /** A folder's trashes, restores and moves: each gives everything below it a new presented version at once. */
  epoch: number;
  /** What the epochs above the item summed to when it was created, less what it left behind in moves. */
  epoch_base: number;
  ctag: number;
  has_preview: boolean;
  live_version_uuid: string | null;
  /** The live version's content hash (an extension); null while uploading, and for versions nobody hashed. */
  content_hash: string | null;
  /** A Date, or the answer's text where the read asked for it (domain/answer-times.ts). */
  created_at: ReadTime;
  updated_at: ReadTime;
}

/** An item as a caller sees it: the row, the caller's role, and what its presenter needs. */
export interface VisibleItem extends ItemRow {
  my_role: Role;
  shared: boolean;
  owner_first_name: string | null;
  owner_last_name: string | null;
}

/** What an answer shows of a visible item (api/presenters/drive.ts): the columns a listing reads, and no others. */
export type PresentableItem = Pick<
  VisibleItem,
  | 'uuid'
  | 'kind'
  | 'parent_uuid'
  | 'name'
  | 'content_type'
  | 'file_size_bytes'
  | 'upload_status'
  | 'color'
  | 'trashed'
  | 'has_preview'
  | 'version'
  | 'ctag'
  | 'content_hash'
  | 'created_at'
  | 'updated_at'
  | 'my_role'
  | 'shared'
  | 'owner_uuid'
  | 'owner_first_name'
  | 'owner_last_name'
>;

/**
 * A check a write makes on the item it names once the item is locked and the caller's role checked, before anything
 * changes: an If-Match precondition (docs/extensions.md § Conditional writes). It throws to refuse the write.
 */
export type ItemGuard = (item: VisibleItem) => void;

/** One stored content of a file: staged (uploading or replacing), live, retired (kept a while) or aborted. */
export interface VersionRow {
  uuid: string;
  file_uuid: string;
  workspace_uuid: string;
  status: 'staged' | 'live' | 'retired' | 'aborted';
  wrapped_key: Buffer;
  storage_key: string;
  storage_upload_id: string | null;
  content_type: string;
  plaintext_size_bytes: string | number;
  chunk_size_bytes: number;
  chunk_count: number;
  /** The plaintext's content hash: computed (simple upload) or verified (chunked complete with one); else null. */
  content_hash: string | null;
  created_by: string | null;
  superseded_by: string | null;
  created_at: Date;
  retired_at: Date | null;
}

/** A trash, restore or delete asked for on a root item, which its cascade carries over the subtree. */
export interface TrashOperationRow {
  uuid: string;
  seq: string;
  workspace_uuid: string;
  root_uuid: string;
  kind: DriveCascadeKind;
  trashed_with: string | null;
  actor_uuid: string;
  status: 'running' | 'completed' | 'superseded';
  items_changed: number;
  created_at: Date;
  completed_at: Date | null;
}
