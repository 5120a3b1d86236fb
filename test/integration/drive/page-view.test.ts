// A page of items as one caller sees it (domain/drive/page-view.ts) answers what the SQL functions answer row by row
// (drive_effective_role, drive_item_state, through selectVisible): on random trees that mix owners, grants of every
// status and principal, trashes on their own and with a folder, restores running and done, permanent deletes in
// progress and folder epochs, for callers who own, share or see nothing. Every rule the walk has is in these trees.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../domain/caller.js';
import { selectVisible } from '../../../domain/drive/items.js';
import { seenBy, selectStoredItems, type StoredItem } from '../../../domain/drive/page-view.js';
import type { VisibleItem } from '../../../domain/drive/rows.js';
import { db } from '../../../platform/database.js';
import { makeColleague, makeUser, type TestUser } from '../../support/api.js';

/** A small deterministic generator (mulberry32), so a failing tree can be rebuilt from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  return { chance: (p: number) => next() < p, pick, int: (n: number) => Math.floor(next() * n) };
}

interface Tree {
  people: TestUser[];
  items: string[];
}

/** 80 items under 4 roots, each row's state drawn at random; grants, public links and trash operations on top. */
async function randomTree(seed: number, people: TestUser[]): Promise<Tree> {
  const r = random(seed);
  const [first] = people;
  const folders: { uuid: string; depth: number; above: string[] }[] = [];
  const items: string[] = [];
  /** Each item's folders above it, nearest first. */
  const above = new Map<string, string[]>();
  for (let n = 0; n < 80; n++) {
    const parent = n < 4 ? null : r.pick(folders);
    const kind = n < 4 || r.chance(0.5) ? 'folder' : 'file';
    const uuid = randomUUID();
    const chain = parent ? [parent.uuid, ...parent.above] : [];
    above.set(uuid, chain);
    // Trashed on its own (null or itself), with a folder above it (its trash's cascade), or with any folder.
    const trashed = r.chance(0.25);
    const trashedWith = !trashed
      ? null
      : chain.length && r.chance(0.5)
        ? r.pick(chain)
        : r.pick([null, uuid, uuid, r.pick(folders)?.uuid ?? null]);
    await db()('drive_items').insert({
      uuid,
      workspace_uuid: first!.workspaceUuid,
      owner_uuid: r.pick(people).uuid,
      kind,
      name: `item-${seed}-${n}`,
      parent_uuid: parent?.uuid ?? null,
      depth: parent ? parent.depth + 1 : 0,
      upload_status: kind === 'file' ? 'completed' : null,
      content_type: kind === 'file' ? 'text/plain' : null,
      file_size_bytes: kind === 'file' ? 1 : null,
      trashed,
      trashed_at: trashed ? new Date() : null,
      trashed_with: trashedWith,
      deleted_at: r.chance(0.04) ? new Date() : null,
      version: 1 + r.int(5),
      epoch: kind === 'folder' ? r.int(4) : 0,
      epoch_base: r.int(3),
    });
    items.push(uuid);
    if (kind === 'folder') folders.push({ uuid, depth: parent ? parent.depth + 1 : 0, above: chain });
  }
  for (const item of items) {
    if (r.chance(0.15)) {
      const toWorkspace = r.chance(0.3);
      await db()('drive_grants').insert({
        workspace_uuid: first!.workspaceUuid,
        item_uuid: item,
        principal_type: toWorkspace ? 'workspace' : 'user',
        principal_user_uuid: toWorkspace ? null : r.pick(people).uuid,
        principal_workspace_uuid: toWorkspace ? first!.workspaceUuid : null,
        role: r.pick(['viewer', 'commenter', 'editor', 'manager']),
        status: r.pick(['pending', 'accepted', 'accepted', 'revoked']),
      });
    }
    if (r.chance(0.05))
      // Only the link's existence counts here (`shared`): its sealed token is never opened.
      await db()('drive_public_links').insert({
        item_uuid: item,
        status: 'ready',
        token_hash: randomBytes(32),
        token_key_wrapped: randomBytes(40),
        token_sealed: randomBytes(40),
      });
  }
  // Trash operations on folders, several per folder at times: only the latest counts. A restore brings back a group:
  // mostly the folder's own or that of an item below it (as a restore's cascade does), at times any folder's.
  for (const folder of folders) {
    const below = items.filter((item) => above.get(item)!.includes(folder.uuid));
    for (let n = r.chance(0.6) ? 1 + r.int(3) : 0; n > 0; n--) {
      const kind = r.pick(['trash', 'restore', 'restore', 'restore', 'delete'] as const);
      const group = r.chance(0.4)
        ? folder.uuid
        : r.chance(0.7) && below.length
          ? r.pick(below)
          : r.pick(folders).uuid;
      await db()('drive_trash_operations').insert({
        uuid: randomUUID(),
        workspace_uuid: first!.workspaceUuid,
        root_uuid: folder.uuid,
        kind,
        trashed_with: kind === 'restore' ? group : null,
        actor_uuid: first!.uuid,
        status: r.pick(['running', 'running', 'completed', 'superseded']),
      });
    }
  }
  return { people, items };
}

