// Crash tests of the trash and delete cascades: the worker is killed (SIGKILL) mid-cascade, after its first
// batch committed, and a new worker finishes the job with every item changed exactly once.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { bucket, storage } from '../../../platform/storage.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import { call, makeUser, type TestUser, makeFolder } from '../../support/api.js';
import { settle, waitUntil } from '../../support/cascades.js';
import { killWorker, startWorkerAgain } from '../../support/worker.js';

afterAll(closeTemporalClient);

/** Inserts `count` children of each parent straight into the table (version 1, no change rows); returns them. */
async function insertChildren(
  user: TestUser,
  parents: string[],
  kind: 'file' | 'folder',
  count: number,
  depth: number,
): Promise<string[]> {
  const { rows } = await db().raw(
    `insert into drive_items (workspace_uuid, owner_uuid, kind, parent_uuid, name, content_type, file_size_bytes, upload_status, depth)
     select ?, ?, ?, p.uuid, ? || n, ?, ?, ?, ? from unnest(?::uuid[]) as p(uuid), generate_series(1, ?) n
     returning uuid`,
    [
      user.workspaceUuid,
      user.uuid,
      kind,
      kind === 'file' ? 'file-' : 'folder-',
      kind === 'file' ? 'text/plain' : null,
      kind === 'file' ? 10 : null,
      kind === 'file' ? 'completed' : null,
      depth,
      `{${parents.join(',')}}`,
      count,
    ],
  );
  return rows.map((row: { uuid: string }) => row.uuid);
}

const count = async (query: Promise<{ n: string | number }[]>) => Number((await query)[0]!.n);
const lastSeq = async (): Promise<number> =>
  Number((await db()('drive_changes').max('seq as seq').first())?.seq ?? 0);

