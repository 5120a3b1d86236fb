// `folio drive put|get|ls|sync`: a person's Drive through the API with @folio/client (clients/typescript).
import { existsSync } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { downloadToFile, fileSource, mirrorFolder, readState } from '../clients/typescript/src/index.js';
import { apiCommand, clientFor, type ApiOptions } from './api-client.js';
import type { Output } from './output.js';
import { progressReporter } from './progress.js';

/** Where `put` keeps an upload's resume state unless told: beside the file, so running put again resumes. */
const defaultStateFile = (file: string) => `${file}.folio-upload.json`;

export function registerDriveCommands(program: Command, output: Output): void {
  const drive = program.command('drive');

  apiCommand(
    drive
      .command('put')
      .description(
        'Upload a file with the chunked, client-encrypted transfer. Interrupted, it resumes when run again.',
      )
      .argument('<file>', 'the file to upload')
      .option('--folder <uuid>', 'destination folder (default: the Drive root)')
      .option('--name <name>', 'name in Drive (default: the file name)')
      .option('--content-type <type>', 'MIME type', 'application/octet-stream')
      .option('--state <file>', 'resume file (default: <file>.folio-upload.json)'),
  ).action(
    async (
      file: string,
      options: ApiOptions & { folder?: string; name?: string; contentType: string; state?: string },
    ) => {
      const client = clientFor(options);
      const stateFile = options.state ?? defaultStateFile(file);
      const size = (await stat(file)).size;
      const progress = await progressReporter(basename(file));
      const transfer = { stateFile, onProgress: progress.onProgress };
      if (existsSync(stateFile) && (await readState(stateFile)).plaintext_size_bytes !== size) {
        throw new Error(
          `${file} changed size since the upload in ${stateFile} began; delete that file to start over`,
        );
      }
      try {
        const uploaded = existsSync(stateFile)
          ? await client.resume(stateFile, fileSource(file), transfer)
          : await client.upload(
              {
                name: options.name ?? basename(file),
                contentType: options.contentType,
                size,
                source: fileSource(file),
                folderUuid: options.folder,
              },
              transfer,
            );
        progress.done();
        output(
          options.json
            ? uploaded
            : { uuid: uploaded.uuid, name: uploaded.name, file_size_bytes: uploaded.file_size_bytes },
          options,
        );
      } catch (error) {
        progress.done();
        if (existsSync(stateFile))
          process.stderr.write(
            `folio: the upload can resume: run the same command again (state in ${stateFile})\n`,
          );
        throw error;
      }
    },
  );

  apiCommand(
    drive
      .command('get')
      .description('Download a file (ranged GETs in parallel, decrypted and verified chunk by chunk).')
      .argument('<uuid>', 'file uuid')
      .option('-o, --output <file>', 'where to write it (default: its Drive name, in this directory)'),
  ).action(async (uuid: string, options: ApiOptions & { output?: string }) => {
    const client = clientFor(options);
    const target = resolve(options.output ?? basename((await client.getFile(uuid)).name));
    const partial = `${target}.folio-part`;
    const progress = await progressReporter(basename(target));
    try {
      const bytes = await downloadToFile(client, uuid, partial, progress.onProgress);
      await rename(partial, target);
      output({ uuid, path: target, bytes }, options);
    } finally {
      progress.done();
    }
  });

  apiCommand(
    drive
      .command('ls')
      .description('List a folder (default: the Drive root).')
      .argument('[folder]', 'folder uuid'),
  ).action(async (folder: string | undefined, options: ApiOptions) => {
    const list = await clientFor(options).listFolder(folder);
    if (options.json) return output(list, options);
    for (const entry of list.folders)
      process.stdout.write(`${entry.uuid}  ${'-'.padStart(12)}  ${entry.name}/\n`);
    for (const entry of list.files)
      process.stdout.write(`${entry.uuid}  ${String(entry.file_size_bytes).padStart(12)}  ${entry.name}\n`);
  });

  apiCommand(
    drive
      .command('sync')
      .description(
        'Mirror a folder (default: the Drive root) into DIR, one way, from the changes feed; run again to catch up.',
      )
      .argument('<dir>', 'local directory (keeps its sync token in .folio-sync.json)')
      .option('--folder <uuid>', 'the folder to mirror'),
  ).action(async (dir: string, options: ApiOptions & { folder?: string }) => {
    const result = await mirrorFolder(clientFor(options), resolve(dir), {
      folderUuid: options.folder ?? null,
      onFile: (path) => progressReporter(path),
    });
    output(result, options);
  });
}
