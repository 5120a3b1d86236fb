// `folio drive put DIR [DEST]`: a directory's tree into a Drive folder, rclone copy's way: DEST is made as needed
// (mkdir -p), files go up a few at a time (--transfers), and a file whose Drive namesake already holds the same
// bytes (its content_hash, docs/extensions.md § Content hash) is skipped, so running it again after an interruption
// sends only what is missing. A namesake with other bytes is replaced with --overwrite, else reported as a conflict.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import {
  ApiError,
  contentHash,
  fileSource,
  type DriveFile,
  type TransferOptions,
  type FolioClient,
} from '../clients/typescript/src/index.js';
import { describeError, type ErrorAnswer } from './errors.js';
import { childNamed, ensureChildFolder } from './drive-paths.js';
import { note, progressLine } from './progress.js';

/** Files of the CLI's own bookkeeping, never uploaded. */
export const isBookkeeping = (name: string) =>
  name.startsWith('.folio-sync') ||
  name.startsWith('.folio-bisync') ||
  name.endsWith('.folio-upload.json') ||
  name.endsWith('.folio-part');

interface PutOptions {
  overwrite?: boolean;
  transfers: number;
  contentType: string;
  quiet?: boolean;
  progress?: boolean;
}

interface DirectoryPutResult {
  object: 'drive_put';
  dir: string;
  folder_uuid: string | null;
  uploaded: number;
  replaced: number;
  unchanged: number;
  /** Relative paths whose Drive namesake holds other bytes (pass --overwrite), or is a folder. */
  conflicts: string[];
  failed: { path: string; error: ErrorAnswer['error'] }[];
}

/** The local file's content hash, the way the service computes content_hash. */
export const localContentHash = (path: string) => contentHash(createReadStream(path));

/** Runs `work` over `items` with at most `limit` at once. */
export async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

type PutOutcome = 'uploaded' | 'replaced' | 'unchanged' | 'conflict';

/**
 * One local file into a folder under `name`: uploaded when the name is free; when a file holds it, skipped if its
 * bytes are the same, replaced with `overwrite`, else a conflict. A folder holding the name is a conflict.
 */
export async function putFile(
  client: FolioClient,
  path: string,
  folderUuid: string | null,
  name: string,
  options: Omit<PutOptions, 'transfers'> & {
    existing?: DriveFile | 'folder' | null;
    transfer?: TransferOptions;
  },
): Promise<{ outcome: PutOutcome; file?: DriveFile }> {
  const size = (await stat(path)).size;
  let existing = options.existing;
  if (existing === undefined) {
    const child = await childNamed(client, folderUuid, name);
    existing = child?.kind === 'file' ? child.file : child ? 'folder' : null;
  }
  if (existing === 'folder') return { outcome: 'conflict' };
  if (existing) {
    if (existing.content_hash && existing.content_hash === (await localContentHash(path)))
      return { outcome: 'unchanged', file: existing };
    if (!options.overwrite) return { outcome: 'conflict', file: existing };
    const file = await client.replace(existing.uuid, { size, source: fileSource(path) }, options.transfer);
    return { outcome: 'replaced', file };
  }
  const file = await client.upload(
    {
      name,
      contentType: options.contentType,
      size,
      source: fileSource(path),
      folderUuid,
    },
    options.transfer,
  );
  return { outcome: 'uploaded', file };
}

export async function putDirectory(
  client: FolioClient,
  dir: string,
  folderUuid: string | null,
  options: PutOptions,
): Promise<DirectoryPutResult> {
  const result: DirectoryPutResult = {
    object: 'drive_put',
    dir,
    folder_uuid: folderUuid,
    uploaded: 0,
    replaced: 0,
    unchanged: 0,
    conflicts: [],
    failed: [],
  };
  // Folders first, one level at a time (a listing each, to know what is there); then the files in a pool.
  const files: { path: string; folder: string | null; existing: DriveFile | 'folder' | null }[] = [];
  const walk = async (local: string, remote: string | null): Promise<void> => {
    const listing = await client.listFolder(remote);
    for (const entry of await readdir(local, { withFileTypes: true })) {
      if (isBookkeeping(entry.name)) continue;
      const path = join(local, entry.name);
      if (entry.isDirectory()) {
        if (listing.files.some((file) => file.name === entry.name)) {
          result.conflicts.push(relative(dir, path));
          continue;
        }
        const known = listing.folders.find((folder) => folder.name === entry.name);
        await walk(path, known ? known.uuid : await ensureChildFolder(client, remote, entry.name));
      } else if (entry.isFile()) {
        const file = listing.files.find((candidate) => candidate.name === entry.name);
        const folder = listing.folders.some((candidate) => candidate.name === entry.name);
        files.push({ path, folder: remote, existing: folder ? 'folder' : (file ?? null) });
      }
    }
  };
  await walk(dir, folderUuid);
  await inPool(files, options.transfers, async ({ path, folder, existing }) => {
    const shown = relative(dir, path);
    try {
      const { outcome } = await putFile(client, path, folder, basename(path), { ...options, existing });
      if (outcome === 'conflict') {
        result.conflicts.push(shown);
        note(options, `${shown}: a different file of that name is in Drive (pass --overwrite to replace it)`);
      } else {
        result[outcome]++;
        progressLine(options, `${outcome} ${shown}`);
      }
    } catch (error) {
      // One file failing (a name the service refuses, a full storage pool) does not stop the others.
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      const { error: refusal } = describeError(error).answer;
      result.failed.push({ path: shown, error: refusal });
      note(options, `${shown}: ${refusal.message}`);
    }
  });
  result.conflicts.sort();
  return result;
}
