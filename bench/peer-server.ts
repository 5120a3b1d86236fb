// The peers of the request benchmarks (issue 24): a Koa app in a process of its own, like the API, doing the least
// work the same request needs, through the same pg pool settings (platform/database.ts) and the same MinIO:
// - bare read: GET /files/:uuid, one indexed SELECT of the item with its owner's names, answered as the same JSON object;
// - bare list: GET /files?folder_uuid=, one SELECT of the folder's items, answered as the same list envelope;
// - bare write: POST /files with the same 1 KB JSON body, the bytes PUT to the bucket and one row INSERTed.
// No authentication, roles, validation, encryption, logging or metrics: what is left is PostgreSQL, MinIO, Koa and Node.
//
//   FOLIO_DATABASE_URL=… FOLIO_S3_ENDPOINT=… FOLIO_S3_ACCESS_KEY=… FOLIO_S3_SECRET_KEY=… FOLIO_S3_BUCKET=… \
//     node --import tsx bench/peer-server.ts PORT
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { createDb } from '../platform/database.js';
import { createStorage } from '../platform/storage.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const knex = createDb(env('FOLIO_DATABASE_URL'));
const storage = createStorage({
  endpoint: env('FOLIO_S3_ENDPOINT'),
  accessKey: env('FOLIO_S3_ACCESS_KEY'),
  secretKey: env('FOLIO_S3_SECRET_KEY'),
  region: process.env.FOLIO_S3_REGION ?? 'us-east-1',
  bucket: env('FOLIO_S3_BUCKET'),
});
const bucket = env('FOLIO_S3_BUCKET');

interface Row {
  uuid: string;
  kind: string;
  parent_uuid: string | null;
  name: string;
  content_type: string | null;
  file_size_bytes: string | null;
  upload_status: string | null;
  color: string | null;
  trashed: boolean;
  has_preview: boolean;
  version: number;
  ctag: number;
  created_at: Date;
  updated_at: Date;
  first_name: string | null;
  last_name: string | null;
}

const SELECT = `select i.uuid, i.kind, i.parent_uuid, i.name, i.content_type, i.file_size_bytes, i.upload_status,
  i.color, i.trashed, i.has_preview, i.version, i.ctag, i.created_at, i.updated_at, u.first_name, u.last_name
  from drive_items i join users u on u.uuid = i.owner_uuid`;

const owner = (row: Row) => ({
  self: true,
  first_name: row.first_name,
  last_name: row.last_name,
  display_name: [row.first_name, row.last_name].filter(Boolean).join(' ') || null,
});

const file = (row: Row) => ({
  object: 'drive_file',
  uuid: row.uuid,
  folder_uuid: row.parent_uuid,
  name: row.name,
  content_type: row.content_type,
  file_size_bytes: Number(row.file_size_bytes ?? 0),
  upload_status: row.upload_status,
  trashed: row.trashed,
  has_preview: row.has_preview,
  version: row.version,
  ctag: row.ctag,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  my_role: 'owner',
  shared: false,
  owner: owner(row),
  content_hash: null,
});

const folder = (row: Row) => ({
  object: 'drive_folder',
  uuid: row.uuid,
  parent_uuid: row.parent_uuid,
  name: row.name,
  color: row.color,
  trashed: row.trashed,
  version: row.version,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  my_role: 'owner',
  shared: false,
  owner: owner(row),
});

async function readBody(req: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const app = new Koa();
app.use(async (ctx) => {
  const itemMatch = /^\/files\/([0-9a-f-]{36})$/.exec(ctx.path);
  if (ctx.method === 'GET' && itemMatch) {
    const { rows } = await knex.raw<{ rows: Row[] }>(`${SELECT} where i.uuid = ?`, [itemMatch[1]!]);
    const row = rows[0];
    if (row) ctx.body = file(row);
    else ctx.status = 404;
  } else if (ctx.method === 'GET' && ctx.path === '/files') {
    const folderUuid = String(ctx.query.folder_uuid);
    const { rows } = await knex.raw<{ rows: Row[] }>(
      `${SELECT} where i.parent_uuid = ? and not i.trashed order by i.kind desc, i.name`,
      [folderUuid],
    );
    ctx.body = {
      object: 'list',
      url: '/v1/drive/files',
      folder_uuid: folderUuid,
      folders: rows.filter((row) => row.kind === 'folder').map(folder),
      files: rows.filter((row) => row.kind === 'file').map(file),
    };
  } else if (ctx.method === 'POST' && ctx.path === '/files') {
    const body = JSON.parse(await readBody(ctx.req)) as { name: string; content_type: string; data: string };
    const bytes = Buffer.from(body.data, 'base64');
    const uuid = randomUUID();
    await storage.putObject(bucket, `bench-peer/${uuid}`, bytes, bytes.length);
    await knex('bench_peer_files').insert({
      uuid,
      name: body.name,
      content_type: body.content_type,
      size: bytes.length,
    });
    ctx.status = 201;
    ctx.body = { object: 'drive_file', uuid, name: body.name, file_size_bytes: bytes.length };
  } else {
    ctx.throw(404);
  }
});

async function main() {
  await knex.raw(`create table if not exists bench_peer_files (
    uuid uuid primary key, name text not null, content_type text, size bigint not null,
    created_at timestamptz not null default now())`);
  const server = app.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('listening\n'));
  server.keepAliveTimeout = 65_000;
  process.on('SIGTERM', () => server.close(() => void knex.destroy().then(() => process.exit(0))));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
