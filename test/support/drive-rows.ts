// Drive's tables read straight in tests: an item's row, the end of the change log and what it gained since.
import { db } from '../../platform/database.js';

export const row = (uuid: string) => db()('drive_items').where({ uuid }).first();

/** The highest change sequence number so far (0 when the log is empty). */
export const lastSeq = async (): Promise<number> => Number((await db()('drive_changes').max('seq as seq').first())?.seq ?? 0);

/** The changes to the given items after `seq`, in order, as [item_uuid, change_type, item_version] rows. */
export const changesSince = (seq: number, uuids: string[]) =>
  db()('drive_changes').where('seq', '>', seq).whereIn('item_uuid', uuids).orderBy('seq').select('item_uuid', 'change_type', 'item_version');
