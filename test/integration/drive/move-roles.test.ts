// No role escalation by moving (docs/drive-sharing.md § Moves and roles): a move never changes who owns an item, and
// only the owner may take an item where someone reaches it with more than before. The HTTP cases first, then a
// property test over random trees, grants, moves, trashes and restores run against the domain functions.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../domain/accounts/workspaces.js';
import type { Caller } from '../../../domain/caller.js';
import { AppError } from '../../../domain/errors.js';
import { ancestorUuids, createFolder } from '../../../domain/drive/items.js';
import { updateItem } from '../../../domain/drive/item-update.js';
import { SharingError, grantAccess, revokeGrant } from '../../../domain/drive/sharing.js';
import { trashItem } from '../../../domain/drive/trash.js';
import type { ItemKind } from '../../../domain/drive/rows.js';
import { roleRank, type GrantRole, type Role } from '../../../domain/roles.js';
import type { UnitOfWork, WorkflowRequests } from '../../../domain/unit-of-work.js';
import { db } from '../../../platform/database.js';
import {
  call,
  grant,
  insertDriveFile,
  makeColleague,
  makeFolder,
  makeUser,
  makeWorkspace,
} from '../../support/api.js';

const moveFile = (token: string, file: string, folder: string | null) =>
  call('POST', `/v1/drive/files/${file}`, { token, json: { folder_uuid: folder } });
const moveFolder = (token: string, folder: string, parent: string | null) =>
  call('POST', `/v1/drive/folders/${folder}`, { token, json: { parent_uuid: parent } });

describe('Moving does not raise anyone’s role', () => {
  it("refuses an editor moving the sharer's file into their own folder, so they never manage (or delete) it", async () => {
    const alice = await makeUser();
    const bob = await makeColleague(alice);
    const shared = await makeFolder(alice, 'Shared');
    const report = await insertDriveFile(alice, { name: 'report.txt', folderUuid: shared });
    await grant({ folder: shared }, { user: bob }, 'editor');
    const mine = await makeFolder(bob, 'Mine');
    // Also a folder of Bob's inside the shared folder: owning it would make Bob manager of what goes in.
    const mineInside = await makeFolder(bob, 'Mine inside', shared);

    for (const destination of [mine, mineInside]) {
      const moved = await moveFile(bob.token, report, destination);
      expect(moved.status).toBe(403);
      expect(moved.body).toEqual({ error: 'not_authorized' });
    }
    const after = await call('GET', `/v1/drive/files/${report}`, { token: bob.token });
    expect(after.body).toMatchObject({ folder_uuid: shared, my_role: 'editor', owner: { self: false } });
    expect((await call('DELETE', `/v1/drive/files/${report}`, { token: bob.token })).status).toBe(403);
  });

  it('refuses an editor moving an item where someone else would reach it, or reach it with a higher role', async () => {
    const alice = await makeUser();
    const bob = await makeColleague(alice);
    const carol = await makeColleague(alice);
    const shared = await makeFolder(alice, 'Shared');
    const forCarol = await makeFolder(alice, 'For Carol'); // Bob edits it too, Carol only views it
    const team = await makeFolder(alice, 'Team', shared); // shared further, with the whole workspace
    const file = await insertDriveFile(alice, { name: 'plan.txt', folderUuid: shared });
    const folder = await makeFolder(alice, 'Drafts', shared);
    await grant({ folder: shared }, { user: bob }, 'editor');
    await grant({ folder: forCarol }, { user: bob }, 'editor');
    await grant({ folder: forCarol }, { user: carol }, 'viewer');
    await grant({ folder: team }, { workspace: alice.workspaceUuid }, 'viewer');

    for (const destination of [forCarol, team]) {
      expect((await moveFile(bob.token, file, destination)).status).toBe(403);
      expect((await moveFolder(bob.token, folder, destination)).status).toBe(403);
    }
    expect((await call('GET', `/v1/drive/files/${file}`, { token: carol.token })).status).toBe(404);
  });

  it("lets an editor move items within the sharer's tree where nobody gains, and the owner anywhere", async () => {
    const alice = await makeUser();
    const bob = await makeColleague(alice);
    const shared = await makeFolder(alice, 'Shared');
    const archive = await makeFolder(alice, 'Archive', shared);
    const file = await insertDriveFile(alice, { name: 'old.txt', folderUuid: shared });
    const folder = await makeFolder(alice, 'Q1', shared);
    await grant({ folder: shared }, { user: bob }, 'editor');
    const bobsOwn = await makeFolder(bob, 'Bob files');
    const bobsFile = await insertDriveFile(bob, { name: 'bob.txt' });

    expect((await moveFile(bob.token, file, archive)).body).toMatchObject({
      folder_uuid: archive,
      my_role: 'editor',
    });
    expect((await moveFolder(bob.token, folder, archive)).body).toMatchObject({
      parent_uuid: archive,
      my_role: 'editor',
    });
    expect((await moveFile(bob.token, file, shared)).body).toMatchObject({
      folder_uuid: shared,
      my_role: 'editor',
    });
    // Bob's own file goes where Bob wants it, Alice's shared folder included: he is its owner.
    expect((await moveFile(bob.token, bobsFile, archive)).body).toMatchObject({
      folder_uuid: archive,
      my_role: 'owner',
    });
    // The owner decides: Alice may put her file in Bob's folder, and Bob then manages it.
    expect(
      (await call('POST', `/v1/drive/files/${file}`, { token: alice.token, json: { folder_uuid: null } }))
        .status,
    ).toBe(200);
    await grant({ folder: bobsOwn }, { user: alice }, 'editor');
    expect((await moveFile(alice.token, file, bobsOwn)).status).toBe(200);
    expect((await call('GET', `/v1/drive/files/${file}`, { token: bob.token })).body).toMatchObject({
      my_role: 'manager',
      owner: { self: false },
    });
  });
});

