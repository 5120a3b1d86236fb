// Trash, restore and permanent delete of Drive items. (Starting point: the cascade workflows replace the
// single-item bodies below; see the trash issue brief.)
import { findVisibleItem, type DriveCaller } from './items.js';
import { appendChange } from './changes.js';
import { db } from '../../platform/database.js';

export async function trashItem(me: DriveCaller, uuid: string): Promise<void> {
  await db().transaction(async (tx) => {
    const item = await findVisibleItem(tx, me, uuid, { needs: 'editor', forUpdate: true });
    if (item.trashed) return;
    const [updated] = await tx('drive_items')
      .where({ uuid })
      .update({ trashed: true, trashed_at: tx.fn.now(), trashed_with: uuid, version: tx.raw('version + 1'), updated_at: tx.fn.now() })
      .returning('*');
    await appendChange(tx, 'update', updated);
  });
}

export async function restoreItem(me: DriveCaller, uuid: string): Promise<void> {
  await db().transaction(async (tx) => {
    const item = await findVisibleItem(tx, me, uuid, { needs: 'editor', forUpdate: true });
    if (!item.trashed) return;
    const [updated] = await tx('drive_items')
      .where({ uuid })
      .update({ trashed: false, trashed_at: null, trashed_with: null, version: tx.raw('version + 1'), updated_at: tx.fn.now() })
      .returning('*');
    await appendChange(tx, 'update', updated);
  });
}
