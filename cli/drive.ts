// `folio drive …`: a person's Drive through the API with @folio/client (clients/typescript), on rclone's
// conventions: items named by path or uuid (cli/drive-paths.ts), put/get/cat/ls/mkdir/rm/mv, and a two-way sync
// (cli/drive-sync.ts). docs/cli.md is the manual.
import { existsSync } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  downloadToFile,
  fileSource,
  mirrorFolder,
  readState,
  type DriveFile,
  type DriveFolder,
} from '../clients/typescript/src/index.js';
import { apiCommand, clientFor, countOption, transferCommand, type ApiOptions } from './api-client.js';
import {
  childNamed,
  ensureFolder,
  resolveFile,
  resolveFolder,
  resolveItem,
  splitLast,
} from './drive-paths.js';
import { putDirectory, putFile } from './drive-put.js';
import { syncDirectory } from './drive-sync.js';
import { CliError, EXIT } from './errors.js';
import type { Output } from './output.js';
import { note, progressReporter } from './progress.js';

/** Where `put` keeps an upload's resume state unless told: beside the file, so running put again resumes. */
const defaultStateFile = (file: string) => `${file}.folio-upload.json`;

const ITEM = 'a path (/Photos/2026/a.jpg) or a uuid';

type PutCommandOptions = ApiOptions & {
  folder?: string;
  name?: string;
  contentType: string;
  state?: string;
  overwrite?: boolean;
  transfers: number;
};