// --- The property --------------------------------------------------------------------------------------

const USERS = 4;
const GRANT_ROLES: GrantRole[] = ['viewer', 'commenter', 'editor', 'manager'];

/** A node of the starting tree: a folder or a file, its owner, and (for index > 0) an earlier folder as parent. */
const nodeArb = fc.record({
  folder: fc.boolean(),
  owner: fc.nat(USERS - 1),
  parent: fc.option(fc.nat(), { nil: null }),
});

const stepArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('move' as const),
      actor: fc.nat(USERS - 1),
      item: fc.nat(),
      to: fc.option(fc.nat(), { nil: null, freq: 6 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('grant' as const),
      item: fc.nat(),
      to: fc.option(fc.nat(USERS - 1), { nil: null, freq: 5 }),
      role: fc.constantFrom(...GRANT_ROLES),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('revoke' as const), grant: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('trash' as const), actor: fc.nat(USERS - 1), item: fc.nat() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('restore' as const), actor: fc.nat(USERS - 1), item: fc.nat() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('create' as const),
      actor: fc.nat(USERS - 1),
      parent: fc.option(fc.nat(), { nil: null }),
    }),
  },
);
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

/** Cascades are not what this test is about: the effective trash state reads right without them (docs/drive-trash.md). */
const noWorkflows: WorkflowRequests = {
  startDriveCascade: async () => {},
  scheduleDocumentPurge: async () => {},
  startWebhookDelivery: async () => {},
  startThumbnail: async () => {},
  wakeUploadLifecycle: () => {},
  wakeReplaceLifecycle: () => {},
  wakeDocumentPurge: () => {},
  retryWebhookDelivery: () => {},
  terminateWebhookDelivery: () => {},
};
const inUnit = <T>(work: (unit: UnitOfWork) => Promise<T>) =>
  db().transaction((tx) => work({ tx, workflows: noWorkflows }));

