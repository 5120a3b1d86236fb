// Generates src/openapi.ts, the client's API types, from openapi/folio.yaml (the one source of truth) with
// openapi-typescript: `paths`, `operations` and `components`, every extension route included. The file is committed;
// test/unit/clients/generated-types.test.ts regenerates it and fails when the committed file differs, so a change to
// the document lands with its types. Run: npm run generate:client-types.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { parse } from 'yaml';

export const DOCUMENT_PATH = fileURLToPath(new URL('../../../openapi/folio.yaml', import.meta.url));
export const GENERATED_PATH = fileURLToPath(new URL('../src/openapi.ts', import.meta.url));

const HEADER = `// Generated from openapi/folio.yaml by clients/typescript/scripts/generate-types.ts (openapi-typescript): do not edit.
// Regenerate with \`npm run generate:client-types\`; src/types.ts names the types the client uses.
`;

type Json = Record<string, unknown>;

/**
 * Folio's x- keywords are what a client author most needs and openapi-typescript does not print: a route or field
 * that is Folio's own (x-folio-extension) and a decision where the spec says "not shown" (x-folio-decision). Both
 * are appended to the description, which becomes the JSDoc of the generated type. Only descriptions change, so the
 * types are those of the document as written.
 */
function carryExtensions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(carryExtensions);
  if (!node || typeof node !== 'object') return;
  const object = node as Json;
  const notes: string[] = [];
  if (object['x-folio-extension'] === true)
    notes.push('Folio extension: not in the spec (docs/extensions.md).');
  if (typeof object['x-folio-decision'] === 'string')
    notes.push(`Folio decision: ${object['x-folio-decision'].trim()}`);
  // A $ref with siblings is still a reference for openapi-typescript; a description there would be dropped.
  if (notes.length && !('$ref' in object)) {
    object.description = [typeof object.description === 'string' ? object.description.trim() : '', ...notes]
      .filter(Boolean)
      .join('\n');
  }
  for (const [key, value] of Object.entries(object)) if (!key.startsWith('x-')) carryExtensions(value);
}

/** The module text for one document text. */
export async function generateTypes(yamlText: string): Promise<string> {
  const document = parse(yamlText) as OpenAPI3;
  carryExtensions(document);
  const ast = await openapiTS(document, {
    silent: true,
    // additionalProperties: false is everywhere a response object is declared; where it is not (request bodies),
    // openapi-typescript's default (no index signature) is the stricter type for a caller.
    additionalProperties: false,
    // Operations by id (operations['getUploadStatus']) are what src/types.ts names.
    exportType: false,
  });
  return HEADER + '\n' + astToString(ast);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = await generateTypes(await readFile(DOCUMENT_PATH, 'utf8'));
  await writeFile(GENERATED_PATH, text);
  console.log(`wrote ${GENERATED_PATH} (${text.split('\n').length} lines)`);
}
