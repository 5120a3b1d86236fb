// The exact Drive response objects of spec/drive.md, built field by field from domain rows, and an item's ETag.
import { hash } from 'node:crypto';
import { answeredTime } from '../../domain/answer-times.js';
import type { PresentableItem } from '../../domain/drive/rows.js';
import { presentPerson } from './person.js';

const presentOwner = (item: PresentableItem, callerUuid: string) =>
  presentPerson(
    { uuid: item.owner_uuid, first_name: item.owner_first_name, last_name: item.owner_last_name },
    callerUuid,
  );

/**
 * The owner of each item of one answer, each owner built once: a page's items share one or two owners, and an object
 * per item would be built only to be serialised the same way.
 */
export function ownersOnce(callerUuid: string) {
  const built = new Map<string, ReturnType<typeof presentOwner>>();
  return (item: PresentableItem) => {
    let owner = built.get(item.owner_uuid);
    if (!owner) {
      owner = presentOwner(item, callerUuid);
      built.set(item.owner_uuid, owner);
    }
    return owner;
  };
}

export function presentFile(
  item: PresentableItem,
  callerUuid: string,
  owner = presentOwner(item, callerUuid),
) {
  return {
    object: 'drive_file',
    uuid: item.uuid,
    folder_uuid: item.parent_uuid,
    name: item.name,
    content_type: item.content_type,
    file_size_bytes: Number(item.file_size_bytes ?? 0),
    upload_status: item.upload_status,
    trashed: item.trashed,
    has_preview: item.has_preview,
    version: item.version,
    ctag: item.ctag,
    created_at: answeredTime(item.created_at),
    updated_at: answeredTime(item.updated_at),
    my_role: item.my_role,
    shared: item.shared,
    owner,
    // An extension (docs/extensions.md § Content hash): the live version's, null while uploading or when none was made.
    content_hash: item.content_hash ?? null,
  };
}

export function presentFolder(
  item: PresentableItem,
  callerUuid: string,
  owner = presentOwner(item, callerUuid),
) {
  return {
    object: 'drive_folder',
    uuid: item.uuid,
    parent_uuid: item.parent_uuid,
    name: item.name,
    color: item.color,
    trashed: item.trashed,
    version: item.version,
    created_at: answeredTime(item.created_at),
    updated_at: answeredTime(item.updated_at),
    my_role: item.my_role,
    shared: item.shared,
    owner,
  };
}

export function presentItem(
  item: PresentableItem,
  callerUuid: string,
  owner?: ReturnType<typeof presentOwner>,
) {
  return item.kind === 'file' ? presentFile(item, callerUuid, owner) : presentFolder(item, callerUuid, owner);
}

/** A drive_file or drive_folder as one caller is answered it. */
export type PresentedItem = ReturnType<typeof presentFile> | ReturnType<typeof presentFolder>;

/**
 * The item's strong ETag (an extension, docs/extensions.md § Conditional writes): its version and a digest of the
 * exact object this caller is answered. It changes with every version, and also with what reaches a reader without
 * one (an owner's name), so a 304 never hides a change.
 */
export function itemEtag(item: PresentedItem): string {
  return itemJson(item).etag;
}

/** The item's JSON text as answered, with its ETag (itemEtag) taken from that same text: the answer is built once. */
export function itemJson(item: PresentedItem): { json: string; etag: string } {
  const json = JSON.stringify(item);
  return {
    json,
    etag: `"${item.version}-${hash('sha256', json, 'base64url').slice(0, 16)}"`,
  };
}

/** A file's content tag, `"ctag-<ctag>"`: replace initiate accepts it in If-Match as well as the file's ETag. */
export const contentTag = (ctag: number) => `"ctag-${ctag}"`;

/** The list envelope of the files list (with folder_uuid) and the trash list (without). */
export function presentList(
  url: string,
  items: PresentableItem[],
  callerUuid: string,
  folderUuid?: string | null,
) {
  const ownerOf = ownersOnce(callerUuid);
  return {
    object: 'list',
    url,
    ...(folderUuid !== undefined ? { folder_uuid: folderUuid } : {}),
    folders: items
      .filter((item) => item.kind === 'folder')
      .map((item) => presentFolder(item, callerUuid, ownerOf(item))),
    files: items
      .filter((item) => item.kind === 'file')
      .map((item) => presentFile(item, callerUuid, ownerOf(item))),
  };
}
