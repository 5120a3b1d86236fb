// A one-way mirror of a Drive folder (or the whole Drive) into a local directory, from the changes feed
// (spec/drive.md § Changes). The directory keeps `.folio-sync.json`: the sync token, every item the feed has
// shown, and what is on disk. A run pulls the feed from the stored token to its end, works out the tree the
// folder should have, and makes the disk match: downloads new or changed contents (by ctag), moves renamed or
// moved files without downloading them again, removes what was deleted, trashed or moved out. A file whose place on
// disk already holds its contents (its content_hash, docs/extensions.md § Content hash) is kept, not downloaded. A 410
// sync_token_invalid discards the token and the items and reseeds from a full snapshot; the files already on disk
// are kept when their ctag is unchanged. Files the mirror did not write are left alone.
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FolioClient } from './client.js';
import { contentHash } from './content-hash.js';
import { ApiError } from './http.js';
import type { Progress } from './types.js';

export const MIRROR_STATE_FILE = '.folio-sync.json';
const STAGING = '.folio-sync';

interface ItemRecord {
  kind: 'file' | 'folder';
  parent: string | null;
  name: string;
  trashed: boolean;
  ctag: number;
  /** The file's content hash when the service has one (an extension); absent in state files of before. */
  content_hash?: string | null;
}

interface MirrorState {
  format: 'folio-sync-v1';
  folder_uuid: string | null;
  sync_token: string | null;
  items: Record<string, ItemRecord>;
  /** Files written by the mirror: uuid → path relative to the directory, and the ctag written. */
  files: Record<string, { path: string; ctag: number }>;
  /** Directories the mirror made, relative to the directory. */
  dirs: string[];
}

export interface MirrorResult {
  object: 'drive_sync';
  dir: string;
  folder_uuid: string | null;
  reseeded: boolean;
  downloaded: number;
  /** New or changed files not downloaded: the file already at their place held their contents (content_hash). */
  unchanged: number;
  moved: number;
  removed: number;
  files: number;
}

export interface MirrorOptions {
  /** The folder to mirror; null or omitted mirrors the Drive root. */
  folderUuid?: string | null;
  /** Page size of the changes feed (default 1000, the maximum). */
  pageSize?: number;
  /** Per-file download progress. */
  onFile?: (path: string) => Promise<{ onProgress: (progress: Progress) => void; done: () => void }>;
}

