// `folio drive sync DIR [FOLDER]`: a two-way sync of a local directory with a Drive folder, as rclone bisync does it.
// DIR keeps `.folio-bisync.json`, what both sides held after the last run (per relative path: the Drive file's
// uuid and ctag, the contents' hash, the local size and mtime). A run lists both sides, compares each with that
// record, and carries every change across: new and edited files both ways, deletions both ways (a Drive file goes to
// the trash). The conflict rule (docs/cli.md § sync): when both sides changed a file since the last run and their
// bytes differ, both are kept: the Drive version keeps the name, and the local version is renamed
// `name (conflicted copy YYYY-MM-DD HHMMSS).ext` (Dropbox's rule) and uploaded under that name. An edit beats a
// deletion: a file edited on one side and deleted on the other comes back. With --dry-run nothing is changed.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, posix, sep } from 'node:path';
import {
  ApiError,
  downloadToFile,
  fileSource,
  type DriveFile,
  type FolioClient,
} from '../clients/typescript/src/index.js';
import { ensureChildFolder } from './drive-paths.js';
import { inPool, isBookkeeping, localContentHash } from './drive-put.js';
import { describeError, type ErrorAnswer } from './errors.js';
import { note, progressLine } from './progress.js';

const STATE_FILE = '.folio-bisync.json';

interface Synced {
  uuid: string;
  ctag: number;
  hash: string;
  size: number;
  mtime_ms: number;
}

interface SyncState {
  format: 'folio-bisync-v1';
  folder_uuid: string | null;
  files: Record<string, Synced>;
}

type Action =
  | { action: 'upload'; path: string }
  | { action: 'update-remote'; path: string }
  | { action: 'download'; path: string }
  | { action: 'delete-local'; path: string }
  | { action: 'trash-remote'; path: string }
  | { action: 'conflict'; path: string; copy: string };

interface SyncResult {
  object: 'drive_sync';
  dir: string;
  folder_uuid: string | null;
  dry_run: boolean;
  uploaded: number;
  downloaded: number;
  deleted_local: number;
  trashed_remote: number;
  conflicts: number;
  unchanged: number;
  failed: { path: string; error: ErrorAnswer['error'] }[];
  actions: Action[];
}

interface Local {
  size: number;
  mtimeMs: number;
}

