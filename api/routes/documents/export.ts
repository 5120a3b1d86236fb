// Document export (an extension, docs/extensions.md § Export): the document as a markdown or HTML file.
import Router from '@koa/router';
import * as z from 'zod';
import { invalidExportFormat, invalidSuggestionsView } from '../../../domain/documents/errors.js';
import { exportDocument } from '../../../domain/documents/export.js';
import { callerOf, requireScope } from '../../middleware/auth.js';
import { documentsInput, input, uuidParam, validate } from '../../middleware/validate.js';
import { attachmentDisposition } from '../../presenters/documents.js';
import type { ApiServices } from '../../services.js';

const DocumentsExportSchema = z.object({
  params: z.object({ uuid: uuidParam }),
  query: z.object({
    format: z.enum(['md', 'html']).default('md'),
    suggestions: z.enum(['show', 'accept', 'reject']).default('show'),
  }),
});
const exportInput = {
  ...documentsInput,
  fields: { 'query.format': invalidExportFormat, 'query.suggestions': invalidSuggestionsView },
};

const CONTENT_TYPE = { md: 'text/markdown; charset=utf-8', html: 'text/html; charset=utf-8' } as const;

export function exportRouter(services: ApiServices): Router {
  const router = new Router({ prefix: '/v1/documents/:uuid/export', sensitive: true });

  router.get('/', requireScope('docs.read'), validate(DocumentsExportSchema, exportInput), async (ctx) => {
    const { params, query } = input(ctx.state, DocumentsExportSchema);
    const exported = await exportDocument(
      services.db,
      services.documents,
      callerOf(ctx.state),
      params.uuid,
      query,
    );
    ctx.status = 200;
    ctx.set('Content-Type', CONTENT_TYPE[query.format]);
    ctx.set(
      'Content-Disposition',
      attachmentDisposition({ filename: `${exported.title ?? 'Untitled'}.${query.format}`, inline: false }),
    );
    ctx.set('X-Content-Type-Options', 'nosniff');
    // An exported page is a file to save, never a page of this origin: it may run nothing and load nothing.
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    );
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Folio-Revision', String(exported.revision));
    ctx.body = exported.text;
  });
  return router;
}