describe('a cascade survives its worker being killed', () => {
  it(
    'trashes a folder of 3,000 descendants, each exactly once, across a worker crash',
    { timeout: 180_000 },
    async () => {
      const user = await makeUser();
      const top = await makeFolder(user, 'Big');
      const inner = await makeFolder(user, 'Inner', top);
      const level1 = await insertChildren(user, [top], 'file', 600, 1);
      const level2 = await insertChildren(user, [inner], 'folder', 24, 2);
      const level3 = await insertChildren(user, level2, 'file', 100, 3);
      const descendants = [inner, ...level1, ...level2, ...level3];
      expect(descendants).toHaveLength(3025);
      const before = await lastSeq();
      // Holding one deep file keeps the cascade from finishing (its batch waits) while the worker is killed.
      const locker = await db().transaction();
      await locker.raw('select 1 from drive_items where uuid = ? for update', [level3[1234]!]);

      const response = await call('POST', `/v1/drive/folders/${top}/trash`, { token: user.token });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ uuid: top, trashed: true });
      const trashedSoFar = () =>
        count(db()('drive_items').where({ trashed_with: top }).whereNot({ uuid: top }).count('* as n'));
      await waitUntil(async () => (await trashedSoFar()) >= 500);

      killWorker();
      expect(await trashedSoFar()).toBeLessThan(descendants.length);
      await locker.rollback();
      startWorkerAgain();

      expect(await settle(top)).toEqual({ outcome: 'completed', itemsChanged: descendants.length });
      const states = await db()('drive_items')
        .whereIn('uuid', descendants)
        .select('trashed', 'trashed_with', 'version');
      expect(states).toHaveLength(descendants.length);
      expect(states.every((item) => item.trashed && item.trashed_with === top && item.version === 2)).toBe(
        true,
      );
      const changes = await db()('drive_changes')
        .where('seq', '>', before)
        .whereIn('item_uuid', descendants)
        .select('item_uuid', 'change_type', 'item_version');
      expect(changes).toHaveLength(descendants.length);
      expect(new Set(changes.map((change) => change.item_uuid)).size).toBe(descendants.length);
      // The version readers see: each row's own counter (2) plus Big's epoch (1).
      expect(changes.every((change) => change.change_type === 'update' && change.item_version === 3)).toBe(
        true,
      );
    },
  );

  it(
    'deletes a folder of 3,000 descendants, with their bytes, each exactly once, across a worker crash',
    { timeout: 180_000 },
    async () => {
      const user = await makeUser();
      const top = await makeFolder(user, 'Doomed');
      const level1 = await insertChildren(user, [top], 'folder', 10, 1);
      const level2 = await insertChildren(user, level1, 'folder', 100, 2);
      const files = await insertChildren(user, level2, 'file', 2, 3);
      const descendants = [...level1, ...level2, ...files];
      expect(descendants).toHaveLength(3010);
      const parentOf = new Map<string, string>(
        (await db()('drive_items').whereIn('uuid', descendants).select('uuid', 'parent_uuid')).map((row) => [
          row.uuid,
          row.parent_uuid,
        ]),
      );
      // Every file has a live version of 10 bytes; 50 of them have real objects in the bucket.
      await db().raw(
        `insert into drive_file_versions (uuid, file_uuid, workspace_uuid, status, wrapped_key, storage_key, content_type, plaintext_size_bytes, chunk_size_bytes, chunk_count)
       select f.uuid, f.uuid, ?, 'live', '\\x00'::bytea, 'drive/' || ? || '/' || f.uuid || '/' || f.uuid, 'text/plain', 10, 65536, 1
         from unnest(?::uuid[]) as f(uuid)`,
        [user.workspaceUuid, user.workspaceUuid, `{${files.join(',')}}`],
      );
      await db()('workspaces')
        .where({ uuid: user.workspaceUuid })
        .update({ storage_used_bytes: files.length * 10 });
      const sampled = files.slice(0, 50).map((uuid) => `drive/${user.workspaceUuid}/${uuid}/${uuid}`);
      for (const key of sampled) await storage().putObject(bucket(), key, Buffer.from(randomUUID()));
      const before = await lastSeq();
      // A key-share lock on one second-level folder lets every file go but holds that folder's removal.
      const locker = await db().transaction();
      await locker.raw('select 1 from drive_items where uuid = ? for key share', [level2[42]!]);

      const response = await call('DELETE', `/v1/drive/folders/${top}`, { token: user.token });
      expect(response.status).toBe(204);
      const remaining = () =>
        count(
          db()('drive_items')
            .whereIn('uuid', [top, ...descendants])
            .count('* as n'),
        );
      await waitUntil(async () => (await remaining()) <= descendants.length + 1 - 500);

      killWorker();
      expect(await remaining()).toBeGreaterThan(0);
      await locker.rollback();
      startWorkerAgain();

      expect(await settle(top)).toEqual({ outcome: 'completed', itemsChanged: descendants.length + 1 });
      expect(await remaining()).toBe(0);
      expect(await count(db()('drive_file_versions').whereIn('file_uuid', files).count('* as n'))).toBe(0);
      for (const key of sampled)
        await expect(storage().statObject(bucket(), key)).rejects.toMatchObject({ code: 'NotFound' });
      expect(
        Number((await db()('workspaces').where({ uuid: user.workspaceUuid }).first()).storage_used_bytes),
      ).toBe(0);
      const changes = await db()('drive_changes')
        .where('seq', '>', before)
        .whereIn('item_uuid', [top, ...descendants])
        .select('item_uuid', 'change_type', 'parent_uuid', 'item_version');
      expect(changes).toHaveLength(descendants.length + 1);
      expect(new Set(changes.map((change) => change.item_uuid)).size).toBe(descendants.length + 1);
      expect(changes.every((change) => change.change_type === 'delete' && change.item_version === 2)).toBe(
        true,
      );
      expect(
        changes.every((change) =>
          change.item_uuid === top
            ? change.parent_uuid === null
            : change.parent_uuid === parentOf.get(change.item_uuid),
        ),
      ).toBe(true);
    },
  );
});