async function loadState(dir: string, folderUuid: string | null): Promise<SyncState> {
  let text: string;
  try {
    text = await readFile(join(dir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { format: 'folio-bisync-v1', folder_uuid: folderUuid, files: {} };
  }
  const state = JSON.parse(text) as SyncState;
  if (state.format !== 'folio-bisync-v1')
    throw new Error(`${join(dir, STATE_FILE)} is not a Folio sync state`);
  if (state.folder_uuid !== folderUuid)
    throw new Error(
      `${dir} syncs with ${state.folder_uuid ?? 'the Drive root'}, not ${folderUuid ?? 'the Drive root'}`,
    );
  return state;
}

/** Every completed file below the folder by relative path (posix separators), and every folder's uuid. */
async function listRemote(client: FolioClient, root: string | null) {
  const files = new Map<string, DriveFile>();
  const folders = new Map<string, string | null>([['', root]]);
  const walk = async (uuid: string | null, prefix: string): Promise<void> => {
    const list = await client.listFolder(uuid);
    for (const file of list.files)
      if (file.upload_status === 'completed' && usable(file.name)) files.set(prefix + file.name, file);
    for (const folder of list.folders) {
      if (!usable(folder.name)) continue;
      folders.set(prefix + folder.name, folder.uuid);
      await walk(folder.uuid, `${prefix}${folder.name}/`);
    }
  };
  await walk(root, '');
  return { files, folders };
}

/** A name that is one safe path segment here and not the CLI's own bookkeeping. */
const usable = (name: string) =>
  name !== '.' && name !== '..' && !name.includes('\\') && !name.includes(sep) && !isBookkeeping(name);

async function listLocal(dir: string): Promise<Map<string, Local>> {
  const files = new Map<string, Local>();
  const walk = async (path: string, prefix: string): Promise<void> => {
    const entries = await readdir(path, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' && path === dir) return []; // A dry run into a directory not made yet.
      throw error;
    });
    for (const entry of entries) {
      if (!usable(entry.name) || entry.name === STATE_FILE) continue;
      if (entry.isDirectory()) await walk(join(path, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile()) {
        const info = await stat(join(path, entry.name));
        files.set(prefix + entry.name, { size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  };
  await walk(dir, '');
  return files;
}

/** `a/b.txt` → `a/b (conflicted copy 2026-11-27 043012).txt`, numbered when that name is taken too. */
function conflictName(path: string, now: Date, taken: (path: string) => boolean): string {
  const ext = extname(path);
  const stem = path.slice(0, path.length - ext.length);
  const stamp = now.toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '');
  for (let n = 1; ; n++) {
    const candidate = `${stem} (conflicted copy ${stamp}${n > 1 ? ` ${n}` : ''})${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

export async function syncDirectory(
  client: FolioClient,
  dir: string,
  folderUuid: string | null,
  options: { dryRun?: boolean; transfers: number; quiet?: boolean; progress?: boolean },
): Promise<SyncResult> {
  if (!options.dryRun) await mkdir(dir, { recursive: true });
  const state = await loadState(dir, folderUuid);
  const [remote, local] = await Promise.all([listRemote(client, folderUuid), listLocal(dir)]);
  const result: SyncResult = {
    object: 'drive_sync',
    dir,
    folder_uuid: folderUuid,
    dry_run: Boolean(options.dryRun),
    uploaded: 0,
    downloaded: 0,
    deleted_local: 0,
    trashed_remote: 0,
    conflicts: 0,
    unchanged: 0,
    failed: [],
    actions: [],
  };
  const next: Record<string, Synced> = {};
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (path: string) => {
    if (!hashes.has(path)) hashes.set(path, localContentHash(join(dir, path)));
    return hashes.get(path)!;
  };
  const full = (path: string) => join(dir, ...path.split('/'));
  const record = async (path: string, file: DriveFile, hash?: string) => {
    const info = await stat(full(path));
    next[path] = {
      uuid: file.uuid,
      ctag: file.ctag,
      hash: hash ?? file.content_hash ?? (await hashOf(path)),
      size: info.size,
      mtime_ms: info.mtimeMs,
    };
  };

  // 1. Decide, path by path, from the record of the last run.
  const now = new Date();
  const paths = new Set([...Object.keys(state.files), ...remote.files.keys(), ...local.keys()]);
  const taken = (path: string) => paths.has(path) || existsSync(full(path));
  const work: (() => Promise<void>)[] = [];
  for (const path of [...paths].sort()) {
    const base = state.files[path];
    const here = local.get(path);
    const there = remote.files.get(path);
    const localState = !here
      ? 'gone'
      : !base
        ? 'new'
        : here.size === base.size && here.mtimeMs === base.mtime_ms
          ? 'same'
          : (await hashOf(path)) === base.hash
            ? 'same'
            : 'changed';
    const remoteState = !there
      ? 'gone'
      : !base
        ? 'new'
        : (there.uuid === base.uuid && there.ctag === base.ctag) || there.content_hash === base.hash
          ? 'same'
          : 'changed';
    const plan = (action: Action, run: () => Promise<void>) => {
      result.actions.push(action);
      work.push(async () => {
        try {
          await run();
          progressLine(options, `${action.action} ${path}`);
        } catch (error) {
          // One file the service refuses (a name, a full pool) does not stop the others; the next run tries again.
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          const { error: refusal } = describeError(error).answer;
          result.failed.push({ path, error: refusal });
          note(options, `${path}: ${refusal.message}`);
        }
      });
    };
    const download = async () => {
      await mkdir(dirname(full(path)), { recursive: true });
      await downloadToFile(client, there!.uuid, `${full(path)}.folio-part`);
      await rename(`${full(path)}.folio-part`, full(path));
      await record(path, there!);
      result.downloaded++;
    };
    const upload = (name: string) => async () => {
      const parent = await remoteFolder(posix.dirname(name));
      const file = await client.upload({
        name: posix.basename(name),
        contentType: 'application/octet-stream',
        size: (await stat(full(name))).size,
        source: fileSource(full(name)),
        folderUuid: parent,
      });
      await record(name, file);
      result.uploaded++;
    };

    if (localState === 'gone' && remoteState === 'gone') continue; // Deleted on both sides: forgotten.
    if (localState === 'same' && remoteState === 'same') {
      next[path] = {
        ...base!,
        uuid: there!.uuid,
        ctag: there!.ctag,
        size: here!.size,
        mtime_ms: here!.mtimeMs,
      };
      result.unchanged++;
    } else if (localState === 'same' && remoteState === 'gone') {
      plan({ action: 'delete-local', path }, async () => {
        await rm(full(path), { force: true });
        result.deleted_local++;
      });
    } else if (localState === 'gone' && remoteState === 'same') {
      plan({ action: 'trash-remote', path }, async () => {
        await client.request('POST', `/v1/drive/files/${there!.uuid}/trash`);
        result.trashed_remote++;
      });
    } else if ((localState === 'same' || localState === 'gone') && remoteState !== 'gone') {
      plan({ action: 'download', path }, download); // Changed in Drive (or new there, or edited there and deleted here).
    } else if (remoteState === 'same') {
      plan({ action: 'update-remote', path }, async () => {
        const file = await client.replace(there!.uuid, {
          size: (await stat(full(path))).size,
          source: fileSource(full(path)),
        });
        await record(path, file);
        result.uploaded++;
      });
    } else if (remoteState === 'gone') {
      plan({ action: 'upload', path }, upload(path)); // New here, or edited here and deleted in Drive.
    } else if (there!.content_hash !== null && there!.content_hash === (await hashOf(path))) {
      await record(path, there!); // Both changed to the same bytes (or the same file made on both sides).
      result.unchanged++;
    } else {
      // Both sides changed it: Drive's version keeps the name, the local one becomes the conflicted copy.
      const copy = conflictName(path, now, taken);
      paths.add(copy);
      plan({ action: 'conflict', path, copy }, async () => {
        await rename(full(path), full(copy));
        await upload(copy)();
        await download();
        result.uploaded--;
        result.downloaded--;
        result.conflicts++;
      });
    }
  }

  // Folders in Drive a new file needs, made once each (several uploads may need the same one at once).
  const made = new Map<string, Promise<string | null>>();
  const remoteFolder = (path: string): Promise<string | null> => {
    const key = path === '.' ? '' : path;
    if (remote.folders.has(key)) return Promise.resolve(remote.folders.get(key)!);
    if (!made.has(key))
      made.set(
        key,
        remoteFolder(posix.dirname(key)).then((parent) =>
          ensureChildFolder(client, parent, posix.basename(key)),
        ),
      );
    return made.get(key)!;
  };

  if (options.dryRun) return result;
  // 2. Carry the changes across, a few files at a time; then keep the record for the next run.
  await inPool(work, options.transfers, (run) => run());
  // A path that failed keeps its old record, so the next run sees the same difference and tries again.
  for (const { path } of result.failed) if (state.files[path]) next[path] = state.files[path];
  await writeFile(join(dir, `${STATE_FILE}.tmp`), JSON.stringify({ ...state, files: next }));
  await rename(join(dir, `${STATE_FILE}.tmp`), join(dir, STATE_FILE));
  return result;
}
