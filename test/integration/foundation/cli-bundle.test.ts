// The bundled CLI (deploy/cli-bundle.ts: what `npm run build` writes and production images run) does what the source
// does: one command of each kind of dependency it bundles (knex and the migrations, the API client, mailparser and
// object storage, the webhook rules), run from a fresh bundle of this checkout.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle } from '../../../deploy/cli-bundle.js';
import { makeUser, makeWorkspace } from '../../support/api.js';
import { CLI_TIMEOUT_MS } from '../../support/cli.js';
import { emlMessage } from '../../support/mail.js';

const run = promisify(execFile);
// Inside node_modules, so the packages left out of the bundle resolve as they do beside dist/ in an image.
const cacheDir = resolve('node_modules/.cache');
let bundleDir = '';

beforeAll(async () => {
  mkdirSync(cacheDir, { recursive: true });
  bundleDir = mkdtempSync(join(cacheDir, 'folio-cli-bundle-'));
  await buildCliBundle(bundleDir);
}, CLI_TIMEOUT_MS);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

async function bundled(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [join(bundleDir, 'folio.mjs'), ...args, '--json'], {
    env: process.env,
  });
  return JSON.parse(stdout);
}

describe('the bundled folio CLI', () => {
  it(
    'prints help, migrates, and runs database, API, mail and webhook commands',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const { stdout: help } = await run(process.execPath, [join(bundleDir, 'folio.mjs'), '--help']);
      expect(help).toContain('Usage: folio');
      expect(await bundled('migrate')).toEqual({ applied: [] });

      const workspace = await bundled('workspace', 'create', '--name', 'bundled CLI');
      expect(workspace).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const user = await bundled(
        'user',
        'create',
        '--workspace',
        workspace.uuid,
        '--email',
        `bundle-${Date.now()}@example.test`,
        '--first-name',
        'Bundle',
      );
      const token = await bundled(
        'token',
        'issue',
        '--user',
        user.uuid,
        '--workspace',
        workspace.uuid,
        '--scopes',
        'drive.read',
        '--expires-in',
        '600',
      );
      const listing = await bundled(
        'drive',
        'ls',
        '--url',
        process.env.FOLIO_API_URL!,
        '--token',
        token.access_token,
      );
      expect(listing).toMatchObject({ object: 'list', folder_uuid: null, folders: [], files: [] });

      const mailWorkspace = await makeWorkspace();
      const reader = await makeUser({ workspace: mailWorkspace });
      const mailbox = await bundled(
        'mailbox',
        'create',
        '--workspace',
        mailWorkspace.uuid,
        '--address',
        `bundle-${Date.now()}@mail.folio.test`,
        '--member',
        reader.uuid,
      );
      const dir = mkdtempSync(join(tmpdir(), 'folio-eml-'));
      writeFileSync(join(dir, 'a.eml'), emlMessage({ subject: 'From the bundle' }));
      expect(
        await bundled('email', 'deliver', '--mailbox', mailbox.uuid, '--eml', join(dir, 'a.eml')),
      ).toMatchObject({ outcome: 'stored', labels: ['inbox'] });
      rmSync(dir, { recursive: true, force: true });

      // The SSRF rules run in the bundle too: a loopback address outside the allow-list is refused before any connection.
      await expect(
        bundled('webhook', 'create', '--workspace', mailWorkspace.uuid, '--url', 'https://2130771969/'),
      ).rejects.toMatchObject({ stderr: expect.stringContaining('refused') });
    },
  );
});
