// Drive names are unique among live siblings after Unicode normalisation and case folding, and stored as given: every
// way a name arrives (folder create, simple and chunked upload, rename, move, restore, a restore's cascade) and the
// migration that renames siblings that already collide (docs/drive.md § Items and names; issue 22, row 7).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import * as driveNameKey from '../../../db/migrations/024_drive_name_key.js';
import { migrateLatest } from '../../../db/migrate.js';
import { createDatabaseIfMissing, dropDatabase } from '../../../deploy/local/services.js';
import { createDb, db } from '../../../platform/database.js';
import { closeTemporalClient } from '../../../platform/temporal.js';
import { call, insertDriveFile, makeFolder, makeUser, type TestUser } from '../../support/api.js';
import { settle } from '../../support/cascades.js';
import { simpleDownload, simpleUpload } from '../../support/drive-files.js';
import { row, watchItem } from '../../support/drive-rows.js';

afterAll(closeTemporalClient);

// One name in Unicode's two normal forms: é precomposed (NFC, what Windows and most keyboards send) and e + U+0301
// (NFD, what macOS file systems hand a client).
const NFC = 'caf\u00e9.txt';
const NFD = 'cafe\u0301.txt';
const UPPER_NFD = 'CAFE\u0301.txt';

const upload = (user: TestUser, name: string, text: string, folderUuid: string | null = null) =>
  call('POST', '/v1/drive/files', {
    token: user.token,
    json: {
      name,
      content_type: 'text/plain',
      data: Buffer.from(text).toString('base64'),
      ...(folderUuid ? { folder_uuid: folderUuid } : {}),
    },
  });

const listed = async (user: TestUser, folderUuid: string | null = null) => {
  const response = await call('GET', `/v1/drive/files${folderUuid ? `?folder_uuid=${folderUuid}` : ''}`, {
    token: user.token,
  });
  return {
    files: response.body.files.map((f: { name: string }) => f.name),
    folders: response.body.folders.map((f: { name: string }) => f.name),
  };
};

