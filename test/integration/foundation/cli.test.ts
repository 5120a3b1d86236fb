// The operator CLI as operators run it: `npx folio ... --json`, one JSON object on stdout.
import { describe, expect, it } from 'vitest';
import { call } from '../../support/api.js';
import { CLI_TIMEOUT_MS, folio, runFolio } from '../../support/cli.js';

describe('folio CLI', () => {
  it(
    'creates a workspace and user, issues a token the API accepts, and an API key it rejects',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const workspace = await folio(
        'workspace',
        'create',
        '--name',
        'CLI test',
        '--storage-limit',
        '1000000',
      );
      expect(workspace).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const user = await folio(
        'user',
        'create',
        '--workspace',
        workspace.uuid,
        '--email',
        `cli-${Date.now()}@example.test`,
        '--first-name',
        'Cli',
      );
      expect(user).toEqual({ uuid: expect.any(String) });

      const token = await folio(
        'token',
        'issue',
        '--user',
        user.uuid,
        '--workspace',
        workspace.uuid,
        '--scopes',
        'drive.read,docs.write',
        '--expires-in',
        '600',
      );
      expect(token).toEqual({
        access_token: expect.stringMatching(/^folio_at_/),
        expires_at: expect.any(String),
      });
      expect(Date.parse(token.expires_at) - Date.now()).toBeGreaterThan(500_000);
      expect((await call('GET', '/v1/drive/files', { token: token.access_token })).status).toBe(200);

      const key = await folio('apikey', 'issue', '--workspace', workspace.uuid);
      expect(key).toEqual({ api_key: expect.stringMatching(/^folio_ak_/) });
      expect((await call('GET', '/v1/drive/files', { token: key.api_key })).status).toBe(403);

      expect(await folio('token', 'revoke', token.access_token)).toEqual({ revoked: true });
      expect((await call('GET', '/v1/drive/files', { token: token.access_token })).status).toBe(401);
    },
  );

  it('refuses an unknown scope with a clear message and a non-zero exit', async () => {
    await expect(
      runFolio('token', 'issue', '--user', 'u', '--workspace', 'w', '--scopes', 'drive.fly', '--json'),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('unknown scope drive.fly') });
  });

  it('prints help for every command group', { timeout: CLI_TIMEOUT_MS }, async () => {
    for (const group of [[], ['workspace'], ['user'], ['token'], ['apikey'], ['drive'], ['docs']]) {
      const { stdout } = await runFolio(...group, '--help');
      expect(stdout).toContain('Usage: folio');
    }
  });
});
