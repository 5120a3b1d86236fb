// Any input, no 5xx: fast-check generates requests across every Drive and Documents route with bad path params,
// queries and bodies (wrong types, NUL characters, malformed uuids, huge strings, out-of-range numbers), sends them,
// and asserts that none answers 5xx and that a batch of refused writes changed no row of the workspace. Then hostile
// sizes (docs/fuzzing.md § Bounded input) on every route with a body or a query, each timed against /readyz.
// FOLIO_FUZZ_RUNS (default 10,000) and FOLIO_FUZZ_SEED replay or enlarge a run; bench/fuzz.ts runs 10^5 on demand.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { call, makeDocument, makeFolder, makeUser, type TestUser } from '../../support/api.js';
import {
  HOSTILE_VALUES,
  bodyWith,
  manyKeysBody,
  nestedArrays,
  sendJson,
  whileTimingReadyz,
} from '../../support/hostile-input.js';

const RUNS = Number(process.env.FOLIO_FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FOLIO_FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 8;
const BATCH = 200;

type Field = 'string' | 'uuid' | 'uuid?' | 'bool' | 'int' | 'color' | 'operations' | 'parts' | 'ints' | 'any';

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** :file, :folder, :document, :thread, :message and :attachment are filled from real ids or bad ones. */
  path: string;
  query?: Record<string, Field>;
  body?: Record<string, Field>;
}

const ROUTES: Route[] = [
  { method: 'GET', path: '/v1/drive/files', query: { folder_uuid: 'uuid' } },
  { method: 'GET', path: '/v1/drive/trash' },
  { method: 'GET', path: '/v1/drive/changes', query: { since: 'string', limit: 'int' } },
  { method: 'GET', path: '/v1/drive/files/:file' },
  {
    method: 'POST',
    path: '/v1/drive/files/:file',
    body: { name: 'string', folder_uuid: 'uuid?', trashed: 'bool' },
  },
  {
    method: 'POST',
    path: '/v1/drive/files',
    body: { name: 'string', content_type: 'string', data: 'string', folder_uuid: 'uuid?' },
  },
  { method: 'GET', path: '/v1/drive/files/:file/download' },
  { method: 'GET', path: '/v1/drive/files/:file/download_init' },
  { method: 'GET', path: '/v1/drive/files/:file/sharing' },
  { method: 'POST', path: '/v1/drive/files/:file/trash' },
  { method: 'DELETE', path: '/v1/drive/files/:file' },
  {
    method: 'POST',
    path: '/v1/drive/files/:file/replace',
    body: { plaintext_size_bytes: 'int', content_type: 'string' },
  },
  { method: 'POST', path: '/v1/drive/files/:file/replace/part_urls', body: { part_numbers: 'ints' } },
  { method: 'POST', path: '/v1/drive/files/:file/replace/complete', body: { parts: 'parts' } },
  { method: 'POST', path: '/v1/drive/files/:file/replace/abort' },
  {
    method: 'POST',
    path: '/v1/drive/uploads',
    body: { name: 'string', content_type: 'string', plaintext_size_bytes: 'int', folder_uuid: 'uuid?' },
  },
  { method: 'POST', path: '/v1/drive/uploads/:file/part_urls', body: { part_numbers: 'ints' } },
  { method: 'POST', path: '/v1/drive/uploads/:file/complete', body: { parts: 'parts' } },
  { method: 'POST', path: '/v1/drive/uploads/:file/abort' },
  {
    method: 'POST',
    path: '/v1/drive/folders',
    body: { name: 'string', parent_uuid: 'uuid?', color: 'color' },
  },
  { method: 'GET', path: '/v1/drive/folders/:folder' },
  {
    method: 'POST',
    path: '/v1/drive/folders/:folder',
    body: { name: 'string', parent_uuid: 'uuid?', color: 'color', trashed: 'bool' },
  },
  { method: 'GET', path: '/v1/drive/folders/:folder/sharing' },
  { method: 'POST', path: '/v1/drive/folders/:folder/trash' },
  { method: 'DELETE', path: '/v1/drive/folders/:folder' },
  { method: 'GET', path: '/v1/documents', query: { q: 'string', limit: 'int', cursor: 'string' } },
  { method: 'GET', path: '/v1/documents/trash', query: { q: 'string', limit: 'int', cursor: 'string' } },
  { method: 'POST', path: '/v1/documents', body: { title: 'string' } },
  { method: 'GET', path: '/v1/documents/:document' },
  { method: 'POST', path: '/v1/documents/:document', body: { title: 'string', trashed: 'bool' } },
  { method: 'POST', path: '/v1/documents/:document/trash' },
  { method: 'GET', path: '/v1/documents/:document/content', query: { format: 'string' } },
  {
    method: 'POST',
    path: '/v1/documents/:document/content',
    body: { operations: 'operations', base_revision: 'int', batch_id: 'string', mode: 'string' },
  },
  {
    method: 'POST',
    path: '/v1/documents/:document/suggestions',
    body: { operations: 'operations', base_revision: 'int', batch_id: 'string' },
  },
  { method: 'POST', path: '/v1/documents/:document/suggestions/:thread/accept' },
  { method: 'POST', path: '/v1/documents/:document/suggestions/:thread/reject' },
  { method: 'DELETE', path: '/v1/documents/:document/suggestions/:thread' },
  {
    method: 'POST',
    path: '/v1/documents/:document/comments',
    body: { body: 'string', on: 'string', occurrence: 'any', before: 'string', after: 'string' },
  },
  { method: 'POST', path: '/v1/documents/:document/comments/:thread/replies', body: { body: 'string' } },
  { method: 'POST', path: '/v1/documents/:document/comments/:thread', body: { status: 'string' } },
  {
    method: 'POST',
    path: '/v1/documents/:document/comments/:thread/messages/:message',
    body: { body: 'string' },
  },
  { method: 'DELETE', path: '/v1/documents/:document/comments/:thread' },
  { method: 'DELETE', path: '/v1/documents/:document/comments/:thread/messages/:message' },
  { method: 'GET', path: '/v1/documents/:document/attachments/:attachment' },
  { method: 'GET', path: '/v1/documents/:document/attachments/:attachment/download' },
];

