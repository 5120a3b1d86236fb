// Naming Drive items on the command line: a uuid, or a path from the root as rclone names remote paths
// (`/Photos/2026/a.jpg`; the leading slash is optional), or a path below a uuid (`<folder uuid>/2026/a.jpg`).
// A path is walked one listing per segment, so a deep path costs a request per level (docs/cli.md § Naming items).
import type { DriveFile, DriveFolder, FolioClient } from '../clients/typescript/src/index.js';
import { ApiError } from '../clients/typescript/src/index.js';
import { CliError } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type DriveItem =
  | { kind: 'root'; uuid: null; path: string }
  | { kind: 'folder'; uuid: string; path: string; folder: DriveFolder }
  | { kind: 'file'; uuid: string; path: string; file: DriveFile };

const segmentsOf = (ref: string) => ref.split('/').filter((segment) => segment !== '');

const notFound = (ref: string) =>
  new CliError('notFound', 'not_found', `${ref}: no such file or folder in Drive`);

async function byUuid(client: FolioClient, uuid: string, ref: string): Promise<DriveItem> {
  const gone = (error: unknown) => error instanceof ApiError && error.status === 404;
  try {
    return { kind: 'file', uuid, path: ref, file: await client.getFile(uuid) };
  } catch (error) {
    if (!gone(error)) throw error;
  }
  try {
    return { kind: 'folder', uuid, path: ref, folder: await client.getFolder(uuid) };
  } catch (error) {
    if (gone(error)) throw notFound(ref);
    throw error;
  }
}

/** The live child of a folder (null: the root) with this name, if any. */
export async function childNamed(
  client: FolioClient,
  parent: string | null,
  name: string,
): Promise<DriveItem | undefined> {
  const list = await client.listFolder(parent);
  const folder = list.folders.find((entry) => entry.name === name);
  if (folder) return { kind: 'folder', uuid: folder.uuid, path: name, folder };
  const file = list.files.find((entry) => entry.name === name);
  return file ? { kind: 'file', uuid: file.uuid, path: name, file } : undefined;
}

/** The item a uuid or path names; CliError not_found when there is none. */
export async function resolveItem(client: FolioClient, ref: string): Promise<DriveItem> {
  const segments = segmentsOf(ref);
  let item: DriveItem = { kind: 'root', uuid: null, path: '/' };
  if (segments[0] !== undefined && UUID.test(segments[0]))
    item = await byUuid(client, segments.shift()!, ref);
  for (const segment of segments) {
    if (item.kind === 'file') throw new CliError('usage', 'not_a_folder', `${ref}: ${item.path} is a file`);
    const child = await childNamed(client, item.uuid, segment);
    if (!child) throw notFound(ref);
    item = { ...child, path: ref };
  }
  return item;
}

/** The folder a uuid or path names (null: the root); a file is a usage error. */
export async function resolveFolder(client: FolioClient, ref: string | undefined): Promise<string | null> {
  if (ref === undefined) return null;
  const item = await resolveItem(client, ref);
  if (item.kind === 'file') throw new CliError('usage', 'not_a_folder', `${ref} is a file, not a folder`);
  return item.uuid;
}

/** The file a uuid or path names; a folder is a usage error. */
export async function resolveFile(client: FolioClient, ref: string): Promise<DriveFile> {
  const item = await resolveItem(client, ref);
  if (item.kind !== 'file') throw new CliError('usage', 'not_a_file', `${ref} is a folder, not a file`);
  return item.file;
}

/** `mkdir -p`: the folder at `ref`, with every missing folder on the way made; answers its uuid (null: root). */
export async function ensureFolder(client: FolioClient, ref: string): Promise<string | null> {
  const segments = segmentsOf(ref);
  let parent: string | null = null;
  if (segments[0] !== undefined && UUID.test(segments[0])) {
    const start = await byUuid(client, segments.shift()!, ref);
    if (start.kind === 'file') throw new CliError('usage', 'not_a_folder', `${ref}: ${start.uuid} is a file`);
    parent = start.uuid;
  }
  for (const name of segments) parent = await ensureChildFolder(client, parent, name, ref);
  return parent;
}

/** The child folder `name` of `parent`, made when missing (another client making it meanwhile is fine). */
export async function ensureChildFolder(
  client: FolioClient,
  parent: string | null,
  name: string,
  ref = name,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const existing = await childNamed(client, parent, name);
    if (existing?.kind === 'folder') return existing.uuid;
    if (existing) throw new CliError('conflict', 'name_taken', `${ref}: ${name} is a file, not a folder`);
    try {
      return (await client.createFolder({ name, parent_uuid: parent })).uuid;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'name_taken') || attempt > 0) throw error;
    }
  }
}

/** The parent path and last name of a path (`/a/b/c` → `/a/b`, `c`). */
export function splitLast(ref: string): { parent: string; name: string | undefined } {
  const segments = segmentsOf(ref);
  const name = segments.pop();
  return { parent: segments.join('/') || '/', name };
}
