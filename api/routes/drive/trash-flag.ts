// The `trashed` key of a file or folder update: true trashes (and needs drive.delete too), false restores.
import type { Middleware } from 'koa';
import { requireScope } from '../../middleware/auth.js';
import type { DriveCaller, VisibleItem } from '../../../domain/drive/items.js';
import { restoreItem, trashItem } from '../../../domain/drive/trash.js';

const needsDelete = requireScope('drive.delete');

/** Runs after the body is parsed: `trashed: true` through an update also needs the drive.delete scope. */
export function requireDeleteScopeToTrash(): Middleware {
  return (ctx, next) => ((ctx.request.body as { trashed?: unknown } | undefined)?.trashed === true ? needsDelete(ctx, next) : next());
}

/** Applies `trashed` after the metadata change, and answers the item as it then stands. */
export async function applyTrashedFlag(me: DriveCaller, item: VisibleItem, trashed: boolean | undefined): Promise<VisibleItem> {
  if (trashed === undefined || trashed === item.trashed) return item;
  return trashed ? trashItem(me, item.uuid, item.kind) : restoreItem(me, item.uuid, item.kind);
}
