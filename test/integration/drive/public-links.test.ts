// Public links from a visitor's side (GET /s/<token>): a file downloads, a folder lists what is inside (HTML or JSON)
// and serves everything below it, anonymously and read-only, until the link is removed or the item (or an ancestor)
// is trashed; every refusal is the same 404; rate limits answer 429 with Retry-After; the page headers are strict.
// Decisions: docs/drive-sharing.md § Public links.
import { request, type IncomingHttpHeaders } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPublicLink, removePublicLink } from '../../../domain/drive/sharing.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { call, makeFolder, makeUser, type TestUser } from '../../support/api.js';
import { api, initiateUpload, sendChunks, uploadChunked } from '../../support/folio-client.js';
import { folio } from '../../support/cli.js';
import { simpleUpload } from '../../support/drive-files.js';

const MiB = 1024 * 1024;

// Each test visits from its own loopback address, so the per-address limit (40 a day in the test stack,
// test/setup/global.ts) counts only that test's requests.
let lastHost = 0;
const freshAddress = () => `127.0.2.${++lastHost}`;

interface Visit {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A GET (or HEAD) with no credential from the given loopback address, the body kept as bytes. */
function visit(url: string, options: { from: string; accept?: string; method?: string }): Promise<Visit> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.from,
        headers: options.accept ? { accept: options.accept } : {},
      },
      (res) => {
        const pieces: Buffer[] = [];
        res.on('data', (piece: Buffer) => pieces.push(piece));
        res.on('end', () => {
          const body = Buffer.concat(pieces);
          resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const linkKeys = () => ({ publicUrl: config().publicUrl, masterKey: config().masterKey });

async function linkTo(kind: 'file' | 'folder', uuid: string) {
  return db().transaction((tx) => createPublicLink(tx, { itemUuid: uuid, kind }, linkKeys()));
}

async function trash(user: TestUser, kind: 'files' | 'folders', uuid: string) {
  expect((await call('POST', `/v1/drive/${kind}/${uuid}/trash`, { token: user.token })).status).toBe(200);
}

async function restore(user: TestUser, kind: 'files' | 'folders', uuid: string) {
  expect(
    (await call('POST', `/v1/drive/${kind}/${uuid}`, { token: user.token, json: { trashed: false } })).status,
  ).toBe(200);
}

function expectStrictPageHeaders(headers: IncomingHttpHeaders) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('script-src');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cache-control']).toBe('no-store');
}

/** The refusal every dead link gets, as a browser (HTML) and as a program (JSON) sees it. */
async function refusal(url: string, from: string) {
  const page = await visit(url, { from });
  const json = await visit(url, { from, accept: 'application/json' });
  expectStrictPageHeaders(page.headers);
  return { status: [page.status, json.status], page: page.text, json: JSON.parse(json.text) };
}

describe('GET /s/<token> for a file', () => {
  it('downloads the plaintext of a simple upload with its type, an attachment name, its length and strict headers, to anyone', async () => {
    const owner = await makeUser();
    const data = randomBytes(300_000);
    const file = await simpleUpload(owner, 'Résumé "final"; v2.pdf', data, {
      content_type: 'application/pdf',
    });
    const link = await linkTo('file', file.uuid);
    expect(link).toMatchObject({ status: 'ready', url: `${config().publicUrl}/s/${link.token}` });

    const from = freshAddress();
    const got = await visit(link.url, { from });
    expect(got.status).toBe(200);
    expect(got.body.equals(data)).toBe(true);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-length']).toBe(String(data.length));
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="R_sum_ _final__ v2.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%3B%20v2.pdf`,
    );
    expectStrictPageHeaders(got.headers);
    expect(got.headers['content-security-policy']).toContain('sandbox');

    // HEAD answers the same headers without reading storage.
    const head = await visit(link.url, { from, method: 'HEAD' });
    expect(head).toMatchObject({ status: 200, body: Buffer.alloc(0) });
    expect(head.headers['content-length']).toBe(String(data.length));
    expect(head.headers['content-disposition']).toBe(got.headers['content-disposition']);
  });

  it('downloads the plaintext of a chunked upload (three chunks, the last partial)', async () => {
    const owner = await makeUser();
    const data = randomBytes(17 * MiB + 123);
    const file = await uploadChunked(
      { token: owner.token },
      { name: 'big.bin', contentType: 'application/octet-stream', size: data.length, source: data },
    );
    const link = await linkTo('file', file.uuid);
    const got = await visit(link.url, { from: freshAddress() });
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(String(data.length));
    expect(got.body.equals(data)).toBe(true);
  });

  it('is pending while the file is still uploading (404 to visitors) and ready, serving the bytes, once the upload completes', async () => {
    const owner = await makeUser();
    const client = { token: owner.token };
    const data = randomBytes(1000);
    const transfer = await initiateUpload(client, {
      name: 'coming.bin',
      contentType: 'application/octet-stream',
      size: data.length,
    });
    const link = await linkTo('file', transfer.fileUuid);
    expect(link.status).toBe('pending');

    const from = freshAddress();
    const unknown = await refusal(`${config().publicUrl}/s/${randomBytes(24).toString('base64url')}`, from);
    expect(await refusal(link.url, from)).toEqual(unknown);

    const parts = await sendChunks(
      client,
      `/v1/drive/uploads/${transfer.fileUuid}/part_urls`,
      transfer,
      data.length,
      data,
    );
    await api(client, 'POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, { parts });
    const settings = await call('GET', `/v1/drive/files/${transfer.fileUuid}/sharing`, {
      token: owner.token,
    });
    expect(settings.body.public_link).toMatchObject({ uuid: link.uuid, token: link.token, status: 'ready' });
    expect(Date.parse(settings.body.public_link.updated_at)).toBeGreaterThan(link.updated_at.getTime());
    const got = await visit(link.url, { from });
    expect(got.status).toBe(200);
    expect(got.body.equals(data)).toBe(true);
  });
});

describe('GET /s/<token> for a folder', () => {
  /** Shared <b>folder/ {a&b "q".txt, z<img …>.txt, Sub/ {Deeper/ {deep.txt}, sub.txt}, trashed.txt (trashed)}, and outside.txt beside it. */
  async function sharedTree() {
    const owner = await makeUser();
    const shared = await makeFolder(owner, 'Shared <b>folder');
    const sub = await makeFolder(owner, 'Sub', shared);
    const deeper = await makeFolder(owner, 'Deeper', sub);
    const deepBytes = randomBytes(5000);
    const files = {
      script: await simpleUpload(owner, 'z<img src=x onerror=alert(1)>.txt', Buffer.from('x'), {
        folder_uuid: shared,
        content_type: 'text/html',
      }),
      amp: await simpleUpload(owner, 'a&b "q".txt', Buffer.from('hello'), {
        folder_uuid: shared,
        content_type: 'text/plain',
      }),
      sub: await simpleUpload(owner, 'sub.txt', Buffer.from('in sub'), { folder_uuid: sub }),
      deep: await simpleUpload(owner, 'deep.txt', deepBytes, { folder_uuid: deeper }),
      trashed: await simpleUpload(owner, 'trashed.txt', Buffer.from('gone'), { folder_uuid: shared }),
      outside: await simpleUpload(owner, 'outside.txt', Buffer.from('not shared')),
    };
    await trash(owner, 'files', files.trashed.uuid);
    // Still uploading: not listed, not served.
    const uploading = await initiateUpload(
      { token: owner.token },
      { name: 'uploading.bin', contentType: 'text/plain', size: 10, folderUuid: shared },
    );
    const link = await linkTo('folder', shared);
    return { owner, shared, sub, deeper, files, deepBytes, uploading, link };
  }

  it('lists what is inside as an HTML page with every name escaped and a link per item, under strict headers', async () => {
    const { sub, files, link } = await sharedTree();
    const page = await visit(link.url, { from: freshAddress() });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expectStrictPageHeaders(page.headers);
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain('<script');
    expect(page.text).not.toContain('<b>');
    expect(page.text).toContain('<title>Shared &lt;b&gt;folder</title>');
    expect(page.text).toContain('<h1>Shared &lt;b&gt;folder</h1>');
    const anchors = [...page.text.matchAll(/<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map(([, href, label]) => [
      href,
      label,
    ]);
    expect(anchors).toEqual([
      [`${link.url}/${sub}`, 'Sub/'],
      [`${link.url}/${files.amp.uuid}`, 'a&amp;b &quot;q&quot;.txt'],
      [`${link.url}/${files.script.uuid}`, 'z&lt;img src=x onerror=alert(1)&gt;.txt'],
    ]);
    // The page's one inline style is allowed by its hash, not by 'unsafe-inline'.
    const style = /<style>([^<]*)<\/style>/.exec(page.text)![1]!;
    expect(page.headers['content-security-policy']).toContain(
      `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    );
  });

  it('answers the same listing as JSON for Accept: application/json', async () => {
    const { shared, sub, files, link } = await sharedTree();
    const got = await visit(link.url, { from: freshAddress(), accept: 'application/json' });
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    expectStrictPageHeaders(got.headers);
    const at = expect.any(String);
    expect(JSON.parse(got.text)).toEqual({
      object: 'drive_public_folder',
      uuid: shared,
      name: 'Shared <b>folder',
      url: link.url,
      parent_url: null,
      folders: [{ uuid: sub, name: 'Sub', url: `${link.url}/${sub}`, updated_at: at }],
      files: [
        {
          uuid: files.amp.uuid,
          name: 'a&b "q".txt',
          content_type: 'text/plain',
          size_bytes: 5,
          url: `${link.url}/${files.amp.uuid}`,
          updated_at: at,
        },
        {
          uuid: files.script.uuid,
          name: 'z<img src=x onerror=alert(1)>.txt',
          content_type: 'text/html',
          size_bytes: 1,
          url: `${link.url}/${files.script.uuid}`,
          updated_at: at,
        },
      ],
      truncated: false,
    });
  });

  it('serves files and folders anywhere below it: a nested file downloads, a nested folder lists with a way up', async () => {
    const { sub, deeper, files, deepBytes, link } = await sharedTree();
    const from = freshAddress();
    const deep = await visit(`${link.url}/${files.deep.uuid}`, { from });
    expect(deep.status).toBe(200);
    expect(deep.headers['content-disposition']).toBe(
      `attachment; filename="deep.txt"; filename*=UTF-8''deep.txt`,
    );
    expect(deep.body.equals(deepBytes)).toBe(true);

    const listing = JSON.parse(
      (await visit(`${link.url}/${deeper}`, { from, accept: 'application/json' })).text,
    );
    expect(listing).toMatchObject({
      uuid: deeper,
      url: `${link.url}/${deeper}`,
      parent_url: `${link.url}/${sub}`,
      folders: [],
      files: [{ uuid: files.deep.uuid }],
    });
    expect(
      JSON.parse((await visit(`${link.url}/${sub}`, { from, accept: 'application/json' })).text),
    ).toMatchObject({ parent_url: link.url });
    const subPage = await visit(`${link.url}/${sub}`, { from });
    expect(subPage.text).toContain(`<a href="${link.url}">Up one folder</a>`);
    expect((await visit(`${link.url}/${files.script.uuid}`, { from })).text).toBe('x');
  });

  it('refuses with the same 404 as an unknown link: items outside the folder, trashed or uploading ones inside, items below a file link', async () => {
    const { owner, files, uploading, link } = await sharedTree();
    const from = freshAddress();
    const unknown = await refusal(`${config().publicUrl}/s/${randomBytes(24).toString('base64url')}`, from);
    expect(unknown.status).toEqual([404, 404]);
    expect(unknown.json).toEqual({
      error: 'not_found',
      error_description: 'This link does not exist or no longer shares anything.',
    });
    expect(await refusal(`${link.url}/${files.outside.uuid}`, from)).toEqual(unknown);
    expect(await refusal(`${link.url}/${files.trashed.uuid}`, from)).toEqual(unknown);
    expect(await refusal(`${link.url}/${uploading.fileUuid}`, from)).toEqual(unknown);
    const fileLink = await linkTo('file', files.amp.uuid);
    expect(await refusal(`${fileLink.url}/${files.sub.uuid}`, from)).toEqual(unknown);

    // Moved out of the shared folder: out of reach at once.
    expect((await visit(`${link.url}/${files.sub.uuid}`, { from })).status).toBe(200);
    expect(
      (
        await call('POST', `/v1/drive/files/${files.sub.uuid}`, {
          token: owner.token,
          json: { folder_uuid: null },
        })
      ).status,
    ).toBe(200);
    expect(await refusal(`${link.url}/${files.sub.uuid}`, from)).toEqual(unknown);
  });

  it('stops serving the whole folder when it or an ancestor is trashed, and serves it again once restored', async () => {
    const owner = await makeUser();
    const top = await makeFolder(owner, 'Top');
    const shared = await makeFolder(owner, 'Shared', top);
    const inside = await simpleUpload(owner, 'inside.txt', Buffer.from('inside'), { folder_uuid: shared });
    const link = await linkTo('folder', shared);
    const from = freshAddress();
    const unknown = await refusal(`${config().publicUrl}/s/${randomBytes(24).toString('base64url')}`, from);
    const nested = `${link.url}/${inside.uuid}`;

    await trash(owner, 'folders', shared);
    expect(await refusal(link.url, from)).toEqual(unknown);
    expect(await refusal(nested, from)).toEqual(unknown);
    await restore(owner, 'folders', shared);
    expect((await visit(link.url, { from })).status).toBe(200);
    expect((await visit(nested, { from })).text).toBe('inside');

    await trash(owner, 'folders', top);
    expect(await refusal(link.url, from)).toEqual(unknown);
    expect(await refusal(nested, from)).toEqual(unknown);
    await restore(owner, 'folders', top);
    expect((await visit(nested, { from })).text).toBe('inside');
  });
});

describe('the life of a link', () => {
  it(
    'a trashed file answers 404 until it is restored; a removed link answers 404 for good, and a new link gets a new url',
    { timeout: 300_000 },
    async () => {
      const owner = await makeUser();
      const file = await simpleUpload(owner, 'notes.txt', Buffer.from('my notes'), {
        content_type: 'text/plain',
      });
      const link = await folio('share', 'link', '--file', file.uuid);
      const from = freshAddress();
      const unknown = await refusal(`${config().publicUrl}/s/${randomBytes(24).toString('base64url')}`, from);
      expect((await visit(link.url, { from })).text).toBe('my notes');

      await trash(owner, 'files', file.uuid);
      expect(await refusal(link.url, from)).toEqual(unknown);
      await restore(owner, 'files', file.uuid);
      expect((await visit(link.url, { from })).text).toBe('my notes');

      const before = (await call('GET', `/v1/drive/files/${file.uuid}`, { token: owner.token })).body;
      expect(before.shared).toBe(true);
      expect(await folio('share', 'unlink', '--file', file.uuid)).toEqual({ removed: link });
      expect(await refusal(link.url, from)).toEqual(unknown);
      const after = (await call('GET', `/v1/drive/files/${file.uuid}`, { token: owner.token })).body;
      expect(after).toMatchObject({ shared: false, version: before.version + 1 });
      expect(
        (await call('GET', `/v1/drive/files/${file.uuid}/sharing`, { token: owner.token })).body.public_link,
      ).toBeNull();
      expect(
        await db().transaction((tx) =>
          removePublicLink(tx, { itemUuid: file.uuid, kind: 'file' }, linkKeys()),
        ),
      ).toBeNull();

      const again = await linkTo('file', file.uuid);
      expect(again.token).not.toBe(link.token);
      expect(await refusal(link.url, from)).toEqual(unknown);
      expect((await visit(again.url, { from })).text).toBe('my notes');
    },
  );

  it('answers malformed tokens and item ids with the same 404, needs no credential and stays read-only', async () => {
    const owner = await makeUser();
    const file = await simpleUpload(owner, 'a.txt', Buffer.from('a'));
    const folder = await makeFolder(owner, 'F');
    const link = await linkTo('folder', folder);
    const from = freshAddress();
    const base = config().publicUrl;
    const unknown = await refusal(`${base}/s/${randomBytes(24).toString('base64url')}`, from);
    for (const url of [
      `${base}/s/short`,
      `${base}/s/${link.token}x`,
      `${base}/s/${'%00'.repeat(32)}`,
      `${link.url}/not-a-uuid`,
      `${base}/s/${link.token.toUpperCase()}`,
    ]) {
      expect(await refusal(url, from)).toEqual(unknown);
    }
    // The token of one link never opens another's items, nor the API.
    expect(await refusal(`${link.url}/${file.uuid}`, from)).toEqual(unknown);
    expect(
      (
        await call('GET', `/v1/drive/folders/${folder}`, {
          headers: { authorization: `Bearer ${link.token}` },
        })
      ).status,
    ).toBe(401);
    const post = await new Promise<{ status: number; allow: unknown }>((resolve, reject) => {
      const req = request(link.url, { method: 'POST', localAddress: from }, (res) => {
        res.resume();
        resolve({ status: res.statusCode!, allow: res.headers.allow });
      });
      req.on('error', reject);
      req.end();
    });
    // No route writes through a link: a link's path takes GET and HEAD only, whatever the token.
    expect(post).toEqual({ status: 405, allow: 'GET, HEAD' });
    expect((await call('GET', `/v1/drive/folders/${folder}`, { token: owner.token })).body.name).toBe('F');
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once one client address passes its limit, whatever the tokens, and not to other addresses', async () => {
    const owner = await makeUser();
    const link = await linkTo('folder', await makeFolder(owner, 'Popular'));
    const from = freshAddress();
    const perIp = 40; // FOLIO_PUBLIC_LINK_RATE_PER_IP in test/setup/global.ts
    expect((await visit(link.url, { from })).status).toBe(200);
    // A guesser's requests count: each is a token that does not exist.
    for (let n = 1; n < perIp; n++)
      expect(
        (await visit(`${config().publicUrl}/s/${randomBytes(24).toString('base64url')}`, { from })).status,
      ).toBe(404);
    const limited = await visit(link.url, { from, accept: 'application/json' });
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text)).toMatchObject({ error: 'too_many_requests' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 24 * 3600).toBe(true);
    expectStrictPageHeaders(limited.headers);
    expect((await visit(link.url, { from })).status).toBe(429); // A browser's page says the same.
    expect((await visit(link.url, { from: freshAddress() })).status).toBe(200);
  });

  it('answers 429 with Retry-After once one link passes its limit, from any address, while other links still answer', async () => {
    const owner = await makeUser();
    const folder = await makeFolder(owner, 'Viral');
    const link = await linkTo('folder', folder);
    const other = await linkTo('folder', await makeFolder(owner, 'Quiet'));
    const perToken = 15; // FOLIO_PUBLIC_LINK_RATE_PER_TOKEN in test/setup/global.ts
    const from = freshAddress();
    for (let n = 0; n < perToken; n++)
      expect((await visit(link.url, { from: n % 2 ? from : freshAddress() })).status).toBe(200);
    const limited = await visit(link.url, { from: freshAddress() });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await visit(`${link.url}/${folder}`, { from: freshAddress() })).status).toBe(429);
    expect((await visit(other.url, { from })).status).toBe(200);
  });
});
