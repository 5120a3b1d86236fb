// Drive names are unique among live siblings after Unicode normalisation and case folding, not only case: `café.txt`
// typed as NFC (é) and as NFD (e + U+0301) is one name (issue 22). Names stay stored as given; the live-name indexes
// compare drive_name_key(name). Live siblings that already collide under the new key are renamed here, the later
// one as a restore does (`name (1).ext`), with a change each and a row in drive_name_key_renames (docs/drive.md).
import type { Knex } from 'knex';

// The key compares names as Unicode's canonical caseless match does (D145: decompose, fold, compose): canonical
// equivalents are one name, and so are names that differ only in case. lower() under the ICU root collation is
// Unicode's full lowercase mapping (what JavaScript's toLowerCase() does: `İ` → `i̇`, a final `Σ` → `ς`), the same on
// every server whatever the database's locale (a C locale's lower() folds ASCII only). It is not full case folding:
// `Straße` and `STRASSE` stay two names (PostgreSQL 15 has no casefold(); Windows keeps them apart too).
// Never CREATE OR REPLACE it: the unique indexes hold its results, so another key is another function and new indexes.
const NAME_KEY_FUNCTION = `
  CREATE FUNCTION drive_name_key(name text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN normalize(lower(normalize(name, NFD) COLLATE "und-x-icu"), NFC)`;

const liveNameIndexes = (key: (column: string) => string) => [
  `CREATE UNIQUE INDEX drive_items_live_name_in_folder ON drive_items (parent_uuid, ${key('name')})
     WHERE parent_uuid IS NOT NULL AND NOT trashed AND deleted_at IS NULL`,
  `CREATE UNIQUE INDEX drive_items_live_name_at_root ON drive_items (workspace_uuid, owner_uuid, ${key('name')})
     WHERE parent_uuid IS NULL AND NOT trashed AND deleted_at IS NULL`,
];

const MAX_NAME_LENGTH = 255;

/** `name (n).ext` within 255 UTF-16 units (what the API's name check counts), never splitting a surrogate pair. */
function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  let [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  if (` (${n})${extension}`.length >= MAX_NAME_LENGTH) [stem, extension] = [name, ''];
  const suffix = ` (${n})${extension}`;
  let kept = stem.slice(0, MAX_NAME_LENGTH - suffix.length);
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return kept + suffix;
}

interface Loser {
  uuid: string;
  workspace_uuid: string;
  owner_uuid: string;
  parent_uuid: string | null;
  kind: string;
  name: string;
  upload_status: string | null;
}

/**
 * Live siblings whose names now collide keep the name for the one created first; each later one gets the first free
 * `name (n).ext`, a version, an update change (unless it is still uploading: its create change comes at completion,
 * with the name it then has) and a row in drive_name_key_renames.
 */
async function renameCollisions(knex: Knex): Promise<void> {
  const { rows: losers } = (await knex.raw(
    `select uuid, workspace_uuid, owner_uuid, parent_uuid, kind, name, upload_status from (
       select i.*, row_number() over (
                     partition by parent_uuid,
                                  case when parent_uuid is null then workspace_uuid end,
                                  case when parent_uuid is null then owner_uuid end,
                                  drive_name_key(name)
                     order by created_at, uuid) as place
         from drive_items i
        where not trashed and deleted_at is null
     ) ranked
     where place > 1
     order by created_at, uuid`,
  )) as { rows: Loser[] };
  for (const loser of losers) {
    let name: string;
    for (let n = 1; ; n++) {
      name = numberedName(loser.name, n);
      const siblings = knex('drive_items')
        .whereRaw('drive_name_key(name) = drive_name_key(?)', [name])
        .where({ trashed: false })
        .whereNull('deleted_at');
      if (loser.parent_uuid) siblings.where({ parent_uuid: loser.parent_uuid });
      else
        siblings
          .whereNull('parent_uuid')
          .where({ workspace_uuid: loser.workspace_uuid, owner_uuid: loser.owner_uuid });
      if (!(await siblings.first('uuid'))) break;
    }
    const [renamed] = (await knex('drive_items')
      .where({ uuid: loser.uuid })
      .update({ name, version: knex.raw('version + 1'), updated_at: knex.fn.now() })
      .returning(['version'])) as { version: number }[];
    await knex('drive_name_key_renames').insert({
      item_uuid: loser.uuid,
      workspace_uuid: loser.workspace_uuid,
      old_name: loser.name,
      new_name: name,
    });
    if (loser.upload_status === 'uploading') continue;
    // As domain/drive/change-log.ts appends: under the workspace's change-log lock, so seq order stays commit order.
    await knex.raw(`select pg_advisory_xact_lock(hashtextextended('drive_changes:' || ?, 0))`, [
      loser.workspace_uuid,
    ]);
    await knex('drive_changes').insert({
      workspace_uuid: loser.workspace_uuid,
      item_uuid: loser.uuid,
      resource_type: loser.kind,
      change_type: 'update',
      item_version: renamed!.version,
      parent_uuid: loser.parent_uuid,
      owner_uuid: loser.owner_uuid,
    });
  }
}

export async function up(knex: Knex): Promise<void> {
  const { rows } = (await knex.raw(
    `select current_setting('server_encoding') as encoding, exists (select 1 from pg_collation where collname = 'und-x-icu') as icu`,
  )) as { rows: { encoding: string; icu: boolean }[] };
  if (rows[0]!.encoding !== 'UTF8' || !rows[0]!.icu) {
    throw new Error(
      `Drive names need a UTF8 database on a PostgreSQL built with ICU (normalize() and the "und-x-icu" collation); this one is ${rows[0]!.encoding}${rows[0]!.icu ? '' : ' without ICU'}.`,
    );
  }
  await knex.raw(NAME_KEY_FUNCTION);
  await knex.raw('DROP INDEX drive_items_live_name_in_folder');
  await knex.raw('DROP INDEX drive_items_live_name_at_root');
  await knex.schema.createTable('drive_name_key_renames', (t) => {
    // No foreign key: the record outlives the item (an operator answering "where did my file go?" after a delete).
    t.uuid('item_uuid').primary();
    t.uuid('workspace_uuid').notNullable();
    t.text('old_name').notNullable();
    t.text('new_name').notNullable();
    t.timestamp('renamed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await renameCollisions(knex);
  for (const statement of liveNameIndexes((column) => `drive_name_key(${column})`)) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  // The renames stay: the old names collide under the key, and nothing after this migration could tell them apart.
  await knex.raw('DROP INDEX drive_items_live_name_in_folder');
  await knex.raw('DROP INDEX drive_items_live_name_at_root');
  for (const statement of liveNameIndexes((column) => `lower(${column})`)) await knex.raw(statement);
  await knex.schema.dropTableIfExists('drive_name_key_renames');
  await knex.raw('DROP FUNCTION drive_name_key(text)');
}