async function loadState(dir: string, folderUuid: string | null): Promise<MirrorState> {
  let text: string;
  try {
    text = await readFile(join(dir, MIRROR_STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return {
      format: 'folio-sync-v1',
      folder_uuid: folderUuid,
      sync_token: null,
      items: {},
      files: {},
      dirs: [],
    };
  }
  const state = JSON.parse(text) as MirrorState;
  if (state.format !== 'folio-sync-v1')
    throw new Error(`${join(dir, MIRROR_STATE_FILE)} is not a Folio sync state`);
  if (state.folder_uuid !== folderUuid)
    throw new Error(
      `${dir} mirrors ${state.folder_uuid ?? 'the Drive root'}, not ${folderUuid ?? 'the Drive root'}`,
    );
  return state;
}

/** Pulls the feed from `since` to its end into `items`; answers the last sync token. */
async function pull(
  client: FolioClient,
  items: Record<string, ItemRecord>,
  since: string | null,
  pageSize: number,
): Promise<string> {
  let token = since ?? undefined;
  for await (const page of client.changePages(token, pageSize)) {
    for (const change of page.changes) {
      if (change.type === 'delete') {
        delete items[change.uuid];
      } else if (change.resource_type === 'file') {
        const file = change.resource;
        items[change.uuid] = {
          kind: 'file',
          parent: file.folder_uuid,
          name: file.name,
          trashed: file.trashed,
          ctag: file.ctag,
          content_hash: file.content_hash,
        };
      } else {
        const folder = change.resource;
        items[change.uuid] = {
          kind: 'folder',
          parent: folder.parent_uuid,
          name: folder.name,
          trashed: folder.trashed,
          ctag: 0,
        };
      }
    }
    token = page.sync_token;
  }
  return token!;
}

/** A name safe to use as one path segment; the service's names never hold a slash, this only makes sure. */
const safeName = (name: string) =>
  !['.', '..', STAGING, MIRROR_STATE_FILE, `${MIRROR_STATE_FILE}.tmp`].includes(name) &&
  basename(name) === name &&
  !name.includes('\\');

/** The relative path of every live item under the root, or undefined when it is outside, trashed or unsafe. */
function desiredTree(items: Record<string, ItemRecord>, root: string | null) {
  const paths = new Map<string, string | undefined>();
  const pathOf = (uuid: string, depth = 0): string | undefined => {
    if (paths.has(uuid)) return paths.get(uuid);
    const item = items[uuid];
    let path: string | undefined;
    if (item && !item.trashed && safeName(item.name) && depth < 1000) {
      if (item.parent === root) path = item.name;
      else if (item.parent !== null) {
        const parent = pathOf(item.parent, depth + 1);
        if (parent !== undefined && items[item.parent]!.kind === 'folder') path = join(parent, item.name);
      }
    }
    paths.set(uuid, path);
    return path;
  };
  const files = new Map<string, { path: string; ctag: number; contentHash: string | null }>();
  const dirs: string[] = [];
  for (const [uuid, item] of Object.entries(items)) {
    const path = pathOf(uuid);
    if (path === undefined) continue;
    if (item.kind === 'file')
      files.set(uuid, { path, ctag: item.ctag, contentHash: item.content_hash ?? null });
    else dirs.push(path);
  }
  return { files, dirs };
}

const exists = (error: unknown) => (error as NodeJS.ErrnoException).code !== 'ENOENT';

export async function mirrorFolder(
  client: FolioClient,
  dir: string,
  options: MirrorOptions = {},
): Promise<MirrorResult> {
  const root = options.folderUuid ?? null;
  await mkdir(dir, { recursive: true });
  const state = await loadState(dir, root);
  let reseeded = false;
  let token: string;
  try {
    token = await pull(client, state.items, state.sync_token, options.pageSize ?? 1000);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 410)) throw error;
    // The token cannot be honoured (spec rule 8): discard it and what it led to, and read a fresh snapshot.
    reseeded = true;
    state.items = {};
    token = await pull(client, state.items, null, options.pageSize ?? 1000);
  }

  const desired = desiredTree(state.items, root);
  const staging = join(dir, STAGING);
  await mkdir(staging, { recursive: true });
  const result: MirrorResult = {
    object: 'drive_sync',
    dir,
    folder_uuid: root,
    reseeded,
    downloaded: 0,
    unchanged: 0,
    moved: 0,
    removed: 0,
    files: desired.files.size,
  };

  // 1. Files gone from the folder go; files whose path changed but not their contents are set aside for step 3.
  const setAside = new Set<string>();
  for (const [uuid, local] of Object.entries(state.files)) {
    const wanted = desired.files.get(uuid);
    if (wanted && wanted.ctag === local.ctag && wanted.path === local.path) continue;
    if (wanted && wanted.ctag === local.ctag) {
      try {
        await rename(join(dir, local.path), join(staging, uuid));
        setAside.add(uuid);
      } catch (error) {
        if (exists(error)) throw error; // Gone from disk: step 3 downloads it again.
      }
    } else {
      // Changed contents in the same place are overwritten by step 3's rename, so the old file stays until then.
      if (!wanted || wanted.path !== local.path) await rm(join(dir, local.path), { force: true });
      if (!wanted) result.removed++;
    }
    delete state.files[uuid];
  }
  // 2. Directories, parents first.
  for (const path of [...desired.dirs].sort()) await mkdir(join(dir, path), { recursive: true });
  // 3. Moved files into place; new and changed contents downloaded beside their place, then renamed into it.
  for (const [uuid, wanted] of desired.files) {
    if (state.files[uuid]) continue;
    const target = join(dir, wanted.path);
    await mkdir(dirname(target), { recursive: true });
    if (setAside.has(uuid)) {
      await rename(join(staging, uuid), target);
      result.moved++;
    } else if (wanted.contentHash && (await localHash(target)) === wanted.contentHash) {
      result.unchanged++; // Replaced with the same bytes, or already there: reading it is cheaper than downloading.
    } else {
      const partial = join(staging, `${uuid}.part`);
      const reporter = await options.onFile?.(wanted.path);
      await downloadToFile(client, uuid, partial, reporter?.onProgress);
      reporter?.done();
      await rename(partial, target);
      result.downloaded++;
    }
    state.files[uuid] = { path: wanted.path, ctag: wanted.ctag };
  }
  // 4. Directories the mirror made that the folder no longer has, deepest first, when empty.
  const keep = new Set(desired.dirs);
  for (const path of [...state.dirs].sort().reverse()) {
    if (keep.has(path)) continue;
    await rmdir(join(dir, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' && error.code !== 'ENOTEMPTY') throw error;
    });
  }
  await rm(staging, { recursive: true, force: true });
  state.dirs = desired.dirs;
  state.sync_token = token;
  await writeFile(join(dir, `${MIRROR_STATE_FILE}.tmp`), JSON.stringify(state));
  await rename(join(dir, `${MIRROR_STATE_FILE}.tmp`), join(dir, MIRROR_STATE_FILE));
  return result;
}

/** The content hash of the regular file at `path`, or undefined when there is none. */
async function localHash(path: string): Promise<string | undefined> {
  try {
    return await contentHash(createReadStream(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/** Downloads a file's contents to `path` chunk by chunk (never whole in memory). */
export async function downloadToFile(
  client: FolioClient,
  fileUuid: string,
  path: string,
  onProgress?: (progress: Progress) => void,
): Promise<number> {
  const out = createWriteStream(path);
  const closed = new Promise<void>((resolve, reject) => {
    out.once('close', resolve);
    out.once('error', reject);
  });
  try {
    const bytes = await client.downloadTo(
      fileUuid,
      (plaintext) =>
        new Promise<void>((resolve, reject) => {
          out.write(plaintext, (error) => (error ? reject(error) : resolve()));
        }),
      { onProgress },
    );
    out.end();
    await closed;
    return bytes;
  } catch (error) {
    out.destroy();
    await rm(path, { force: true });
    throw error;
  }
}