/** Strings no route should take: NUL and other control characters, malformed ids, huge, odd unicode. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'a\u0000b',
    '\u0000',
    'nope',
    '../..',
    '%00',
    "'; drop table drive_items; --",
    '\ud800',
    'a'.repeat(100_000),
  ),
  fc.string({ maxLength: 40 }).map((text) => `${text}\u0000`),
  fc.string({ unit: 'binary', maxLength: 60 }),
);
const hostileUuid = fc.oneof(
  fc.constantFrom(
    'not-a-uuid',
    'nope',
    '',
    '00000000-0000-0000-0000-00000000000g',
    'ffffffff-ffff-ffff-ffff-fffffffffffff',
    '{}',
    '1',
  ),
  fc.string({ maxLength: 40 }),
  fc.uuid().map((uuid) => `${uuid}\u0000`),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 1e308, -1e308, 2 ** 63, 2 ** 64, 0.5, Number.MAX_SAFE_INTEGER + 2),
  fc.double(),
);
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileString,
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
);

/** A value that breaks the field's contract (never a valid one). */
function badValue(field: Field): fc.Arbitrary<unknown> {
  switch (field) {
    case 'uuid':
    case 'uuid?':
      return fc.oneof(hostileUuid, fc.boolean(), hostileNumber, fc.array(fc.uuid(), { maxLength: 2 }));
    case 'bool':
      return fc.oneof(fc.constantFrom('true', 'false', 0, 1), hostileString, hostileNumber);
    case 'int':
      return fc.oneof(hostileNumber, hostileString, fc.constantFrom('10', '1e3'));
    case 'ints':
      return fc.oneof(
        wrongType,
        fc.array(fc.oneof(hostileNumber, hostileString), { minLength: 1, maxLength: 5 }),
        fc.array(fc.constant(1), { minLength: 1001, maxLength: 1001 }),
      );
    case 'parts':
      return fc.oneof(
        wrongType,
        fc.array(
          fc.record({
            part_number: fc.oneof(hostileNumber, hostileString),
            etag: fc.oneof(hostileString, hostileNumber),
          }),
          { minLength: 1, maxLength: 4 },
        ),
      );
    case 'operations':
      return fc.oneof(
        wrongType,
        fc.array(
          fc.oneof(
            wrongType,
            fc.record({
              type: fc.oneof(hostileString, fc.constantFrom('replace', 'insert', 'delete', 'set_document')),
              on: fc.oneof(hostileString, hostileNumber),
              markdown: fc.oneof(hostileString, hostileNumber, fc.constant('{++'.repeat(20_000))),
              occurrence: wrongType,
            }),
          ),
          { minLength: 0, maxLength: 4 },
        ),
      );
    case 'color':
      return fc.oneof(hostileString, hostileNumber, fc.constantFrom('#12345', '#GGGGGG', 'red', '#1234567'));
    default:
      return fc.oneof(wrongType, hostileString);
  }
}

