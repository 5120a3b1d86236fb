// Bounded input at the edge (issue 22, row 1): a JSON body nested past 64 levels (or with an object of more than
// 1,000 members) is refused with 400 invalid_body before anything walks it, quickly, while /readyz keeps answering; 64 levels go on to the route's schema; the size
// limit is enforced while the body is read; a nested cursor is refused before it is parsed.
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { call, fetchApi, firstApiUrl, makeUser, type TestUser } from '../../support/api.js';
import { bodyWith, nestedArrays, sendJson, whileTimingReadyz } from '../../support/hostile-input.js';
import { makeAdmin } from '../../support/mail.js';

const DEPTH_REFUSAL = 'The request body nests arrays and objects deeper than 64 levels.';

const itemCount = async (user: TestUser) =>
  Number(
    (await db()('drive_items').where({ workspace_uuid: user.workspaceUuid }).count({ n: '*' }).first())!.n,
  );
const documentCount = async (user: TestUser) =>
  Number(
    (await db()('documents').where({ workspace_uuid: user.workspaceUuid }).count({ n: '*' }).first())!.n,
  );

describe('JSON nesting is bounded at the edge', () => {
  it('refuses a folder whose field nests 16,000 arrays with 400 invalid_body at once, /readyz answering within 1 s meanwhile', async () => {
    const user = await makeUser();
    const body = bodyWith('color', nestedArrays(16_000), { name: 'deep' });
    const { result, requestMs, slowestReadyMs, readyStatuses } = await whileTimingReadyz((api) =>
      sendJson(api, 'POST', '/v1/drive/folders', user.token, body),
    );
    expect(slowestReadyMs).toBeLessThan(1_000);
    expect(requestMs).toBeLessThan(2_000);
    expect(readyStatuses.every((status) => status === 200)).toBe(true);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'invalid_body' });
    expect(await itemCount(user)).toBe(0);
  });

  it('refuses 100,000 nested arrays (200 KB) as quickly', async () => {
    const user = await makeUser();
    const { result, slowestReadyMs } = await whileTimingReadyz((api) =>
      sendJson(api, 'POST', '/v1/drive/folders', user.token, nestedArrays(100_000)),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'invalid_body' });
    expect(slowestReadyMs).toBeLessThan(1_000);
  });

  it("refuses 65 levels (the body's object and 64 arrays in an ignored field) and creates nothing", async () => {
    const user = await makeUser();
    const response = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/drive/folders',
      user.token,
      bodyWith('extra', nestedArrays(64), { name: 'deep' }),
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_body' });
    const objects = '{"a":'.repeat(64) + '1' + '}'.repeat(64);
    const asObjects = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/drive/folders',
      user.token,
      bodyWith('extra', objects, { name: 'deep' }),
    );
    expect(asObjects.status).toBe(400);
    expect(await itemCount(user)).toBe(0);
  });

  it('takes 64 levels: an ignored field nested that deep leaves the folder to its schema', async () => {
    const user = await makeUser();
    const response = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/drive/folders',
      user.token,
      bodyWith('extra', nestedArrays(63), { name: 'deep enough' }),
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'deep enough' });
    expect(response.body).not.toHaveProperty('extra');
    // A known field nested as deep is that field's refusal, as any wrong type is.
    const wrongType = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/drive/folders',
      user.token,
      bodyWith('name', nestedArrays(63)),
    );
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ error: 'invalid_body', fields: ['name'] });
    expect(await itemCount(user)).toBe(1);
  });

  it('answers Documents and the admin API with invalid_body and a description that names the limit', async () => {
    const user = await makeUser();
    const tooDeep = bodyWith('title', nestedArrays(64));
    const document = await sendJson(firstApiUrl(), 'POST', '/v1/documents', user.token, tooDeep);
    expect(document.status).toBe(400);
    expect(document.body).toEqual({ error: 'invalid_body', error_description: DEPTH_REFUSAL });
    expect(await documentCount(user)).toBe(0);
    // A body within the limit but not JSON is answered the way it always was.
    const malformed = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/documents',
      user.token,
      bodyWith('title', nestedArrays(63)).slice(0, -1),
    );
    expect(malformed.body).toEqual({
      error: 'invalid_body',
      error_description: 'The request body is not valid JSON.',
    });

    const admin = await makeAdmin({ uuid: user.workspaceUuid });
    const webhook = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/admin/webhooks',
      admin.token,
      bodyWith('description', nestedArrays(100_000), { url: 'https://example.test/hook' }),
    );
    expect(webhook.status).toBe(400);
    expect(webhook.body).toEqual({ error: 'invalid_body', error_description: DEPTH_REFUSAL });
  });

  it('refuses an object of more than 1,000 members with 400 invalid_body before parsing it, and takes 1,000', async () => {
    const user = await makeUser();
    const members = (count: number) =>
      `{${Array.from({ length: count }, (_, index) => `"${index.toString(36)}":0`).join(',')}}`;
    const wide = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/documents',
      user.token,
      bodyWith('extra', members(100_000), { title: 'wide' }),
    );
    expect(wide.status).toBe(400);
    expect(wide.body).toEqual({
      error: 'invalid_body',
      error_description: 'The request body has an object of more than 1000 members.',
    });
    const fits = await sendJson(
      firstApiUrl(),
      'POST',
      '/v1/documents',
      user.token,
      bodyWith('extra', members(1_000), { title: 'fits' }),
    );
    expect(fits.status).toBe(201);
    expect(await documentCount(user)).toBe(1);
  });

  it('refuses a simple upload nested past the limit, read by its own reader, with 400 invalid_body', async () => {
    const user = await makeUser();
    const body = bodyWith('data', nestedArrays(100_000), { name: 'f.txt', content_type: 'text/plain' });
    const response = await sendJson(firstApiUrl(), 'POST', '/v1/drive/files', user.token, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_body' });
    expect(await itemCount(user)).toBe(0);
  });

  it('refuses a documents cursor that nests, without parsing it, with 422 invalid_cursor', async () => {
    const user = await makeUser();
    const cursor = Buffer.from(nestedArrays(5_000)).toString('base64url');
    const response = await call('GET', `/v1/documents?cursor=${cursor}`, { token: user.token });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body.error).toBe('invalid_cursor');
  });
});

describe('the body size limit is enforced while the body is read', () => {
  it('refuses a chunked body that passes 1 MB with 413 request_too_large', async () => {
    const user = await makeUser();
    const piece = new TextEncoder().encode(`"${'a'.repeat(64 * 1024)}",`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":"big","extra":['));
      },
      pull(controller) {
        // 4 MB at most: the API answers once 1 MB has arrived, without waiting for the rest.
        if (sent > 4 * 1024 * 1024) return controller.close();
        sent += piece.length;
        controller.enqueue(piece);
      },
    });
    const response = await fetchApi('/v1/drive/folders', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'request_too_large' });
    expect(await itemCount(user)).toBe(0);
  });
});
