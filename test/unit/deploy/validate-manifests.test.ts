// The schema check of deploy/ (deploy/validate-manifests.ts) passes the committed files and names what a broken copy
// gets wrong: a built-in object, each custom resource (KEDA, cert-manager), and the compose file.
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
  it('passes the committed manifests and compose file', { timeout: 60_000 }, async () => {
    expect(await validateDeployFiles('.')).toEqual([]);
  });

  it('names the object and the field of each mistake', { timeout: 60_000 }, async () => {
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
});
