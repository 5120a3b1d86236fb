// Authentication at the edge: the decisions for the spec's "not shown" auth errors are in README.md § Authentication.
import { describe, expect, it } from 'vitest';
import { issueApiKey, revokeAccessToken } from '../../../domain/accounts/credentials.js';
import { db } from '../../../platform/database.js';
import { call, makeUser, tokenFor } from '../../support/api.js';
import { startExtraApi } from '../../support/extra-api.js';
import { CLI_TIMEOUT_MS, folio } from '../../support/cli.js';
import { everyApiProcessHeard } from '../../../platform/process-session.js';

describe('bearer authentication', () => {
  it('answers 401 with WWW-Authenticate when the token is missing', async () => {
    const response = await call('GET', '/v1/drive/files');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="folio", error="invalid_token"/);
    expect(response.body).toEqual({ error: 'invalid_token' });
  });

  it('answers 401 for an unknown token, on Drive and Documents alike, with each body style', async () => {
    const drive = await call('GET', '/v1/drive/files', { token: 'folio_at_not-a-real-token' });
    expect(drive.status).toBe(401);
    expect(drive.body).toEqual({ error: 'invalid_token' });
    const documents = await call('GET', '/v1/documents', { token: 'garbage' });
    expect(documents.status).toBe(401);
    expect(documents.headers.get('www-authenticate')).toContain('Bearer');
    expect(documents.body).toEqual({
      error: 'invalid_token',
      error_description: 'The access token is unknown, expired or revoked.',
    });
  });

  it('answers 401 for a malformed Authorization header', async () => {
    const response = await call('GET', '/v1/drive/files', {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(response.status).toBe(401);
  });

  it('answers 401 for an expired token', async () => {
    const user = await makeUser();
    await db()('access_tokens')
      .where({ user_uuid: user.uuid })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const response = await call('GET', '/v1/drive/files', { token: user.token });
    expect(response.status).toBe(401);
  });

  it('answers 401 once a token is revoked, and accepts it before', async () => {
    const user = await makeUser();
    expect((await call('GET', '/v1/drive/files', { token: user.token })).status).toBe(200);
    expect(await revokeAccessToken(db(), user.token, everyApiProcessHeard)).toBe(true);
    expect((await call('GET', '/v1/drive/files', { token: user.token })).status).toBe(401);
    expect(await revokeAccessToken(db(), user.token, everyApiProcessHeard)).toBe(false);
  });

  it(
    'refuses a token revoked with `folio token revoke` on the very next request to every API process, though each had it cached',
    { timeout: CLI_TIMEOUT_MS },
    async () => {
      const user = await makeUser();
      const other = await startExtraApi('revocation-api-1');
      try {
        const apis = [process.env.FOLIO_API_URL!, other.url];
        const status = async (base: string) =>
          (await fetch(`${base}/v1/drive/files`, { headers: { authorization: `Bearer ${user.token}` } }))
            .status;
        // Twice each: the second answer comes from that process's credential cache.
        for (const base of apis) expect([await status(base), await status(base)]).toEqual([200, 200]);
        expect(await folio('token', 'revoke', user.token)).toEqual({ revoked: true });
        for (const base of apis) expect(await status(base)).toBe(401);
      } finally {
        await other.stop();
      }
    },
  );

  it('refuses a workspace API key on Drive and Documents routes with 403 forbidden', async () => {
    const user = await makeUser();
    const { api_key } = await issueApiKey(db(), user.workspaceUuid);
    const drive = await call('GET', '/v1/drive/files', { token: api_key });
    expect(drive.status).toBe(403);
    expect(drive.body).toEqual({ error: 'forbidden' });
    const folder = await call('POST', '/v1/drive/folders', { token: api_key, json: { name: 'x' } });
    expect(folder.status).toBe(403);
  });

  it('answers 403 insufficient_scope naming the missing scope, and changes nothing', async () => {
    const user = await makeUser();
    const readOnly = await tokenFor(user, ['drive.read']);
    const response = await call('POST', '/v1/drive/folders', { token: readOnly, json: { name: 'Nope' } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', scope: 'drive.create' });
    expect(response.headers.get('www-authenticate')).toContain(
      'error="insufficient_scope", scope="drive.create"',
    );
    const list = await call('GET', '/v1/drive/files', { token: readOnly });
    expect(list.body.folders).toEqual([]);
  });
});

describe('request bodies', () => {
  it('answers 400 invalid_body for malformed JSON', async () => {
    const user = await makeUser();
    const response = await call('POST', '/v1/drive/folders', {
      token: user.token,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_body' });
  });

  it('answers 413 for a JSON body over the route limit', async () => {
    const user = await makeUser();
    const response = await call('POST', '/v1/drive/folders', {
      token: user.token,
      json: { name: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: 'request_too_large' });
  });

  it('answers 404 not_found for an unknown route under /v1 once authenticated', async () => {
    const user = await makeUser();
    const response = await call('GET', '/v1/drive/nothing-here', { token: user.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found' });
  });

  it('answers 405 method_not_allowed with Allow for a known path under another method, and changes nothing', async () => {
    const user = await makeUser();
    const before = await call('GET', '/v1/drive/files', { token: user.token });
    const response = await call('DELETE', '/v1/drive/files', { token: user.token });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.body).toEqual({ error: 'method_not_allowed' });
    expect((await call('GET', '/v1/drive/files', { token: user.token })).body).toEqual(before.body);

    // A path with a parameter, and Documents' error shape.
    const folder = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Kept' } });
    const put = await call('PUT', `/v1/drive/folders/${folder.body.uuid}`, {
      token: user.token,
      json: { name: 'Renamed' },
    });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toContain('POST');
    expect(
      (await call('GET', `/v1/drive/folders/${folder.body.uuid}`, { token: user.token })).body.name,
    ).toBe('Kept');
    const documents = await call('PATCH', '/v1/documents', { token: user.token });
    expect(documents.status).toBe(405);
    expect(documents.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(documents.body).toMatchObject({
      error: 'method_not_allowed',
      error_description: expect.stringContaining('PATCH'),
    });
  });

  it('still answers 401 to a wrong method under /v1 without a credential', async () => {
    const response = await call('DELETE', '/v1/drive/files');
    expect(response.status).toBe(401);
  });
});
