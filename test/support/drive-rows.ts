// Drive's tables read straight in tests: an item's row, the end of the change log and what it gained since, a
// check that a refused request changed neither, and the workspace's storage pool.
import { expect } from 'vitest';
import { db } from '../../platform/database.js';

export const row = (uuid: string) => db()('drive_items').where({ uuid }).first();

/** The bytes the user's workspace pool counts as used. */
export const usedBytes = async (user: { workspaceUuid: string }): Promise<number> =>
  Number((await db()('workspaces').where({ uuid: user.workspaceUuid }).first()).storage_used_bytes);

/** The highest change sequence number so far (0 when the log is empty). */
export const lastSeq = async (): Promise<number> =>
  Number((await db()('drive_changes').max('seq as seq').first())?.seq ?? 0);

/** The changes to the given items after `seq`, in order, as [item_uuid, change_type, item_version] rows. */
export const changesSince = (seq: number, uuids: string[]) =>
  db()('drive_changes')
    .where('seq', '>', seq)
    .whereIn('item_uuid', uuids)
    .orderBy('seq')
    .select('item_uuid', 'change_type', 'item_version');

/** The item's row now, and a check that neither the row nor the change log moved for it since. */
export async function watchItem(uuid: string) {
  const before = await row(uuid);
  const seq = await lastSeq();
  const expectUnchanged = async () => {
    expect(await row(uuid)).toEqual(before);
    expect(await changesSince(seq, [uuid])).toEqual([]);
  };
  return { before, expectUnchanged };
}
