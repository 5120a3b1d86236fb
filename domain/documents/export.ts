// Exporting a document (an extension, docs/extensions.md § Export): its markdown or HTML as a file, with suggestions
// shown as CriticMarkup or resolved as if all were accepted or all rejected. The stored document is not changed.
import type { Knex } from 'knex';
import { renderMarkdown } from '../document-engine/index.js';
import { markdownToHtml } from '../document-engine/html.js';
import { resolveSuggestions } from '../document-engine/resolve.js';
import type { Caller } from '../caller.js';
import type { DocumentsDeps } from './deps.js';
import { findVisibleDocument } from './documents.js';
import { workingDocument } from './working-documents.js';

export type ExportFormat = 'md' | 'html';
export type SuggestionsView = 'show' | 'accept' | 'reject';

export interface DocumentExport {
  title: string | null;
  revision: number;
  /** The file's text: markdown, or a whole HTML page. */
  text: string;
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A whole HTML page around the body, titled with the document's title. */
function htmlPage(title: string | null, body: string): string {
  return `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${escapeText(title ?? 'Untitled')}</title>\n</head>\n<body>\n${body}</body>\n</html>\n`;
}

/** The document as a file (any role that can read it). */
export async function exportDocument(
  knex: Knex,
  deps: DocumentsDeps,
  caller: Caller,
  documentUuid: string,
  request: { format: ExportFormat; suggestions: SuggestionsView },
): Promise<DocumentExport> {
  const { document, state } = await knex.transaction(
    async (tx) => {
      const document = await findVisibleDocument(tx, deps, caller, documentUuid);
      return { document, state: (await workingDocument(tx, deps.workingDocuments, document)).state };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
  const markdown = renderMarkdown(
    request.suggestions === 'show' ? state : resolveSuggestions(state, request.suggestions),
  );
  const text =
    request.format === 'md'
      ? markdown
      : htmlPage(
          document.title,
          markdownToHtml(markdown, {
            attachmentUrl: (uuid) => `/v1/documents/${document.uuid}/attachments/${uuid}/download`,
          }),
        );
  return { title: document.title, revision: document.revision, text };
}
