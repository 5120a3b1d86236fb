// The Drive changes long-poll (an extension, docs/extensions.md § Drive changes extras; Dropbox's list_folder/longpoll):
// wait until a change the caller can see commits, on the drive_changes trigger's notifications (migration
// 021_drive_changes_notify), or until the timeout.
import type { Knex } from 'knex';
import type { HubChannel, Subscribable } from '../../platform/notification-hub.js';
import type { Caller } from '../caller.js';
import { isUuid } from '../uuid.js';
import { MAX_PAGE_SIZE, readChanges } from './changes-feed.js';
import type { FeedCursor } from './sync-token.js';

const DRIVE_CHANGES_CHANNEL = 'folio_drive_changes';

/** The channel, for a NotificationHub (platform/notification-hub.ts): a notification names the workspace whose log grew. */
export const driveChangesChannel: HubChannel<true> = {
  channel: DRIVE_CHANGES_CHANNEL,
  name: 'drive changes channel',
  parse: (payload) => (payload && isUuid(payload) ? { key: payload, event: true } : undefined),
};

/** What a long-poll is handed by the API (api/routes/drive/changes.ts). */
export interface ChangeWaitDeps {
  db: Knex;
  hub: Subscribable<true>;
  /** Brackets each wait (a gauge of parked long-polls). */
  parked: { enter(): void; leave(): void };
}

export interface ChangeWait {
  caller: Caller;
  cursor: FeedCursor;
  timeoutMs: number;
  /** Aborted when the client has left: the wait ends at once (false), so its slot is not held to the timeout. */
  gone?: AbortSignal;
}

/**
 * Whether a change the caller can see committed after `cursor` (true at once if one already has), waiting at most
 * `timeoutMs`. It listens before it reads, so a change that commits between the read and the wait still wakes it;
 * a change the caller cannot see moves its position on and it waits again.
 */
export async function waitForVisibleChange(deps: ChangeWaitDeps, wait: ChangeWait): Promise<boolean> {
  const { db, hub, parked } = deps;
  const { caller, cursor, timeoutMs, gone } = wait;
  let heard: boolean;
  let wake = () => {};
  const unsubscribe = await hub.subscribe(caller.workspaceUuid, () => {
    heard = true;
    wake();
  });
  try {
    const deadline = Date.now() + timeoutMs;
    let position = cursor;
    for (;;) {
      heard = false;
      for (;;) {
        const page = await readChanges(db, caller, position, MAX_PAGE_SIZE);
        if (page.entries.length) return true;
        position = page.cursor;
        if (!page.hasMore) break;
      }
      // Heard while reading: read again. No await between this check and the wait, so nothing is missed.
      if (heard) continue;
      const left = deadline - Date.now();
      if (left <= 0 || gone?.aborted) return false;
      parked.enter();
      let leave = () => {};
      const woke = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), left);
        const end = (answer: boolean) => {
          clearTimeout(timer);
          resolve(answer);
        };
        wake = () => end(true);
        leave = () => end(false);
        gone?.addEventListener('abort', leave, { once: true });
      }).finally(() => {
        gone?.removeEventListener('abort', leave);
        parked.leave();
      });
      if (!woke || gone?.aborted) return false;
    }
  } finally {
    unsubscribe();
  }
}
