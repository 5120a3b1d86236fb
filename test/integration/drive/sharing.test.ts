// Sharing: the read-only sharing routes, the share flags on items, where shared items show up, and the
// `folio share` commands that make grants and public links (spec/drive.md § Sharing; docs/drive-sharing.md).
import { describe, expect, it } from 'vitest';
import { grantAccess, revokeGrant } from '../../../domain/drive/sharing.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import {
  call,
  grant,
  insertDriveFile,
  makeColleague,
  makeDocument,
  makeUser,
  revokeGrantFor,
  tokenFor,
  makeFolder,
} from '../../support/api.js';
import { folio, folioFails, runFolio } from '../../support/cli.js';

const timestamps = { created_at: expect.any(String), updated_at: expect.any(String) };

describe('GET sharing settings', () => {
  it('answers drive_sharing for a folder: its direct grants, revoked ones included, with principal_email, and no public link', async () => {
    const owner = await makeUser();
    const reader = await makeColleague(owner);
    const gone = await makeColleague(owner);
    const team = await makeFolder(owner, 'Team');
    const readerGrant = await grant({ folder: team }, { user: reader }, 'viewer');
    const workspaceGrant = await grant(
      { folder: team },
      { workspace: owner.workspaceUuid },
      'commenter',
      'pending',
    );
    const goneGrant = await grant({ folder: team }, { user: gone }, 'editor');
    await revokeGrantFor(goneGrant);
    const child = await makeFolder(owner, 'Child', team);

    const response = await call('GET', `/v1/drive/folders/${team}/sharing`, { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'drive_sharing',
      resource_type: 'folder',
      resource_uuid: team,
      accesses: [
        {
          object: 'drive_access',
          uuid: readerGrant,
          principal_type: 'user',
          principal_user_uuid: reader.uuid,
          principal_workspace_uuid: null,
          principal_email: reader.email,
          role: 'viewer',
          status: 'accepted',
          ...timestamps,
        },
        {
          object: 'drive_access',
          uuid: workspaceGrant,
          principal_type: 'workspace',
          principal_user_uuid: null,
          principal_workspace_uuid: owner.workspaceUuid,
          principal_email: null,
          role: 'commenter',
          status: 'pending',
          ...timestamps,
        },
        // The spec's status has `revoked`: a revoked grant stays listed, as history (docs/drive-sharing.md).
        {
          object: 'drive_access',
          uuid: goneGrant,
          principal_type: 'user',
          principal_user_uuid: gone.uuid,
          principal_workspace_uuid: null,
          principal_email: gone.email,
          role: 'editor',
          status: 'revoked',
          ...timestamps,
        },
      ],
      public_link: null,
    });

    // Grants apply to the subtree but are listed only on the item they were made on.
    const inherited = await call('GET', `/v1/drive/folders/${child}/sharing`, { token: reader.token });
    expect(inherited.status).toBe(200);
    expect(inherited.body).toEqual({
      object: 'drive_sharing',
      resource_type: 'folder',
      resource_uuid: child,
      accesses: [],
      public_link: null,
    });
  });

  it('is readable by a viewer, and 404 not_found for whoever cannot see the item or names the wrong kind', async () => {
    const owner = await makeUser();
    const viewer = await makeColleague(owner);
    const pending = await makeColleague(owner);
    const file = await insertDriveFile(owner, { name: 'secret.txt' });
    await grant({ file }, { user: viewer }, 'viewer');
    await grant({ file }, { user: pending }, 'viewer', 'pending');

    const asViewer = await call('GET', `/v1/drive/files/${file}/sharing`, { token: viewer.token });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.accesses).toHaveLength(2);

    for (const [token, path] of [
      [pending.token, `/v1/drive/files/${file}/sharing`],
      [(await makeColleague(owner)).token, `/v1/drive/files/${file}/sharing`],
      [(await makeUser()).token, `/v1/drive/files/${file}/sharing`],
      [owner.token, `/v1/drive/folders/${file}/sharing`],
      [owner.token, '/v1/drive/files/not-a-uuid/sharing'],
      [owner.token, '/v1/drive/files/00000000-0000-4000-8000-000000000000/sharing'],
    ] as const) {
      const response = await call('GET', path, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'not_found' });
    }
  });

  it('needs the drive.read scope', async () => {
    const owner = await makeUser();
    const file = await insertDriveFile(owner);
    const response = await call('GET', `/v1/drive/files/${file}/sharing`, {
      token: await tokenFor(owner, ['drive.update']),
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', scope: 'drive.read' });
  });
});