const viewOf = (item: VisibleItem) => ({
  uuid: item.uuid,
  my_role: item.my_role,
  trashed: item.trashed,
  version: item.version,
  shared: item.shared,
});
const byUuid = (a: { uuid: string }, b: { uuid: string }) => a.uuid.localeCompare(b.uuid);

async function expectSameAsSql(caller: Caller, items: string[]) {
  const expected = ((await selectVisible(db(), caller).whereIn('i.uuid', items)) as VisibleItem[])
    .map(viewOf)
    .sort(byUuid);
  const stored = (await selectStoredItems(db(), caller).whereIn('i.uuid', items)) as StoredItem[];
  const actual = (await seenBy(db(), caller, stored)).map(viewOf).sort(byUuid);
  expect(actual).toEqual(expected);
  return expected.length;
}

describe('a page of items as the caller sees it', () => {
  it('matches the SQL functions row for row on random trees, for owners, colleagues and outsiders', async () => {
    const owner = await makeUser();
    const colleagues = [await makeColleague(owner), await makeColleague(owner)];
    const outsider = await makeUser();
    let seen = 0;
    let hiddenFromSome = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const tree = await randomTree(seed, [owner, ...colleagues]);
      const counts: number[] = [];
      for (const person of [owner, ...colleagues])
        counts.push(
          await expectSameAsSql({ userUuid: person.uuid, workspaceUuid: person.workspaceUuid }, tree.items),
        );
      // Someone from another workspace is given nothing: the rows are not in their workspace.
      expect(
        await seenBy(
          db(),
          { userUuid: outsider.uuid, workspaceUuid: outsider.workspaceUuid },
          (await selectStoredItems(db(), {
            userUuid: owner.uuid,
            workspaceUuid: owner.workspaceUuid,
          }).whereIn('i.uuid', tree.items)) as StoredItem[],
        ),
      ).toEqual([]);
      seen += counts.reduce((a, b) => a + b, 0);
      hiddenFromSome += counts.filter((count) => count < tree.items.length).length;
    }
    // The trees exercise both sides of the rules: many rows seen, and callers from whom some are hidden.
    expect(seen).toBeGreaterThan(300);
    expect(hiddenFromSome).toBeGreaterThan(10);
  }, 120_000);

  it('matches them on part of a tree too (a page whose ancestors are not in it), and on a deep chain', async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner);
    const tree = await randomTree(99, [owner, colleague]);
    for (const person of [owner, colleague])
      await expectSameAsSql(
        { userUuid: person.uuid, workspaceUuid: person.workspaceUuid },
        tree.items.filter((_, index) => index % 3 === 0),
      );
    // 3,000 folders, one inside the other, shared at the top: no recursion limit binds the walk.
    const chain: string[] = [];
    let parent: string | null = null;
    for (let depth = 0; depth < 3000; depth++) {
      const uuid = randomUUID();
      chain.push(uuid);
      await db()('drive_items').insert({
        uuid,
        workspace_uuid: owner.workspaceUuid,
        owner_uuid: owner.uuid,
        kind: 'folder',
        name: `level-${depth}`,
        parent_uuid: parent,
        depth,
        epoch: 1,
      });
      parent = uuid;
    }
    await db()('drive_grants').insert({
      workspace_uuid: owner.workspaceUuid,
      item_uuid: chain[0],
      principal_type: 'user',
      principal_user_uuid: colleague.uuid,
      role: 'commenter',
      status: 'accepted',
    });
    const caller = { userUuid: colleague.uuid, workspaceUuid: colleague.workspaceUuid };
    const [deepest] = await seenBy(
      db(),
      caller,
      (await selectStoredItems(db(), caller).where('i.uuid', chain.at(-1)!)) as StoredItem[],
    );
    expect(deepest).toMatchObject({ my_role: 'commenter', trashed: false, version: 1 + 2999 });
  }, 120_000);
});
