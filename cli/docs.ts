// `folio docs get|edit`: a document's markdown, and a find-and-replace edit, through the API (spec/documents.md).
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { apiCommand, clientFor, type ApiOptions } from './api-client.js';
import type { Output } from './output.js';

export function registerDocsCommands(program: Command, output: Output): void {
  const docs = program.command('docs');

  apiCommand(
    docs
      .command('get')
      .description("Print a document's markdown (with --json, its document_content).")
      .argument('<uuid>', 'document uuid'),
  ).action(async (uuid: string, options: ApiOptions) => {
    const content = await clientFor(options).documentContent(uuid);
    if (options.json) output(content, options);
    else
      process.stdout.write(
        content.markdown.endsWith('\n') || !content.markdown ? content.markdown : `${content.markdown}\n`,
      );
  });

  apiCommand(
    docs
      .command('edit')
      .description(
        'Replace a quote in a document (one replace operation; sent with a batch_id, so a retried request applies once).',
      )
      .argument('<uuid>', 'document uuid')
      .requiredOption('--find <text>', 'the text to replace (a quote, matched as spec/documents.md says)')
      .requiredOption('--replace <markdown>', 'what replaces it (inline markdown; empty removes the text)')
      .option(
        '--occurrence <n>',
        'which match when the quote is found more than once: a number from 1, first or last',
      )
      .option(
        '--base-revision <n>',
        'refuse the edit (409 conflict) if the document moved past this revision',
        (value) => Number(value),
      ),
  ).action(
    async (
      uuid: string,
      options: ApiOptions & { find: string; replace: string; occurrence?: string; baseRevision?: number },
    ) => {
      const occurrence =
        options.occurrence === undefined
          ? {}
          : {
              occurrence: /^\d+$/.test(options.occurrence)
                ? Number(options.occurrence)
                : (options.occurrence as 'first' | 'last'),
            };
      const content = await clientFor(options).editDocument(uuid, {
        operations: [{ type: 'replace', find: options.find, with: options.replace, ...occurrence }],
        ...(options.baseRevision !== undefined ? { base_revision: options.baseRevision } : {}),
        batch_id: randomUUID(),
      });
      output(options.json ? content : { uuid: content.uuid, revision: content.revision }, options);
    },
  );
}