interface Ids {
  file: string;
  folder: string;
  document: string;
  thread: string;
  message: string;
  attachment: string;
}

interface Request {
  method: Route['method'];
  path: string;
  query: string;
  body: unknown;
  /** True when the request carries at least one value no route accepts, so it must be refused. */
  mustRefuse: boolean;
}

function requestArbitrary(ids: Ids): fc.Arbitrary<Request> {
  const real = (name: keyof Ids) => fc.oneof(fc.constant(ids[name]), fc.uuid());
  return fc.constantFrom(...ROUTES).chain((route) => {
    const params = [...route.path.matchAll(/:([a-z]+)/g)].map((match) => match[1] as keyof Ids);
    // A bodiless write (trash, delete, accept) on a real id would be accepted and start background work (a cascade,
    // a purge) that changes rows while later batches are measured, so those only ever name unknown or malformed ids.
    const bodilessWrite = route.method !== 'GET' && !route.body;
    const paramValues = fc.tuple(
      ...params.map((name) =>
        bodilessWrite
          ? fc.oneof(fc.uuid(), hostileUuid)
          : fc.oneof({ weight: 3, arbitrary: real(name) }, { weight: 2, arbitrary: hostileUuid }),
      ),
    );
    const queryFields = Object.entries(route.query ?? {});
    const queryValues = fc.array(
      fc.tuple(
        fc.constantFrom(...(queryFields.length ? queryFields : [['x', 'string' as Field]])),
        fc.oneof(hostileString, hostileUuid, hostileNumber.map(String)),
      ),
      { maxLength: 3 },
    );
    const bodyFields = Object.entries(route.body ?? {});
    const body: fc.Arbitrary<{ body: unknown; bad: boolean }> = bodyFields.length
      ? fc.oneof(
          // One or more known fields with values that break their contract, beside valid-looking others.
          fc
            .tuple(
              fc.subarray(bodyFields, { minLength: 1 }),
              fc.dictionary(fc.constantFrom(...bodyFields.map(([key]) => key)), fc.constant('ok'), {
                maxKeys: 2,
              }),
            )
            .chain(([broken, rest]) =>
              fc
                .tuple(
                  ...broken.map(([key, field]) =>
                    badValue(field as Field).map((value) => [key, value] as const),
                  ),
                )
                .map((pairs) => ({ body: { ...rest, ...Object.fromEntries(pairs) }, bad: false })),
            ),
          // Bodies that are not objects at all.
          fc
            .oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.string(), fc.integer(), fc.constant(null))
            .map((value) => ({ body: value, bad: value !== null })),
        )
      : fc.constant({ body: undefined, bad: false });
    return fc.tuple(paramValues, queryValues, body).map(([values, query, generated]) => {
      let path = route.path;
      params.forEach(
        (name, index) => (path = path.replace(`:${name}`, encodeURIComponent(values[index] as string))),
      );
      const search = new URLSearchParams(query.map(([[key], value]) => [key!, value] as [string, string]));
      // An empty or dot segment changes which route the path names (the URL is normalised), so it proves nothing.
      const changesRoute = (value: string) => value === '' || value === '.' || value === '..';
      const badParam = params.some((name, index) => {
        const value = values[index] as string;
        return (
          value !== ids[name] &&
          !changesRoute(value) &&
          !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)
        );
      });
      return {
        method: route.method,
        path,
        query: search.toString(),
        body: generated.body,
        mustRefuse: generated.bad || badParam,
      };
    });
  });
}