/** A refusal the API would answer with a 4xx (or the operator CLI with an error): the step changed nothing. */
const isRefusal = (error: unknown) =>
  (error instanceof AppError && error.status < 500) ||
  error instanceof SharingError ||
  (error as { code?: string }).code === '23505';

interface Item {
  uuid: string;
  kind: ItemKind;
  owner: string;
}

const rank = (role: Role | null) => (role === null ? -1 : roleRank(role));

/** Every member's role on every item of the workspace, as drive_effective_role computes it: item → user → role. */
async function roleMatrix(workspaceUuid: string): Promise<Map<string, Map<string, Role | null>>> {
  const rows = (
    await db().raw(
      `select i.uuid as item, m.user_uuid as member, drive_effective_role(i.uuid, m.user_uuid, ?) as role
         from drive_items i join workspace_members m on m.workspace_uuid = i.workspace_uuid where i.workspace_uuid = ?`,
      [workspaceUuid, workspaceUuid],
    )
  ).rows as { item: string; member: string; role: Role | null }[];
  const matrix = new Map<string, Map<string, Role | null>>();
  for (const row of rows) {
    if (!matrix.has(row.item)) matrix.set(row.item, new Map());
    matrix.get(row.item)!.set(row.member, row.role);
  }
  return matrix;
}

/** What a step did that may legitimately raise a role: a grant (with what it gave), or a move by the moved item's owner. */
type Effect =
  { grant: { itemUuid: string; to: string | 'workspace'; role: GrantRole } } | { ownerMoved: string } | null;

