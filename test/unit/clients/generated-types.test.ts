// @folio/client's API types come from openapi/folio.yaml: the committed clients/typescript/src/openapi.ts is what the
// generator makes of the document today (regenerated here, compared byte for byte), every route of the document is
// in it, and Folio's extensions and decisions reach the JSDoc a client author reads. The type assertions at the end
// are checked by `tsc --noEmit` (npm test's typecheck): the client's names are the document's shapes.
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import {
  DOCUMENT_PATH,
  GENERATED_PATH,
  generateOperations,
  generateTypes,
  OPERATIONS_PATH,
} from '../../../clients/typescript/scripts/generate-types.js';
import type { paths } from '../../../clients/typescript/src/openapi.js';
import type {
  ChangeEntry,
  ResponseBody,
  UploadStatus,
  WebhookAttempt,
  WebhookDelivery,
} from '../../../clients/typescript/src/types.js';

const documentText = readFileSync(DOCUMENT_PATH, 'utf8');

/** A small document in the shape of Folio's: one extension route answering an object with an extension field. */
const tiny = (extraField = '') => `
openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /v1/things/{uuid}:
    get:
      operationId: getThing
      x-folio-extension: true
      x-folio-decision: Answers the thing. docs/extensions.md § Things.
      parameters: [{ name: uuid, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: The thing.
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
components:
  schemas:
    Thing:
      type: object
      additionalProperties: false
      required: [object, round]
      properties:
        object: { const: thing }
        round: { type: integer, description: Which round., x-folio-extension: true }${extraField}
`;

describe('the generated client types', { timeout: 60_000 }, () => {
  it('are what the generator makes of openapi/folio.yaml now (run `npm run generate:client-types` after changing it)', async () => {
    const generated = await generateTypes(documentText);
    const committed = readFileSync(GENERATED_PATH, 'utf8');
    // A plain comparison, not toBe: a diff of two 5,000-line strings says less than the command to run.
    if (generated !== committed) {
      const at = [...generated].findIndex((char, i) => char !== committed[i]);
      const line = generated.slice(0, at).split('\n').length;
      expect.fail(
        `clients/typescript/src/openapi.ts is stale from line ${line}: run npm run generate:client-types`,
      );
    }
  });

  it('and the methods, src/operations.ts, are too', async () => {
    const generated = await generateOperations(documentText);
    if (generated !== readFileSync(OPERATIONS_PATH, 'utf8'))
      expect.fail('clients/typescript/src/operations.ts is stale: run npm run generate:client-types');
  });

  it('hold every route and method of the document, extension routes included', () => {
    const document = parse(documentText) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const committed = readFileSync(GENERATED_PATH, 'utf8');
    for (const [template, item] of Object.entries(document.paths)) {
      expect(committed).toContain(`    ${JSON.stringify(template)}: {`);
      for (const [method, operation] of Object.entries(item)) {
        if (operation.operationId)
          expect(committed).toContain(
            `        ${method}: operations[${JSON.stringify(operation.operationId)}];`,
          );
      }
    }
  });

  it('carry x-folio-extension and x-folio-decision into the JSDoc, and follow a change of the document', async () => {
    const before = await generateTypes(tiny());
    expect(before).toContain('Folio extension: not in the spec (docs/extensions.md).');
    expect(before).toContain('Folio decision: Answers the thing. docs/extensions.md § Things.');
    expect(before).toMatch(
      /@description Which round\.\n\s+\*\s+Folio extension: not in the spec \(docs\/extensions\.md\)\.\n\s+\*\/\n\s+round: number;/,
    );
    expect(before).toMatch(/getThing: \{[\s\S]*"application\/json": components\["schemas"\]\["Thing"\]/);
    expect(before.startsWith('// Generated from openapi/folio.yaml')).toBe(true);
    // A field added to the document is a different file: the staleness check above sees it.
    const after = await generateTypes(tiny('\n        label: { type: [string, "null"] }'));
    expect(after).not.toBe(before);
    expect(after).toContain('label?: string | null;');
  });

  it('name the document’s shapes (checked by the typecheck)', () => {
    expectTypeOf<WebhookDelivery['round']>().toEqualTypeOf<number>();
    expectTypeOf<WebhookAttempt['round']>().toEqualTypeOf<number>();
    expectTypeOf<ResponseBody<'resendWebhookEvent'>>().toEqualTypeOf<WebhookDelivery>();
    expectTypeOf<UploadStatus['parts'][number]>().toEqualTypeOf<{
      part_number: number;
      size_bytes: number;
      etag: string;
    }>();
    expectTypeOf<
      paths['/v1/drive/uploads/{uuid}']['get']['responses'][200]['content']['application/json']
    >().toEqualTypeOf<UploadStatus>();
    expectTypeOf<Extract<ChangeEntry, { type: 'delete' }>['parent_uuid']>().toEqualTypeOf<string | null>();
  });
});