export function registerDriveCommands(program: Command, output: Output): void {
  const drive = program.command('drive');

  transferCommand(
    drive
      .command('put')
      .description(
        'Upload a file, or a directory recursively (unchanged files skipped by content hash). An interrupted file upload resumes when run again.',
      )
      .argument('<local>', 'the file or directory to upload')
      .argument(
        '[destination]',
        `destination folder, ${ITEM} (default: the root; for a directory /<its name>)`,
      )
      .option('--folder <folder>', 'the same as [destination]')
      .option('--name <name>', 'name in Drive, for a file (default: its local name)')
      .option('--content-type <type>', 'MIME type of new files', 'application/octet-stream')
      .option('--overwrite', 'replace the contents of a Drive file of the same name (a new version)')
      .option('--transfers <n>', 'files uploaded at once, for a directory', countOption('--transfers'), 4)
      .option('--state <file>', 'resume file of a file upload (default: <file>.folio-upload.json)'),
  ).action(async (local: string, destination: string | undefined, options: PutCommandOptions) => {
    const client = clientFor(options);
    const target = destination ?? options.folder;
    if ((await stat(local)).isDirectory()) {
      if (options.name)
        throw new CliError('usage', 'invalid_option', '--name is for a file, not a directory');
      const folderUuid = await ensureFolder(client, target ?? `/${basename(resolve(local))}`);
      const result = await putDirectory(client, resolve(local), folderUuid, options);
      output(result, options);
      if (result.failed.length) process.exitCode = EXIT.failure;
      if (result.conflicts.length) process.exitCode = EXIT.conflict;
      return;
    }
    const folderUuid = await resolveFolder(client, target);
    const stateFile = options.state ?? defaultStateFile(local);
    const size = (await stat(local)).size;
    const progress = await progressReporter(basename(local), options);
    const transfer = { stateFile, onProgress: progress.onProgress };
    if (existsSync(stateFile) && (await readState(stateFile)).plaintext_size_bytes !== size) {
      throw new CliError(
        'conflict',
        'resume_mismatch',
        `${local} changed size since the upload in ${stateFile} began; delete that file to start over`,
      );
    }
    try {
      let file: DriveFile;
      let outcome: string;
      if (existsSync(stateFile)) {
        file = await client.resume(stateFile, fileSource(local), transfer);
        outcome = 'uploaded';
      } else {
        const name = options.name ?? basename(local);
        const child = await childNamed(client, folderUuid, name);
        if (child?.kind === 'file' && options.overwrite) {
          // The replacement keeps its resume state in the same file, so an interrupted --overwrite resumes too.
          const same = await putFile(client, local, folderUuid, name, {
            ...options,
            existing: child.file,
            transfer,
          });
          file = same.file!;
          outcome = same.outcome;
        } else if (child) {
          throw new CliError(
            'conflict',
            'name_taken',
            `${name} already exists in ${target ?? '/'}${child.kind === 'file' ? ': pass --overwrite to replace its contents' : ' (a folder)'}`,
          );
        } else {
          file = await client.upload(
            { name, contentType: options.contentType, size, source: fileSource(local), folderUuid },
            transfer,
          );
          outcome = 'uploaded';
        }
      }
      progress.done();
      output(
        options.json
          ? { ...file, result: outcome }
          : { uuid: file.uuid, name: file.name, file_size_bytes: file.file_size_bytes, result: outcome },
        options,
      );
    } catch (error) {
      progress.done();
      if (existsSync(stateFile))
        note(options, `folio: the upload can resume: run the same command again (state in ${stateFile})`);
      throw error;
    }
  });

  transferCommand(
    drive
      .command('get')
      .description(
        'Download a file (ranged GETs in parallel, decrypted and verified chunk by chunk). Refuses to overwrite a local file without --overwrite.',
      )
      .argument('<file>', ITEM)
      .option('-o, --output <path>', 'where to write it (default: its Drive name, in this directory)')
      .option('--overwrite', 'replace a local file that is in the way'),
  ).action(async (ref: string, options: ApiOptions & { output?: string; overwrite?: boolean }) => {
    const client = clientFor(options);
    const file = await resolveFile(client, ref);
    const target = resolve(options.output ?? basename(file.name));
    if (!options.overwrite && existsSync(target))
      throw new CliError('conflict', 'local_exists', `${target} exists: pass --overwrite to replace it`);
    const partial = `${target}.folio-part`;
    const progress = await progressReporter(basename(target), options);
    try {
      const bytes = await downloadToFile(client, file.uuid, partial, progress.onProgress);
      await rename(partial, target);
      output({ uuid: file.uuid, path: target, bytes }, options);
    } finally {
      progress.done();
    }
  });

  transferCommand(
    drive.command('cat').description("Write a file's contents to stdout.").argument('<file>', ITEM),
  ).action(async (ref: string, options: ApiOptions) => {
    const client = clientFor(options);
    const file = await resolveFile(client, ref);
    await client.downloadTo(
      file.uuid,
      (plaintext) =>
        new Promise<void>((done, fail) =>
          process.stdout.write(plaintext, (error) => (error ? fail(error) : done())),
        ),
    );
  });

  apiCommand(
    drive.command('ls').description('List a folder (default: the root).').argument('[folder]', ITEM),
  ).action(async (ref: string | undefined, options: ApiOptions) => {
    const client = clientFor(options);
    const list = await client.listFolder(await resolveFolder(client, ref));
    if (options.json) return output(list, options);
    for (const entry of list.folders)
      process.stdout.write(`${entry.uuid}  ${'-'.padStart(12)}  ${entry.name}/\n`);
    for (const entry of list.files)
      process.stdout.write(`${entry.uuid}  ${String(entry.file_size_bytes).padStart(12)}  ${entry.name}\n`);
  });

  apiCommand(
    drive
      .command('mkdir')
      .description('Make a folder.')
      .argument('<path>', 'the new folder: a path, or a path below a folder uuid')
      .option('-p, --parents', 'make missing parents too, and succeed when the folder exists'),
  ).action(async (ref: string, options: ApiOptions & { parents?: boolean }) => {
    const client = clientFor(options);
    let uuid: string | null;
    if (options.parents) uuid = await ensureFolder(client, ref);
    else {
      const { parent, name } = splitLast(ref);
      if (name === undefined) throw new CliError('conflict', 'name_taken', 'the root exists');
      const parentUuid = await resolveFolder(client, parent);
      uuid = (await client.createFolder({ name, parent_uuid: parentUuid })).uuid;
    }
    if (uuid === null) throw new CliError('conflict', 'name_taken', 'the root exists');
    const folder = await client.getFolder(uuid);
    output(options.json ? folder : { uuid: folder.uuid, name: folder.name }, options);
  });

  apiCommand(
    drive
      .command('rm')
      .description('Move a file or folder to the trash (restore it in the app, or with the API).')
      .argument('<item>', ITEM)
      .option('-r, --recursive', 'allow a folder (with everything in it)'),
  ).action(async (ref: string, options: ApiOptions & { recursive?: boolean }) => {
    const client = clientFor(options);
    const item = await resolveItem(client, ref);
    if (item.kind === 'root') throw new CliError('usage', 'invalid_target', 'the root cannot be removed');
    if (item.kind === 'folder' && !options.recursive)
      throw new CliError('usage', 'is_a_folder', `${ref} is a folder: pass -r to trash it with its contents`);
    const kind = item.kind === 'file' ? 'files' : 'folders';
    await client.request('POST', `/v1/drive/${kind}/${item.uuid}/trash`);
    output({ object: `drive_${item.kind}`, uuid: item.uuid, trashed: true }, options);
  });

  apiCommand(
    drive
      .command('mv')
      .description(
        'Move or rename a file or folder. Into an existing folder it keeps its name; otherwise the last part of <destination> is the new name.',
      )
      .argument('<source>', ITEM)
      .argument('<destination>', `a folder, or the new path (${ITEM} of a folder, then /new-name)`),
  ).action(async (source: string, destination: string, options: ApiOptions) => {
    const client = clientFor(options);
    const item = await resolveItem(client, source);
    if (item.kind === 'root') throw new CliError('usage', 'invalid_target', 'the root cannot be moved');
    const name = item.kind === 'file' ? item.file.name : item.folder.name;
    let target: { parent: string | null; name: string };
    const existing = await resolveItem(client, destination).catch((error: unknown) => {
      if (error instanceof CliError && error.exitClass === 'notFound') return undefined;
      throw error;
    });
    if (existing && existing.kind !== 'file') target = { parent: existing.uuid, name };
    else if (existing)
      throw new CliError('conflict', 'name_taken', `${destination} exists: remove it first (folio drive rm)`);
    else {
      const last = splitLast(destination);
      target = { parent: await resolveFolder(client, last.parent), name: last.name! };
    }
    const moved =
      item.kind === 'file'
        ? await client.request<DriveFile>('POST', `/v1/drive/files/${item.uuid}`, {
            folder_uuid: target.parent,
            ...(target.name !== name ? { name: target.name } : {}),
          })
        : await client.request<DriveFolder>('POST', `/v1/drive/folders/${item.uuid}`, {
            parent_uuid: target.parent,
            ...(target.name !== name ? { name: target.name } : {}),
          });
    output(options.json ? moved : { uuid: moved.uuid, name: moved.name }, options);
  });

  transferCommand(
    drive
      .command('sync')
      .description(
        'Two-way sync of DIR with a Drive folder (default: the root): new and changed files go both ways, deletions too; when both sides changed a file, both are kept (docs/cli.md § sync).',
      )
      .argument('<dir>', 'local directory (keeps what it last synced in .folio-bisync.json)')
      .argument('[folder]', `the Drive folder, ${ITEM}`)
      .option('--folder <folder>', 'the same as [folder]')
      .option('-n, --dry-run', 'print what would be done, and do nothing')
      .option(
        '--download-only',
        'a one-way mirror from the changes feed instead: Drive to DIR, local edits ignored (.folio-sync.json)',
      )
      .option('--transfers <n>', 'files moved at once', countOption('--transfers'), 4),
  ).action(
    async (
      dir: string,
      folder: string | undefined,
      options: ApiOptions & { folder?: string; dryRun?: boolean; downloadOnly?: boolean; transfers: number },
    ) => {
      const client = clientFor(options);
      const folderUuid = await resolveFolder(client, folder ?? options.folder);
      if (options.downloadOnly) {
        if (options.dryRun) throw new CliError('usage', 'invalid_option', '--dry-run is for a two-way sync');
        const result = await mirrorFolder(client, resolve(dir), {
          folderUuid,
          onFile: (path) => progressReporter(path, options),
        });
        return output(result, options);
      }
      const result = await syncDirectory(client, resolve(dir), folderUuid, options);
      if (options.json) return output(result, options);
      for (const action of result.actions) process.stdout.write(`${action.action}  ${action.path}\n`);
      const { actions: _actions, ...summary } = result;
      output(summary, options);
    },
  );
}
