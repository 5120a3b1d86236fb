// The role matrix: every kind of caller against every Drive route on a shared tree. Invisible is 404
// not_found; visible without the role is 403 not_authorized (spec/drive.md § Errors; docs/drive-sharing.md).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../domain/roles.js';
import {
  call,
  grant,
  insertDriveFile,
  makeColleague,
  makeUser,
  revokeGrantFor,
  type TestUser,
  makeFolder,
} from '../../support/api.js';
import { simpleUpload } from '../../support/drive-files.js';

/** G (the owner's root folder) → F → {S (folder), X (file)}. Operations act on F and X. */
interface Tree {
  owner: TestUser;
  g: string;
  f: string;
  s: string;
  x: string;
}

/** A real file with bytes (simple upload), so the content routes have something to serve. */
async function upload(user: TestUser, name: string, folderUuid: string) {
  return (
    await simpleUpload(user, name, Buffer.from('hello'), {
      content_type: 'text/plain',
      folder_uuid: folderUuid,
    })
  ).uuid as string;
}

/** Trashes the item through POST …/trash and, when that worked, restores it, so the next role finds the tree as it was. */
async function trashThenRestore(actor: TestUser, kind: 'files' | 'folders', uuid: string) {
  const trashed = await call('POST', `/v1/drive/${kind}/${uuid}/trash`, { token: actor.token });
  if (trashed.status === 200)
    expect(
      (await call('POST', `/v1/drive/${kind}/${uuid}`, { token: actor.token, json: { trashed: false } }))
        .status,
    ).toBe(200);
  return trashed;
}

async function makeTree(owner?: TestUser): Promise<Tree> {
  const who = owner ?? (await makeUser());
  const g = await makeFolder(who, 'G', null);
  const f = await makeFolder(who, 'F', g);
  const s = await makeFolder(who, 'S', f);
  const x = await upload(who, 'x.txt', f);
  return { owner: who, g, f, s, x };
}

/** A scenario's setup: a new tree, and a colleague of its owner who acts once `share` gave them their access. */
function colleagueOnTree(share: (tree: Tree, actor: TestUser) => Promise<unknown>) {
  return async () => {
    const tree = await makeTree();
    const actor = await makeColleague(tree.owner);
    await share(tree, actor);
    return { actor, tree };
  };
}

interface Scenario {
  name: string;
  /** Builds the tree and returns the acting user, and the tree the operations act on. */
  setup: () => Promise<{ actor: TestUser; tree: Tree }>;
  /** The caller's role on F and X, or null when they cannot see them. */
  role: Role | null;
}

const scenarios: Scenario[] = [
  {
    name: 'the owner',
    role: 'owner',
    setup: async () => {
      const tree = await makeTree();
      return { actor: tree.owner, tree };
    },
  },
  ...(['manager', 'editor', 'commenter', 'viewer'] as const).map((role) => ({
    name: `a user granted ${role} on F`,
    role,
    setup: colleagueOnTree((tree, actor) => grant({ folder: tree.f }, { user: actor }, role)),
  })),
  {
    name: 'a member through a workspace grant of editor on F',
    role: 'editor',
    setup: colleagueOnTree((tree) =>
      grant({ folder: tree.f }, { workspace: tree.owner.workspaceUuid }, 'editor'),
    ),
  },
  {
    name: 'a user granted editor on the ancestor G (inherited)',
    role: 'editor',
    setup: colleagueOnTree((tree, actor) => grant({ folder: tree.g }, { user: actor }, 'editor')),
  },
  {
    name: 'the owner of G, on items a grantee created inside it (manager by owning an ancestor)',
    role: 'manager',
    setup: async () => {
      const owner = await makeUser();
      const g = await makeFolder(owner, 'G', null);
      const grantee = await makeColleague(owner);
      await grant({ folder: g }, { user: grantee }, 'editor');
      const f = await makeFolder(grantee, 'F', g);
      const s = await makeFolder(grantee, 'S', f);
      const x = await upload(grantee, 'x.txt', f);
      return { actor: owner, tree: { owner: grantee, g, f, s, x } };
    },
  },
  {
    name: 'a user with a pending grant of editor on F',
    role: null,
    setup: colleagueOnTree((tree, actor) => grant({ folder: tree.f }, { user: actor }, 'editor', 'pending')),
  },
  {
    name: 'a user whose editor grant on F was revoked',
    role: null,
    setup: colleagueOnTree(async (tree, actor) =>
      revokeGrantFor(await grant({ folder: tree.f }, { user: actor }, 'editor')),
    ),
  },
  {
    name: 'a colleague without any grant',
    role: null,
    setup: async () => {
      const tree = await makeTree();
      return { actor: await makeColleague(tree.owner), tree };
    },
  },
  {
    name: 'a user of another workspace',
    role: null,
    setup: async () => {
      const tree = await makeTree();
      return { actor: await makeUser(), tree };
    },
  },
];