describe('Drive names under Unicode normalisation', () => {
  it('refuses an upload of the NFD form of a live sibling NFC name with 422 name_taken; the first keeps its bytes', async () => {
    expect(NFD).not.toBe(NFC);
    const user = await makeUser();
    const folder = await makeFolder(user, 'Notes');
    const first = await upload(user, NFC, 'first bytes', folder);
    expect(first.status).toBe(201);

    const second = await upload(user, NFD, 'second bytes', folder);

    expect(second.status).toBe(422);
    expect(second.body).toEqual({ error: 'name_taken' });
    expect((await simpleDownload(user, first.body.uuid)).toString()).toBe('first bytes');
    expect(await listed(user, folder)).toEqual({ files: [NFC], folders: [] });
  });

  it('stores and answers a name exactly as given (NFD stays NFD), and refuses its NFC form at the root', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, NFD, Buffer.from('decomposed'));
    expect(file.name).toBe(NFD);

    const again = await upload(user, NFC, 'composed');

    expect(again.status).toBe(422);
    expect(again.body).toEqual({ error: 'name_taken' });
    expect((await call('GET', `/v1/drive/files/${file.uuid}`, { token: user.token })).body.name).toBe(NFD);
    expect(await listed(user)).toEqual({ files: [NFD], folders: [] });
    expect((await row(file.uuid)).name).toBe(NFD);
  });

  it('refuses a chunked upload initiate of a normalisation variant with 422 name_taken, reserving nothing', async () => {
    const user = await makeUser();
    await simpleUpload(user, NFC, Buffer.from('x'));

    const response = await call('POST', '/v1/drive/uploads', {
      token: user.token,
      json: { name: NFD, content_type: 'text/plain', plaintext_size_bytes: 1024 },
    });

    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
    expect(await db()('drive_items').where({ owner_uuid: user.uuid })).toHaveLength(1);
  });

  it('refuses a folder create of a normalisation variant with 422 name_taken (the unique index alone decides)', async () => {
    const user = await makeUser();
    const parent = await makeFolder(user, 'Parent');
    const created = await call('POST', '/v1/drive/folders', {
      token: user.token,
      json: { name: 'R\u00e9sum\u00e9s', parent_uuid: parent },
    });
    expect(created.status).toBe(201);

    const variant = await call('POST', '/v1/drive/folders', {
      token: user.token,
      json: { name: 'Re\u0301sume\u0301s', parent_uuid: parent },
    });

    expect(variant.status).toBe(422);
    expect(variant.body).toEqual({ error: 'name_taken' });
    expect(await listed(user, parent)).toEqual({ files: [], folders: ['R\u00e9sum\u00e9s'] });
  });

  it('refuses case and normalisation together: CAFÉ.txt (NFD) beside café.txt (NFC)', async () => {
    const user = await makeUser();
    await simpleUpload(user, NFC, Buffer.from('lower'));

    const response = await upload(user, UPPER_NFD, 'upper');

    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
  });

  it('refuses a rename to a normalisation variant of a sibling with 422 name_taken and changes nothing', async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'Inbox');
    await insertDriveFile(user, { name: NFC, folderUuid: folder });
    const other = await insertDriveFile(user, { name: 'draft.txt', folderUuid: folder });
    const watched = await watchItem(other);

    const response = await call('POST', `/v1/drive/files/${other}`, {
      token: user.token,
      json: { name: UPPER_NFD },
    });

    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
    await watched.expectUnchanged();
  });

  it('refuses a move into a folder holding a normalisation variant with 422 name_taken and changes nothing', async () => {
    const user = await makeUser();
    const target = await makeFolder(user, 'Target');
    await insertDriveFile(user, { name: NFC, folderUuid: target });
    const moving = await insertDriveFile(user, { name: NFD });
    const movingFolder = await makeFolder(user, 'Re\u0301sume\u0301s');
    await makeFolder(user, 'R\u00e9sum\u00e9s', target);
    const watchedFile = await watchItem(moving);
    const watchedFolder = await watchItem(movingFolder);

    const file = await call('POST', `/v1/drive/files/${moving}`, {
      token: user.token,
      json: { folder_uuid: target },
    });
    const folder = await call('POST', `/v1/drive/folders/${movingFolder}`, {
      token: user.token,
      json: { parent_uuid: target },
    });

    expect(file.status).toBe(422);
    expect(file.body).toEqual({ error: 'name_taken' });
    expect(folder.status).toBe(422);
    expect(folder.body).toEqual({ error: 'name_taken' });
    await watchedFile.expectUnchanged();
    await watchedFolder.expectUnchanged();
  });

  it('refuses to restore an item whose name a normalisation variant took meanwhile with 422 name_taken', async () => {
    const user = await makeUser();
    const trashed = await simpleUpload(user, NFC, Buffer.from('old'));
    expect((await call('POST', `/v1/drive/files/${trashed.uuid}/trash`, { token: user.token })).status).toBe(
      200,
    );
    expect((await upload(user, NFD, 'new')).status).toBe(201);
    const watched = await watchItem(trashed.uuid);

    const response = await call('POST', `/v1/drive/files/${trashed.uuid}`, {
      token: user.token,
      json: { trashed: false },
    });

    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: 'name_taken' });
    await watched.expectUnchanged();
  });

  it("renames what a restore's cascade brings back into a normalisation variant's name, as name (n).ext", async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'Shelf');
    const composed = await insertDriveFile(user, { name: NFC, folderUuid: folder });
    expect((await call('POST', `/v1/drive/folders/${folder}/trash`, { token: user.token })).status).toBe(200);
    await settle(folder);
    // Trashed with the folder beside its normalisation variant (as before migration 024 made them one name), and a
    // live sibling that took the name meanwhile (a race with the restore): both clash, with it and with each other.
    const decomposed = await insertDriveFile(user, { name: UPPER_NFD, folderUuid: folder });
    const { trashed_at } = await row(folder);
    await db()('drive_items')
      .where({ uuid: decomposed })
      .update({ trashed: true, trashed_with: folder, trashed_at });
    const live = await insertDriveFile(user, { name: 'Caf\u00e9.txt', folderUuid: folder });

    const response = await call('POST', `/v1/drive/folders/${folder}`, {
      token: user.token,
      json: { trashed: false },
    });

    expect(response.status).toBe(200);
    expect(await settle(folder)).toEqual({ outcome: 'completed', itemsChanged: 2 });
    const names = {
      composed: (await row(composed)).name,
      decomposed: (await row(decomposed)).name,
      live: (await row(live)).name,
    };
    expect(names.live).toBe('Caf\u00e9.txt');
    // Each keeps its own spelling, with the first number free of the other's.
    expect([`caf\u00e9 (1).txt`, `caf\u00e9 (2).txt`]).toContain(names.composed);
    expect([`CAFE\u0301 (1).txt`, `CAFE\u0301 (2).txt`]).toContain(names.decomposed);
    expect(names.composed.slice(-7, -5)).not.toBe(names.decomposed.slice(-7, -5));
    expect((await listed(user, folder)).files).toHaveLength(3);
  });

  it('lower-cases but does not fully case-fold: Straße and STRASSE are two names, STRÖME (NFD) and ströme are one', async () => {
    const user = await makeUser();
    const folder = await makeFolder(user, 'German');
    expect((await upload(user, 'Stra\u00dfe.txt', 'a', folder)).status).toBe(201);
    expect((await upload(user, 'STRASSE.txt', 'b', folder)).status).toBe(201);
    expect((await upload(user, 'str\u00f6me.txt', 'c', folder)).status).toBe(201);

    const variant = await upload(user, 'STRO\u0308ME.txt', 'd', folder);

    expect(variant.status).toBe(422);
    expect(variant.body).toEqual({ error: 'name_taken' });
    expect((await listed(user, folder)).files.sort()).toEqual(
      ['STRASSE.txt', 'Stra\u00dfe.txt', 'str\u00f6me.txt'].sort(),
    );
  });

  it("keys names in SQL as JavaScript's NFD, toLowerCase(), NFC would, whatever the database's locale", async () => {
    // Full lowercase mapping (İ → i + U+0307, final sigma), compatibility characters left alone (ﬁ, ㎏), canonical
    // singletons folded (Ångström sign), Hangul syllables and their jamo one name.
    const names = [
      'CAF\u00c9',
      UPPER_NFD,
      '\u0130stanbul',
      '\u03a3\u0391\u03a3',
      '\u212b',
      '\u00c5',
      '\ufb01le',
      '\u338f',
      '\u1100\u1161',
      '\uac00',
      'Stra\u00dfe',
      'STRASSE',
      'Dz\u01c4',
    ];
    const { rows } = (await db().raw(
      'select n, drive_name_key(n) as key, drive_name_key(n collate "C") as c_key from unnest(?::text[]) as t(n)',
      [names],
    )) as {
      rows: { n: string; key: string; c_key: string }[];
    };
    for (const { n, key, c_key } of rows) {
      expect(key).toBe(n.normalize('NFD').toLowerCase().normalize('NFC'));
      expect(c_key).toBe(key);
    }
  });
});