describe('shared, my_role and owner.self', () => {
  it('marks a share root shared for its owner and its grantees, and not the items below it', async () => {
    const owner = await makeUser({ firstName: 'Grace', lastName: 'Hopper' });
    const grantee = await makeColleague(owner);
    const root = await makeFolder(owner, 'Shared root');
    const below = await makeFolder(owner, 'Below', root);
    await grant({ folder: root }, { user: grantee }, 'editor');

    const byOwner = (await call('GET', `/v1/drive/folders/${root}`, { token: owner.token })).body;
    expect(byOwner).toMatchObject({ shared: true, my_role: 'owner', owner: { self: true } });
    const byGrantee = (await call('GET', `/v1/drive/folders/${root}`, { token: grantee.token })).body;
    expect(byGrantee).toMatchObject({
      shared: true,
      my_role: 'editor',
      owner: { self: false, first_name: 'Grace', last_name: 'Hopper', display_name: 'Grace Hopper' },
    });
    expect((await call('GET', `/v1/drive/folders/${below}`, { token: grantee.token })).body).toMatchObject({
      shared: false,
      my_role: 'editor',
    });
  });

  it('counts a pending grant and a public link as a share, and a revoked grant not', async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner);
    const pendingFile = await insertDriveFile(owner, { name: 'pending.txt' });
    const linkedFile = await insertDriveFile(owner, { name: 'linked.txt' });
    const revokedFile = await insertDriveFile(owner, { name: 'revoked.txt' });
    await grant({ file: pendingFile }, { user: colleague }, 'viewer', 'pending');
    await folio('share', 'link', '--file', linkedFile);
    await revokeGrantFor(await grant({ file: revokedFile }, { user: colleague }, 'viewer'));

    const shared = async (uuid: string) =>
      (await call('GET', `/v1/drive/files/${uuid}`, { token: owner.token })).body.shared;
    expect([await shared(pendingFile), await shared(linkedFile), await shared(revokedFile)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("keeps shared items out of the grantee's root listing; they are reached by uuid and by listing the shared folder", async () => {
    const owner = await makeUser();
    const grantee = await makeColleague(owner);
    const shared = await makeFolder(owner, 'Shared with you');
    const inside = await insertDriveFile(owner, { name: 'inside.txt', folderUuid: shared });
    const sharedFile = await insertDriveFile(owner, { name: 'direct.txt' });
    await grant({ folder: shared }, { user: grantee }, 'viewer');
    await grant({ file: sharedFile }, { user: grantee }, 'viewer');
    const own = await makeFolder(grantee, 'Mine');

    const root = await call('GET', '/v1/drive/files', { token: grantee.token });
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ object: 'list', url: '/v1/drive/files', folder_uuid: null, files: [] });
    expect(root.body.folders.map((item: any) => item.uuid)).toEqual([own]);

    expect((await call('GET', `/v1/drive/files/${sharedFile}`, { token: grantee.token })).status).toBe(200);
    const listing = await call('GET', `/v1/drive/files?folder_uuid=${shared}`, { token: grantee.token });
    expect(listing.status).toBe(200);
    expect(listing.body.files.map((item: any) => [item.uuid, item.my_role, item.shared])).toEqual([
      [inside, 'viewer', false],
    ]);
  });
});

