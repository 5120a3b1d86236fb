// Measures the trash, restore and permanent-delete cascades over a folder of about 100,000 items on an
// ephemeral stack (the integration suite's: fresh PostgreSQL database, in-memory Temporal, MinIO, worker, API).
// Run: node --import tsx bench/trash-cascade.ts [items per leaf folder, default 99]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

if (process.argv[2] !== '--measure') {
  // The stack first, in this process; the measurement in a child, so its configuration is read from the stack's env.
  const { default: setup } = await import('../test/setup/global.js');
  // FOLIO_BENCH_CPU_PROF: the stack's processes, started with this environment, write CPU profiles (bench/support.ts).
  Object.assign(process.env, (await import('./support.js')).profileEnv());
  let env: Record<string, string> = {};
  const teardown = await setup({
    provide: (_key: string, value: Record<string, string>) => (env = value),
  } as never);
  try {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', here, '--measure', process.argv[2] ?? '99'],
      {
        env: { ...process.env, ...env, FOLIO_LOG_LEVEL: 'warn' },
        stdio: 'inherit',
      },
    );
    process.exitCode = child.status ?? 1;
  } finally {
    await teardown();
  }
} else {
  await measure(Number(process.argv[3]));
}

async function measure(filesPerLeaf: number) {
  const { db, closeDb } = await import('../platform/database.js');
  const { closeTemporalClient } = await import('../platform/temporal.js');
  const { call, makeUser } = await import('../test/support/api.js');
  const { settle } = await import('../test/support/cascades.js');

  const user = await makeUser();
  const created = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Bench' } });
  const root: string = created.body.uuid;
  const insert = async (
    parents: string[],
    kind: 'file' | 'folder',
    count: number,
    depth: number,
  ): Promise<string[]> => {
    const { rows } = await db().raw(
      `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
       select ?, ?, ?, p.uuid, ? || n, ?, ?, ?, ? from unnest(?::uuid[]) as p(uuid), generate_series(1, ?) n returning uuid`,
      [
        user.workspaceUuid,
        user.uuid,
        kind,
        kind,
        kind === 'file' ? 'text/plain' : null,
        kind === 'file' ? 1 : null,
        kind === 'file' ? 'completed' : null,
        depth,
        `{${parents.join(',')}}`,
        count,
      ],
    );
    return rows.map((row: { uuid: string }) => row.uuid);
  };
  const level1 = await insert([root], 'folder', 100, 1);
  const level2 = await insert(level1, 'folder', 10, 2);
  const files = await insert(level2, 'file', filesPerLeaf, 3);
  const items = level1.length + level2.length + files.length;
  await db().raw('analyze drive_items');

  const run = async (label: string, method: string, path: string, json?: unknown) => {
    const started = performance.now();
    const response = await call(method, path, { token: user.token, json });
    if (response.status >= 300)
      throw new Error(`${label}: ${response.status} ${JSON.stringify(response.body)}`);
    const result = await settle(root);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${label}: ${result.itemsChanged} items in ${seconds.toFixed(1)} s = ${Math.round(result.itemsChanged / seconds)} items/s (${result.outcome})`,
    );
  };
  console.log(`tree: ${items} descendants (100 folders, 1,000 subfolders, ${files.length} files)`);
  await run('trash cascade', 'POST', `/v1/drive/folders/${root}/trash`);
  await run('restore cascade', 'POST', `/v1/drive/folders/${root}`, { trashed: false });
  await run('delete cascade', 'DELETE', `/v1/drive/folders/${root}`);
  await closeTemporalClient();
  await closeDb();
}