describe('migration 024: live siblings that already collide under the new key', () => {
  it(
    'keeps the name for the first created, renames each later one name (n).ext with a change, and records it',
    { timeout: 120_000 },
    async () => {
      const serverUrl = process.env.FOLIO_DATABASE_URL!.replace(/\/[^/]*$/, '');
      const database = `folio_names_${randomUUID().slice(0, 8)}`;
      await createDatabaseIfMissing(serverUrl, database);
      const knex = createDb(`${serverUrl}/${database}`);
      try {
        await migrateLatest(knex);
        // Back to the indexes before 024 (lower(name) only), so the rows below can exist as they could then.
        await knex.transaction((tx) => driveNameKey.down(tx));
        const [workspace] = await knex('workspaces')
          .insert({ name: 'names', storage_limit_bytes: 1_000_000 })
          .returning('uuid');
        const [owner] = await knex('users').insert({ email: 'names@example.test' }).returning('uuid');
        const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
        const item = async (
          name: string,
          second: number,
          extra: Record<string, unknown> = {},
        ): Promise<string> => {
          const [inserted] = await knex('drive_items')
            .insert({
              workspace_uuid: workspace.uuid,
              owner_uuid: owner.uuid,
              kind: 'file',
              upload_status: 'completed',
              name,
              created_at: at(second),
              ...extra,
            })
            .returning('uuid');
          return inserted.uuid;
        };
        // Before 024, siblings differing in case only already collided; those differing in normal form did not.
        const first = await item(NFC, 1);
        const taken = await item('caf\u00e9 (1).txt', 2);
        const later = await item(UPPER_NFD, 3);
        const trashed = await item(NFD, 4, { trashed: true, trashed_at: at(4) });
        const folder = await item('Notes', 0, { kind: 'folder', upload_status: null });
        const inFolder = await item('Re\u0301sume\u0301.pdf', 5, { parent_uuid: folder, depth: 1 });
        const inFolderLater = await item('r\u00e9sum\u00e9.PDF', 6, { parent_uuid: folder, depth: 1 });
        const inFolderFirst = await item(NFC, 7, { parent_uuid: folder, depth: 1 });
        const uploading = await item(UPPER_NFD, 8, {
          parent_uuid: folder,
          depth: 1,
          upload_status: 'uploading',
        });
        const otherOwner = (await knex('users').insert({ email: 'other@example.test' }).returning('uuid'))[0]
          .uuid;
        const elsewhere = await item(NFD, 9, { owner_uuid: otherOwner });

        await knex.transaction((tx) => driveNameKey.up(tx));

        const rows = new Map(
          (await knex('drive_items').select('uuid', 'name', 'version')).map((r) => [r.uuid, r]),
        );
        const items = [
          first,
          taken,
          later,
          trashed,
          inFolder,
          inFolderLater,
          inFolderFirst,
          uploading,
          elsewhere,
        ];
        expect(Object.fromEntries(items.map((uuid) => [uuid, rows.get(uuid)]))).toEqual({
          [first]: { uuid: first, name: NFC, version: 1 },
          [taken]: { uuid: taken, name: 'caf\u00e9 (1).txt', version: 1 },
          [later]: { uuid: later, name: 'CAFE\u0301 (2).txt', version: 2 },
          [trashed]: { uuid: trashed, name: NFD, version: 1 },
          [inFolder]: { uuid: inFolder, name: 'Re\u0301sume\u0301.pdf', version: 1 },
          [inFolderLater]: { uuid: inFolderLater, name: 'r\u00e9sum\u00e9 (1).PDF', version: 2 },
          [inFolderFirst]: { uuid: inFolderFirst, name: NFC, version: 1 },
          [uploading]: { uuid: uploading, name: 'CAFE\u0301 (1).txt', version: 2 },
          [elsewhere]: { uuid: elsewhere, name: NFD, version: 1 },
        });
        // A change for each rename a reader can see (an upload in flight gets its create change at completion).
        const changes = await knex('drive_changes')
          .orderBy('seq')
          .select('item_uuid', 'change_type', 'item_version', 'parent_uuid');
        expect(changes).toEqual([
          { item_uuid: later, change_type: 'update', item_version: 2, parent_uuid: null },
          { item_uuid: inFolderLater, change_type: 'update', item_version: 2, parent_uuid: folder },
        ]);
        const renames = await knex('drive_name_key_renames')
          .orderBy('renamed_at')
          .select('item_uuid', 'workspace_uuid', 'old_name', 'new_name');
        expect(renames.sort((a, b) => a.new_name.localeCompare(b.new_name))).toEqual(
          [
            {
              item_uuid: later,
              workspace_uuid: workspace.uuid,
              old_name: UPPER_NFD,
              new_name: 'CAFE\u0301 (2).txt',
            },
            {
              item_uuid: inFolderLater,
              workspace_uuid: workspace.uuid,
              old_name: 'r\u00e9sum\u00e9.PDF',
              new_name: 'r\u00e9sum\u00e9 (1).PDF',
            },
            {
              item_uuid: uploading,
              workspace_uuid: workspace.uuid,
              old_name: UPPER_NFD,
              new_name: 'CAFE\u0301 (1).txt',
            },
          ].sort((a, b) => a.new_name.localeCompare(b.new_name)),
        );
        // The database now refuses a variant itself.
        await expect(item('CAF\u00c9.txt', 9)).rejects.toMatchObject({
          code: '23505',
          constraint: 'drive_items_live_name_at_root',
        });
      } finally {
        await knex.destroy();
        await dropDatabase(serverUrl, database);
      }
    },
  );
});