async function runScenario(
  nodes: { folder: boolean; owner: number; parent: number | null }[],
  steps: Step[],
) {
  const workspace = await makeWorkspace();
  const users: string[] = [];
  for (let n = 0; n < USERS; n++)
    users.push(
      (await createUser(db(), { workspaceUuid: workspace.uuid, email: `${randomUUID()}@example.test` })).uuid,
    );
  const callerOf = (index: number): Caller => ({
    userUuid: users[index % USERS]!,
    workspaceUuid: workspace.uuid,
  });

  // The starting tree, written straight to the table: mixed owners at any depth, as creations by grantees make it.
  const items: Item[] = [];
  const folders = () => items.filter((item) => item.kind === 'folder');
  for (const node of nodes) {
    const kind: ItemKind = node.folder || items.length === 0 ? 'folder' : 'file';
    const parents = folders();
    const parent =
      node.parent === null || parents.length === 0 ? null : parents[node.parent % parents.length]!;
    const parentRow = parent ? await db()('drive_items').where({ uuid: parent.uuid }).first() : undefined;
    const [row] = await db()('drive_items')
      .insert({
        workspace_uuid: workspace.uuid,
        owner_uuid: users[node.owner]!,
        kind,
        parent_uuid: parent?.uuid ?? null,
        name: `n${items.length}-${randomUUID().slice(0, 8)}`,
        depth: parentRow ? parentRow.depth + 1 : 0,
        ...(kind === 'file'
          ? { content_type: 'text/plain', file_size_bytes: 1, upload_status: 'completed' }
          : {}),
      })
      .returning('*');
    items.push({ uuid: row.uuid, kind, owner: row.owner_uuid });
  }

  async function apply(step: Step): Promise<Effect> {
    const pick = (index: number) => items[index % items.length]!;
    switch (step.type) {
      case 'move': {
        const item = pick(step.item);
        const candidates = folders();
        const to = step.to === null ? null : candidates[step.to % candidates.length]!.uuid;
        const caller = callerOf(step.actor);
        await inUnit((unit) => updateItem(unit, caller, item.uuid, item.kind, { parentUuid: to }));
        return caller.userUuid === item.owner ? { ownerMoved: item.uuid } : null;
      }
      case 'restore': {
        const item = pick(step.item);
        const caller = callerOf(step.actor);
        await inUnit((unit) => updateItem(unit, caller, item.uuid, item.kind, { trashed: false }));
        return caller.userUuid === item.owner ? { ownerMoved: item.uuid } : null;
      }
      case 'trash': {
        const item = pick(step.item);
        await inUnit((unit) => trashItem(unit, callerOf(step.actor), item.uuid, item.kind));
        return null;
      }
      case 'grant': {
        const item = pick(step.item);
        const principal =
          step.to === null
            ? ({ type: 'workspace', workspaceUuid: workspace.uuid } as const)
            : ({ type: 'user', userUuid: users[step.to]! } as const);
        await db().transaction((tx) =>
          grantAccess(tx, {
            itemUuid: item.uuid,
            kind: item.kind,
            principal,
            role: step.role,
            status: 'accepted',
          }),
        );
        return {
          grant: {
            itemUuid: item.uuid,
            to: step.to === null ? 'workspace' : users[step.to]!,
            role: step.role,
          },
        };
      }
      case 'revoke': {
        const live = await db()('drive_grants')
          .where({ workspace_uuid: workspace.uuid })
          .whereNot({ status: 'revoked' })
          .orderBy(['created_at', 'uuid']);
        if (live.length) await db().transaction((tx) => revokeGrant(tx, live[step.grant % live.length].uuid));
        return null;
      }
      case 'create': {
        const candidates = folders();
        const parent = step.parent === null ? null : candidates[step.parent % candidates.length]!.uuid;
        const caller = callerOf(step.actor);
        const uuid = await inUnit((unit) =>
          createFolder(unit.tx, caller, {
            name: `c${items.length}-${randomUUID().slice(0, 8)}`,
            parentUuid: parent,
          }),
        );
        items.push({ uuid, kind: 'folder', owner: caller.userUuid });
        return null;
      }
    }
  }

  let before = await roleMatrix(workspace.uuid);
  for (const [index, step] of steps.entries()) {
    let effect: Effect = null;
    try {
      effect = await apply(step);
    } catch (error) {
      if (!isRefusal(error)) throw error;
    }
    const after = await roleMatrix(workspace.uuid);
    for (const item of items) {
      const was = before.get(item.uuid);
      if (!was) continue; // created by this step
      for (const user of users) {
        if (user === item.owner) continue;
        const now = after.get(item.uuid)!.get(user) ?? null;
        if (rank(now) <= rank(was.get(user) ?? null)) continue;
        const chain = [
          item.uuid,
          ...(await ancestorUuids(
            db(),
            (await db()('drive_items').where({ uuid: item.uuid }).first()).parent_uuid,
          )),
        ];
        // A raise is fine only when the owner of the moved item moved it (with this item in its subtree), or a
        // grant on the item or a folder above it gave this user (or everyone) at least that much.
        const byOwner = effect !== null && 'ownerMoved' in effect && chain.includes(effect.ownerMoved);
        const byGrant =
          effect !== null &&
          'grant' in effect &&
          chain.includes(effect.grant.itemUuid) &&
          (effect.grant.to === user || effect.grant.to === 'workspace') &&
          rank(now) <= rank(effect.grant.role);
        expect(
          byOwner || byGrant,
          `step ${index} ${JSON.stringify(step)} raised ${user} on ${item.uuid} from ${was.get(user)} to ${now}`,
        ).toBe(true);
      }
    }
    before = after;
  }
}

describe('Moving does not raise anyone’s role: property', () => {
  // 12 runs × up to 30 steps: a few hundred moves, grants, revokes, trashes, restores and creates on random trees.
  it(
    'no sequence of moves, grants, revokes, trashes and restores raises a role above what an owner or a grant gave',
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(nodeArb, { minLength: 3, maxLength: 12 }),
          fc.array(stepArb, { minLength: 10, maxLength: 30 }),
          runScenario,
        ),
        // No shrinking: each run is a database scenario, and the failing step is named in the message anyway.
        { numRuns: 12, endOnFailure: true },
      );
    },
  );
});