/** A digest of every row that belongs to the workspace, table by table. */
async function workspaceDigest(workspaceUuid: string): Promise<Record<string, string>> {
  const columns = (await db()('information_schema.columns')
    .where({ table_schema: 'public' })
    .whereIn('column_name', ['workspace_uuid', 'document_uuid', 'thread_uuid'])
    .select('table_name', 'column_name')) as { table_name: string; column_name: string }[];
  const filters = new Map<string, string>();
  for (const { table_name: table, column_name: column } of columns) {
    if (['access_tokens', 'workflow_outbox'].includes(table)) continue;
    const filter =
      column === 'workspace_uuid'
        ? `t.workspace_uuid = :ws`
        : column === 'document_uuid'
          ? `t.document_uuid in (select uuid from documents where workspace_uuid = :ws)`
          : `t.thread_uuid in (select th.uuid from document_threads th join documents d on d.uuid = th.document_uuid where d.workspace_uuid = :ws)`;
    if (!filters.has(table) || column === 'workspace_uuid') filters.set(table, filter);
  }
  const digest: Record<string, string> = {};
  for (const [table, filter] of filters) {
    const { rows } = await db().raw(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${table}" t where ${filter}`,
      { ws: workspaceUuid },
    );
    digest[table] = rows[0].digest;
  }
  return digest;
}

/**
 * A request line past Node's 16 KB limit: Node answers 431 and closes the connection before routing, and a client
 * still writing the line may see the reset instead of the answer. Either is the refusal; a reset reads as status 0.
 */
async function refusedBeforeRouting(
  sent: Promise<{ status: number; body: any }>,
): Promise<{ status: number; body: any }> {
  try {
    return await sent;
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNRESET' || code === 'EPIPE')
      return { status: 0, body: `connection closed by the server (${code})` };
    throw error;
  }
}