const atLeast = (role: Role | null, needed: Role) =>
  role !== null &&
  ['viewer', 'commenter', 'editor', 'manager', 'owner'].indexOf(role) >=
    ['viewer', 'commenter', 'editor', 'manager', 'owner'].indexOf(needed);

interface Operation {
  name: string;
  needs: Role;
  run: (actor: TestUser, tree: Tree) => Promise<{ status: number; body: any }>;
  /** Status when allowed. */
  ok: number;
  /** Checks the allowed answer further. */
  check?: (body: any, role: Role, tree: Tree) => void;
}

const operations: Operation[] = [
  {
    name: 'GET folder F',
    needs: 'viewer',
    ok: 200,
    run: (actor, tree) => call('GET', `/v1/drive/folders/${tree.f}`, { token: actor.token }),
    check: (body, role, tree) =>
      expect(body).toMatchObject({ object: 'drive_folder', uuid: tree.f, my_role: role }),
  },
  {
    name: 'GET file X',
    needs: 'viewer',
    ok: 200,
    run: (actor, tree) => call('GET', `/v1/drive/files/${tree.x}`, { token: actor.token }),
    check: (body, role, tree) =>
      expect(body).toMatchObject({ object: 'drive_file', uuid: tree.x, my_role: role }),
  },
  {
    name: 'list folder F',
    needs: 'viewer',
    ok: 200,
    run: (actor, tree) => call('GET', `/v1/drive/files?folder_uuid=${tree.f}`, { token: actor.token }),
    check: (body, role, tree) => {
      expect(body.folders.map((item: any) => [item.uuid, item.my_role])).toEqual([[tree.s, role]]);
      expect(body.files.map((item: any) => [item.uuid, item.my_role])).toEqual([[tree.x, role]]);
    },
  },
  {
    name: 'GET sharing of F',
    needs: 'viewer',
    ok: 200,
    run: (actor, tree) => call('GET', `/v1/drive/folders/${tree.f}/sharing`, { token: actor.token }),
    check: (body, _role, tree) =>
      expect(body).toMatchObject({ object: 'drive_sharing', resource_type: 'folder', resource_uuid: tree.f }),
  },
  {
    name: 'GET sharing of X',
    needs: 'viewer',
    ok: 200,
    run: (actor, tree) => call('GET', `/v1/drive/files/${tree.x}/sharing`, { token: actor.token }),
    check: (body, _role, tree) =>
      expect(body).toMatchObject({ object: 'drive_sharing', resource_type: 'file', resource_uuid: tree.x }),
  },
  {
    name: 'recolor folder F',
    needs: 'editor',
    ok: 200,
    run: (actor, tree) =>
      call('POST', `/v1/drive/folders/${tree.f}`, { token: actor.token, json: { color: '#112233' } }),
    check: (body) => expect(body).toMatchObject({ color: '#112233' }),
  },
  {
    name: 'rename file X',
    needs: 'editor',
    ok: 200,
    run: (actor, tree) =>
      call('POST', `/v1/drive/files/${tree.x}`, {
        token: actor.token,
        json: { name: `x-${randomUUID().slice(0, 6)}.txt` },
      }),
    check: (body) => expect(body.name).toMatch(/^x-.+\.txt$/),
  },
  {
    name: 'move file X into S',
    needs: 'editor',
    ok: 200,
    run: async (actor, tree) => {
      const moved = await call('POST', `/v1/drive/files/${tree.x}`, {
        token: actor.token,
        json: { folder_uuid: tree.s },
      });
      if (moved.status === 200)
        expect(
          (
            await call('POST', `/v1/drive/files/${tree.x}`, {
              token: actor.token,
              json: { folder_uuid: tree.f },
            })
          ).status,
        ).toBe(200);
      return moved;
    },
    check: (body, _role, tree) => expect(body.folder_uuid).toBe(tree.s),
  },
  {
    name: 'create a folder in F',
    needs: 'editor',
    ok: 201,
    run: (actor, tree) =>
      call('POST', '/v1/drive/folders', {
        token: actor.token,
        json: { name: `new-${randomUUID().slice(0, 6)}`, parent_uuid: tree.f },
      }),
    check: (body, _role, tree) => expect(body).toMatchObject({ parent_uuid: tree.f, my_role: 'owner' }),
  },
  {
    name: 'trash then restore file X through update',
    needs: 'editor',
    ok: 200,
    run: async (actor, tree) => {
      const trashed = await call('POST', `/v1/drive/files/${tree.x}`, {
        token: actor.token,
        json: { trashed: true },
      });
      if (trashed.status === 200)
        expect(
          (await call('POST', `/v1/drive/files/${tree.x}`, { token: actor.token, json: { trashed: false } }))
            .status,
        ).toBe(200);
      return trashed;
    },
    check: (body) => expect(body.trashed).toBe(true),
  },
  {
    name: 'download X',
    needs: 'viewer',
    ok: 200,
    run: (actor, tree) => call('GET', `/v1/drive/files/${tree.x}/download`, { token: actor.token }),
    check: (body, _role, tree) =>
      expect(body).toEqual({
        uuid: tree.x,
        name: expect.any(String),
        content_type: 'text/plain',
        size: 5,
        data: Buffer.from('hello').toString('base64'),
      }),
  },
  {
    name: 'download_init X',
    needs: 'viewer',
    ok: 200,
    run: (actor, tree) => call('GET', `/v1/drive/files/${tree.x}/download_init`, { token: actor.token }),
    check: (body) => expect(body).toMatchObject({ chunk_count: 1, download_url: expect.any(String) }),
  },
  {
    name: 'start (then abort) a replacement of X',
    needs: 'editor',
    ok: 201,
    run: async (actor, tree) => {
      const started = await call('POST', `/v1/drive/files/${tree.x}/replace`, {
        token: actor.token,
        json: { plaintext_size_bytes: 7 },
      });
      if (started.status === 201)
        expect(
          (await call('POST', `/v1/drive/files/${tree.x}/replace/abort`, { token: actor.token })).status,
        ).toBe(200);
      return started;
    },
    check: (body) => expect(body).toMatchObject({ version_uuid: expect.any(String), chunk_count: 1 }),
  },
  {
    name: 'trash (then restore) file X through POST …/trash',
    needs: 'editor',
    ok: 200,
    run: (actor, tree) => trashThenRestore(actor, 'files', tree.x),
    check: (body, _role, tree) =>
      expect(body).toMatchObject({ object: 'drive_file', uuid: tree.x, trashed: true }),
  },
  {
    name: 'trash (then restore) folder S through POST …/trash',
    needs: 'editor',
    ok: 200,
    run: (actor, tree) => trashThenRestore(actor, 'folders', tree.s),
    check: (body, _role, tree) =>
      expect(body).toMatchObject({ object: 'drive_folder', uuid: tree.s, trashed: true }),
  },
  {
    name: 'permanently delete a file in F',
    needs: 'manager',
    ok: 204,
    run: async (actor, tree) =>
      call('DELETE', `/v1/drive/files/${await insertDriveFile(tree.owner, { folderUuid: tree.f })}`, {
        token: actor.token,
      }),
    check: (body) => expect(body).toBe(''),
  },
  {
    name: "move F to the caller's Drive root",
    needs: 'owner',
    ok: 200,
    run: (actor, tree) =>
      call('POST', `/v1/drive/folders/${tree.f}`, { token: actor.token, json: { parent_uuid: null } }),
    check: (body) => expect(body.parent_uuid).toBeNull(),
  },
];

describe('Drive role matrix', () => {
  for (const scenario of scenarios) {
    describe(scenario.name, () => {
      let actor: TestUser;
      let tree: Tree;
      beforeAll(async () => {
        ({ actor, tree } = await scenario.setup());
      });

      for (const operation of operations) {
        const expected =
          scenario.role === null ? 404 : atLeast(scenario.role, operation.needs) ? operation.ok : 403;
        it(`${operation.name}: ${expected}`, async () => {
          const response = await operation.run(actor, tree);
          expect(response.status).toBe(expected);
          if (expected === 404) expect(response.body).toEqual({ error: 'not_found' });
          else if (expected === 403) expect(response.body).toEqual({ error: 'not_authorized' });
          else operation.check?.(response.body, scenario.role!, tree);
        });
      }
    });
  }
});
