// The schema check of deploy/ (deploy/validate-manifests.ts) passes the committed files and names what a broken copy
// gets wrong: a built-in object, each custom resource (KEDA, cert-manager), and the compose file; strictly, so a
// misspelled field (which the API server would drop without a word) is named in each kind.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateDeployFiles } from '../../../deploy/validate-manifests.js';

let copy: string | undefined;
afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
});

/** deploy/ copied to a temporary folder, with each file's text passed through `edit`. */
function brokenCopy(edits: Record<string, (text: string) => string>): string {
  copy = mkdtempSync(join(tmpdir(), 'folio-deploy-'));
  cpSync('deploy', join(copy, 'deploy'), { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(copy, 'deploy', file);
    const before = readFileSync(path, 'utf8');
    const after = edit(before);
    expect(after).not.toBe(before);
    writeFileSync(path, after);
  }
  return copy;
}

describe('deploy/ schema check', () => {
  it('passes the committed manifests and compose file', { timeout: 120_000 }, async () => {
    expect(await validateDeployFiles('.')).toEqual([]);
  });

  it('names the object and the field of each mistake', { timeout: 120_000 }, async () => {
    const root = brokenCopy({
      'k8s/folio.yaml': (text) =>
        text.replace('terminationGracePeriodSeconds: 40', 'terminationGracePeriodSeconds: forty'),
      'k8s/worker-autoscaler.yaml': (text) =>
        text.replace(/targetQueueSize: ['"]20['"]/, 'targetQueueSize: 20'),
      'k8s/ingress.yaml': (text) => text.replace('privateKeySecretRef:', 'privateKeySecret:'),
      'compose.yaml': (text) => text.replace('stop_grace_period: 40s', 'stop_grace_periods: 40s'),
    });
    const problems = await validateDeployFiles(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /folio\.yaml: Deployment folio-api: .*terminationGracePeriodSeconds must be integer/,
        ),
        expect.stringMatching(
          /worker-autoscaler\.yaml: ScaledObject folio-worker: .*targetQueueSize must be string/,
        ),
        expect.stringMatching(
          /ingress\.yaml: ClusterIssuer letsencrypt: .*required property privateKeySecretRef/,
        ),
        expect.stringMatching(
          /compose\.yaml: \/services\/worker must NOT have additional properties .*stop_grace_periods/,
        ),
      ]),
    );
  });

  it('names every field its schema does not list', { timeout: 120_000 }, async () => {
    const root = brokenCopy({
      'k8s/folio.yaml': (text) =>
        text
          .replace(
            'replicas: 2\n  selector: { matchLabels: { app: folio-api } }',
            'replica: 2\n  selector: { matchLabels: { app: folio-api } }',
          )
          .replace('httpGet: { path: /readyz, port: http }', 'httpGett: { path: /readyz, port: http }')
          .replace("command: ['node', 'dist/worker/main.js']", "commands: ['node', 'dist/worker/main.js']")
          .replace('  selector: { app: folio-api }\n', '  selectors: { app: folio-api }\n'),
      'k8s/temporal.yaml': (text) =>
        text.replace(
          'tcpSocket: { port: grpc }, periodSeconds: 10',
          'tcpSockets: { port: grpc }, periodSeconds: 10',
        ),
      'k8s/worker-autoscaler.yaml': (text) => text.replace('cooldownPeriod: 300', 'cooldownPeriods: 300'),
      'k8s/ingress.yaml': (text) => text.replace('pathType: Prefix', 'pathTyp: Prefix'),
      'compose.yaml': (text) =>
        text.replace(
          "'./temporal:/etc/temporal/folio:ro']\n    depends_on:\n      temporal-schema",
          "'./temporal:/etc/temporal/folio:ro']\n    depend_on:\n      temporal-schema",
        ),
    });
    const problems = await validateDeployFiles(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/folio\.yaml: Deployment folio-api: \/spec has an unknown field replica$/),
        expect.stringMatching(
          /folio\.yaml: Deployment folio-api: \/spec\/template\/spec\/containers\/0\/readinessProbe has an unknown field httpGett$/,
        ),
        expect.stringMatching(
          /folio\.yaml: Deployment folio-worker: \/spec\/template\/spec\/containers\/0 has an unknown field commands$/,
        ),
        expect.stringMatching(/folio\.yaml: Service folio-api: \/spec has an unknown field selectors$/),
        expect.stringMatching(
          /temporal\.yaml: Deployment temporal-history: \/spec\/template\/spec\/containers\/0\/livenessProbe has an unknown field tcpSockets$/,
        ),
        expect.stringMatching(
          /worker-autoscaler\.yaml: ScaledObject folio-worker: \/spec has an unknown field cooldownPeriods$/,
        ),
        expect.stringMatching(
          /ingress\.yaml: Ingress folio: \/spec\/rules\/0\/http\/paths\/0 has an unknown field pathTyp$/,
        ),
        expect.stringMatching(
          /compose\.yaml: \/services\/temporal must NOT have additional properties .*depend_on/,
        ),
      ]),
    );
    // Only those: a field the schema lists is never reported as unknown.
    expect(problems.filter((problem) => problem.includes('unknown field'))).toHaveLength(7);
  });
});