describe('folio share', () => {
  it(
    'grants with {uuid}, updates the same grant when granting again, accepts and revokes it',
    { timeout: 120_000 },
    async () => {
      const owner = await makeUser();
      const colleague = await makeColleague(owner);
      const team = await makeFolder(owner, 'Team');

      const pending = await folio(
        'share',
        'grant',
        '--folder',
        team,
        '--user',
        colleague.uuid,
        '--role',
        'viewer',
        '--status',
        'pending',
      );
      expect(pending).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect((await call('GET', `/v1/drive/folders/${team}`, { token: colleague.token })).status).toBe(404);

      const again = await folio(
        'share',
        'grant',
        '--folder',
        team,
        '--user',
        colleague.uuid,
        '--role',
        'editor',
        '--status',
        'pending',
      );
      expect(again).toEqual(pending);
      const accepted = await folio('share', 'accept', pending.uuid);
      expect(accepted).toEqual({
        object: 'drive_access',
        uuid: pending.uuid,
        principal_type: 'user',
        principal_user_uuid: colleague.uuid,
        principal_workspace_uuid: null,
        principal_email: colleague.email,
        role: 'editor',
        status: 'accepted',
        ...timestamps,
      });
      expect((await call('GET', `/v1/drive/folders/${team}`, { token: colleague.token })).body.my_role).toBe(
        'editor',
      );

      const revoked = await folio('share', 'revoke', pending.uuid);
      expect(revoked).toEqual({ ...accepted, status: 'revoked', updated_at: expect.any(String) });
      expect(await folio('share', 'revoke', pending.uuid)).toEqual(revoked);
      expect((await call('GET', `/v1/drive/folders/${team}`, { token: colleague.token })).status).toBe(404);
      expect(await folioFails('share', 'accept', pending.uuid)).toContain('is revoked');

      // A new grant after a revoke is a new grant; it defaults to accepted.
      const fresh = await folio(
        'share',
        'grant',
        '--folder',
        team,
        '--workspace',
        owner.workspaceUuid,
        '--role',
        'commenter',
      );
      expect(fresh.uuid).not.toBe(pending.uuid);
      expect((await call('GET', `/v1/drive/folders/${team}`, { token: colleague.token })).body.my_role).toBe(
        'commenter',
      );
    },
  );

  it(
    'creates one public link per item, ready at once, with its url under FOLIO_PUBLIC_URL',
    { timeout: 120_000 },
    async () => {
      const owner = await makeUser();
      const file = await insertDriveFile(owner, { name: 'brochure.pdf' });
      const link = await folio('share', 'link', '--file', file);
      expect(link).toEqual({
        object: 'drive_public_link',
        uuid: expect.any(String),
        resource_type: 'file',
        resource_uuid: file,
        token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        url: `${config().publicUrl}/s/${link.token}`,
        status: 'ready',
        ...timestamps,
      });
      expect(await folio('share', 'link', '--file', file)).toEqual(link);
      expect(
        (await call('GET', `/v1/drive/files/${file}/sharing`, { token: owner.token })).body.public_link,
      ).toEqual(link);

      const team = await makeFolder(owner, 'Team');
      const folderLink = await folio('share', 'link', '--folder', team);
      expect(folderLink).toMatchObject({ resource_type: 'folder', resource_uuid: team, status: 'ready' });
      expect(folderLink.token).not.toBe(link.token);
    },
  );

  it(
    'refuses principals outside the workspace, bad roles and missing principals with a clear message',
    { timeout: 120_000 },
    async () => {
      const owner = await makeUser();
      const outsider = await makeUser();
      const file = await insertDriveFile(owner);
      expect(
        await folioFails('share', 'grant', '--file', file, '--user', outsider.uuid, '--role', 'viewer'),
      ).toContain('is not a member of the item');
      expect(
        await folioFails('share', 'grant', '--file', file, '--user', owner.uuid, '--role', 'owner'),
      ).toContain('must be one of viewer, commenter, editor, manager');
      expect(await folioFails('share', 'grant', '--file', file, '--role', 'viewer')).toContain(
        'exactly one principal',
      );
      expect(await db()('drive_grants').where({ item_uuid: file })).toEqual([]);
    },
  );

  it('refuses a workspace grant for another workspace, an unknown item or the wrong kind, and unknown or revoked grants', async () => {
    const owner = await makeUser();
    const outsider = await makeUser();
    const file = await insertDriveFile(owner);
    const attempt = (input: Partial<Parameters<typeof grantAccess>[1]>) =>
      db().transaction((tx) =>
        grantAccess(tx, {
          itemUuid: file,
          kind: 'file',
          principal: { type: 'user', userUuid: owner.uuid },
          role: 'viewer',
          status: 'accepted',
          ...input,
        }),
      );
    await expect(
      attempt({ principal: { type: 'workspace', workspaceUuid: outsider.workspaceUuid } }),
    ).rejects.toThrow("names the item's own workspace");
    await expect(attempt({})).rejects.toThrow('owns the item already');
    await expect(attempt({ kind: 'folder' })).rejects.toThrow(`No folder ${file}`);
    await expect(attempt({ itemUuid: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      'No file 00000000-0000-4000-8000-000000000000',
    );
    await expect(db().transaction((tx) => revokeGrant(tx, 'nope'))).rejects.toThrow('No grant nope');
    expect(await db()('drive_grants').where({ item_uuid: file })).toEqual([]);
  });

  it('shares a document with --document and revokes that grant', { timeout: 120_000 }, async () => {
    const owner = await makeUser();
    const colleague = await makeColleague(owner);
    const document = await makeDocument(owner, { title: 'Plan' });
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: colleague.token })).status).toBe(
      404,
    );

    const granted = await folio(
      'share',
      'grant',
      '--document',
      document.uuid,
      '--user',
      colleague.uuid,
      '--role',
      'commenter',
    );
    expect(granted).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(
      (await call('GET', `/v1/documents/${document.uuid}`, { token: colleague.token })).body.my_role,
    ).toBe('commenter');
    expect(await folioFails('share', 'accept', granted.uuid)).toContain(
      'share accept is for file and folder grants',
    );

    expect(await folio('share', 'revoke', granted.uuid)).toEqual({ uuid: granted.uuid, status: 'revoked' });
    expect((await call('GET', `/v1/documents/${document.uuid}`, { token: colleague.token })).status).toBe(
      404,
    );
  });

  it('prints help for the share commands', async () => {
    const { stdout } = await runFolio('share', '--help');
    for (const command of ['grant', 'accept', 'revoke', 'link']) expect(stdout).toContain(command);
  });
});