describe('any input, no 5xx', () => {
  let owner: TestUser;
  let ids: Ids;

  beforeAll(async () => {
    owner = await makeUser();
    const folder = await makeFolder(owner, 'fuzz');
    const file = await call('POST', '/v1/drive/files', {
      token: owner.token,
      json: {
        name: 'f.txt',
        content_type: 'text/plain',
        data: Buffer.from('hello').toString('base64'),
        folder_uuid: folder,
      },
    });
    const document = await makeDocument(owner, { title: 'fuzz', markdown: 'Hello world, every word here.' });
    const comment = await call('POST', `/v1/documents/${document.uuid}/comments`, {
      token: owner.token,
      json: { body: 'a note', on: 'world' },
    });
    ids = {
      file: file.body.uuid,
      folder,
      document: document.uuid,
      thread: comment.body.uuid,
      message: comment.body.messages?.[0]?.uuid ?? randomUUID(),
      attachment: randomUUID(),
    };
  });

  it(
    `answers ${RUNS} generated bad requests with 4xx and changes nothing when it refuses (seed ${SEED})`,
    { timeout: 600_000 },
    async () => {
      const requests = fc.sample(requestArbitrary(ids), { numRuns: RUNS, seed: SEED });
      const failures: string[] = [];
      for (let start = 0; start < requests.length; start += BATCH) {
        const batch = requests.slice(start, start + BATCH);
        const before = await workspaceDigest(owner.workspaceUuid);
        let wroteSomething = false;
        for (let index = 0; index < batch.length; index += CONCURRENCY) {
          await Promise.all(
            batch.slice(index, index + CONCURRENCY).map(async (request) => {
              const path = request.query ? `${request.path}?${request.query}` : request.path;
              const response = await call(request.method, path, {
                token: owner.token,
                ...(request.body === undefined || request.method === 'GET' ? {} : { json: request.body }),
              });
              const shown = `${request.method} ${path.slice(0, 200)} ${JSON.stringify(request.body)?.slice(0, 300)} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
              if (response.status >= 500) failures.push(shown);
              else if (request.mustRefuse && response.status < 400) failures.push(`accepted: ${shown}`);
              if (request.method !== 'GET' && response.status < 400) wroteSomething = true;
            }),
          );
        }
        if (!wroteSomething) {
          const after = await workspaceDigest(owner.workspaceUuid);
          const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
          if (changed.length)
            failures.push(
              `a batch of refused requests changed ${changed.join(', ')} (requests ${start}..${start + batch.length - 1})`,
            );
        }
        if (failures.length > 20) break;
      }
      expect(failures, `seed ${SEED}; replay with FOLIO_FUZZ_SEED=${SEED}`).toEqual([]);
    },
  );

  it(
    'answers hostile sizes on every route that takes a body or a query with 4xx or 2xx, /readyz answering within 1 s alongside each',
    { timeout: 600_000 },
    async () => {
      const fill = (path: string) => path.replace(/:([a-z]+)/g, (_, name: keyof Ids) => ids[name]);
      const cases: {
        route: string;
        send: (api: string) => Promise<{ status: number; body: any }>;
        tooDeep?: boolean;
      }[] = [];
      for (const route of ROUTES) {
        const path = fill(route.path);
        const [field] = Object.keys(route.body ?? {});
        if (field) {
          for (const value of HOSTILE_VALUES) {
            const body = bodyWith(field, value.text());
            cases.push({
              route: `${route.method} ${route.path} ${field}: ${value.name}`,
              send: (api) => sendJson(api, route.method, path, owner.token, body),
              tooDeep: value.tooDeep,
            });
          }
          const wide = manyKeysBody();
          cases.push({
            route: `${route.method} ${route.path}: a body of 100,000 keys`,
            send: (api) => sendJson(api, route.method, path, owner.token, wide),
          });
        }
        for (const name of Object.keys(route.query ?? {})) {
          // Node refuses a request line past 16 KB with 431 before it is routed; within it, a long value and a repeated key.
          const queries = [
            `${name}=${'a'.repeat(8_000)}`,
            Array(1_000).fill(`${name}=1`).join('&'),
            `${name}=${'a'.repeat(1_000_000)}`,
          ];
          if (name === 'cursor')
            queries.push(`cursor=${Buffer.from(nestedArrays(5_000)).toString('base64url')}`);
          for (const query of queries) {
            cases.push({
              route: `GET ${route.path}?${query.slice(0, 40)}… (${query.length} characters)`,
              send: (api) =>
                query.length > 16_384
                  ? refusedBeforeRouting(call('GET', `${path}?${query}`, { api, token: owner.token }))
                  : call('GET', `${path}?${query}`, { api, token: owner.token }),
            });
          }
        }
      }
      const failures: string[] = [];
      for (const hostile of cases) {
        const { result, slowestReadyMs } = await whileTimingReadyz(hostile.send);
        if (result.status >= 500)
          failures.push(`${hostile.route} → ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`);
        if (hostile.tooDeep && (result.status !== 400 || result.body.error !== 'invalid_body'))
          failures.push(`${hostile.route} → ${result.status}, not 400 invalid_body`);
        if (slowestReadyMs >= 1_000)
          failures.push(`${hostile.route}: /readyz took ${Math.round(slowestReadyMs)} ms alongside it`);
      }
      expect(cases.length).toBeGreaterThan(100);
      expect(failures).toEqual([]);
    },
  );
});
