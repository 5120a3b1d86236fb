// Drive items: loading them with the caller's role, listing a folder and the trash, and the metadata changes
// (create a folder, rename, move, recolour). Trash, restore and delete are in trash.ts; the update routes'
// combined change is item-update.ts.
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';
import { notFound } from '../errors.js';
import { atLeast, ROLES, type Role } from '../roles.js';
import { isUuid } from '../uuid.js';
import { prepared } from '../prepared.js';
import { chainAccess, widensAccess } from './access-sources.js';
import { appendChange, appendChanges, lockWorkspaceChangeLog } from './change-log.js';
import { invalidField, invalidMove, missingRequiredFields, notAuthorized } from './errors.js';
import { NEEDS } from './roles.js';
import type { ItemGuard, ItemKind, ItemRow, PresentableItem, VisibleItem } from './rows.js';

/**
 * What every read of items selects, from what (one SQL text, so the builder below and the hot reads that skip it read
 * the same): the row, the caller's role, the share-root flag and the owner's names, as every route and the changes feed
 * show them. `trashed` is the effective state (the item or an ancestor is in the trash, docs/drive-trash.md § Effective
 * state) and `version` the presented one (its own counter plus its ancestors' epochs, § Versions), both from one walk
 * up the item's chain. The role is computed once per row: it walks the chain too (a query per folder), and both the
 * select list and the visibility test need it; OFFSET 0 keeps the planner from folding the subquery back in and calling
 * the function twice. `trashed` and `version` come after i.*: of two columns with one name, the row object keeps the
 * later one.
 */
const VISIBLE_COLUMNS = `i.*,
  s.trashed as trashed,
  i.version + s.epochs - i.epoch_base as version,
  r.my_role,
  (exists (select 1 from drive_grants g where g.item_uuid = i.uuid and g.status <> 'revoked')
   or exists (select 1 from drive_public_links l where l.item_uuid = i.uuid)) as shared,
  o.first_name as owner_first_name,
  o.last_name as owner_last_name`;
/** Where visible items come from; its two bindings are the caller's user and workspace (the role's arguments). */
const VISIBLE_FROM = `drive_items as i
  join users as o on o.uuid = i.owner_uuid
  cross join lateral drive_item_state(i.uuid) as s
  cross join lateral (select drive_effective_role(i.uuid, ?, ?) as my_role offset 0) as r`;
/** The conditions every visible row meets; bindings: the caller's workspace. */
const VISIBLE_WHERE = 'i.workspace_uuid = ? and r.my_role is not null';

/** Items the caller can see (see VISIBLE_COLUMNS), as a query to narrow down. */
export function selectVisible(knex: Knex, caller: Caller) {
  return knex
    .select(knex.raw(VISIBLE_COLUMNS))
    .from(knex.raw(VISIBLE_FROM, [caller.userUuid, caller.workspaceUuid]))
    .whereRaw(`(${VISIBLE_WHERE})`, [caller.workspaceUuid]);
}

/** findVisibleItem's statement for one combination of its options: its name and text, written once. */
const findVisibleStatements = new Map<string, { name: string; sql: string }>();

function visibleItemStatement(options: {
  kind: boolean;
  includeUploading: boolean;
  lock: 'update' | 'share' | undefined;
}): { name: string; sql: string } {
  const name = `visible_item_${options.kind ? 'kind' : 'any'}_${options.includeUploading ? 'all' : 'live'}_${options.lock ?? 'nolock'}`;
  let statement = findVisibleStatements.get(name);
  if (!statement) {
    let sql = `select ${VISIBLE_COLUMNS} from ${VISIBLE_FROM} where ${VISIBLE_WHERE} and i.uuid = ?`;
    if (options.kind) sql += ' and i.kind = ?';
    if (!options.includeUploading) sql += ` and i.upload_status is distinct from 'uploading'`;
    sql += ' limit 1';
    if (options.lock) sql += ` for ${options.lock} of i`;
    statement = { name, sql };
    findVisibleStatements.set(name, statement);
  }
  return statement;
}

/** The item if the caller can see it, else 404 not_found. With `needs`, 403 not_authorized below that role. */
export async function findVisibleItem(
  knex: Knex,
  caller: Caller,
  uuid: string,
  options: {
    kind?: ItemKind;
    needs?: Role;
    forUpdate?: boolean;
    forShare?: boolean;
    includeUploading?: boolean;
    guard?: ItemGuard;
  } = {},
): Promise<VisibleItem> {
  if (!isUuid(uuid)) throw notFound();
  const statement = visibleItemStatement({
    kind: Boolean(options.kind),
    includeUploading: Boolean(options.includeUploading),
    lock: options.forUpdate ? 'update' : options.forShare ? 'share' : undefined,
  });
  const bindings = [caller.userUuid, caller.workspaceUuid, caller.workspaceUuid, uuid];
  if (options.kind) bindings.push(options.kind);
  const { rows } = await prepared(knex, statement.name, statement.sql, bindings);
  const item = rows[0] as VisibleItem | undefined;
  if (!item) throw notFound();
  if (options.needs && !atLeast(item.my_role, options.needs)) throw notAuthorized();
  // Under the row lock when forUpdate: no other write to the item can land between this check and the caller's change.
  options.guard?.(item);
  return item;
}

const COLOR = /^#[0-9A-Fa-f]{6}$/;
const MAX_NAME_LENGTH = 255;

/** Names are trimmed of nothing; they must be non-blank, at most 255 characters, without / or NUL. */
export function checkName(name: string): string {
  if (name.trim() === '') throw missingRequiredFields(['name']);
  if (name.length > MAX_NAME_LENGTH || /[/\0]/.test(name) || name === '.' || name === '..') {
    throw invalidField(
      'name',
      'A name is at most 255 characters and has no "/" or NUL, and is not "." or "..".',
    );
  }
  return name;
}

/** `#RRGGBB`, or blank/null to clear (null). */
function checkColor(color: string | null): string | null {
  if (color === null || color === '') return null;
  if (!COLOR.test(color)) throw invalidField('color', 'A folder color is a #RRGGBB string.');
  return color.toUpperCase();
}

/**
 * Where a new or moved item goes: the Drive root of its owner (null) or a live folder on which the caller
 * is at least editor. Returns the folder's depth + 1.
 */
export async function resolveDestination(
  knex: Knex,
  caller: Caller,
  folderUuid: string | null,
): Promise<{ parentUuid: string | null; depth: number }> {
  if (folderUuid === null) return { parentUuid: null, depth: 0 };
  // FOR SHARE: a trash cascade batch updating this folder waits for us, or we see it trashed.
  const folder = await findVisibleItem(knex, caller, folderUuid, {
    kind: 'folder',
    needs: NEEDS.create,
    forShare: true,
  });
  // `trashed` is the effective state: a folder inside a trashed folder is in the trash too, cascade or not.
  if (folder.trashed) throw notFound('The destination folder is in the trash.');
  return { parentUuid: folder.uuid, depth: folder.depth + 1 };
}

/**
 * resolveDestination's rules as the CTE `destination` (uuid, depth of a new child, ok) of a one-statement write, for a
 * folder named by the bindings :folder, :user and :workspace: the folder locked FOR SHARE as there, `ok` when the
 * caller may create in it and it is not in the trash; no row when the caller cannot see it.
 */
export const DESTINATION_FOLDER = `destination as (
  select i.uuid, i.depth + 1 as depth,
    coalesce(r.my_role in (${ROLES.filter((role) => atLeast(role, NEEDS.create))
      .map((role) => `'${role}'`)
      .join(', ')}) and not s.trashed, false) as ok
  from drive_items as i
    cross join lateral drive_item_state(i.uuid) as s
    cross join lateral (select drive_effective_role(i.uuid, :user::uuid, :workspace::uuid) as my_role offset 0) as r
  where i.uuid = :folder::uuid and i.workspace_uuid = :workspace::uuid and i.kind = 'folder'
    and i.upload_status is distinct from 'uploading'
  for share of i)`;

/** A place that holds names: a folder, or one person's Drive root. */
export type NamePlace = { folderUuid: string } | { rootOf: Caller };

/**
 * Whether a live item (an upload in flight included) holds the name in the place, compared by drive_name_key (Unicode
 * normalisation and case, db/migrations/024_drive_name_key.ts): what the live-name unique indexes refuse. Names are
 * compared in SQL only, with that one function, so no check here can disagree with the indexes.
 *
 * Planned at every call, not a named prepared statement: a connection that ran it a few times while the table was
 * small keeps the generic plan it then chose (a scan of the workspace, or of the table), and a root that grows would
 * then cost every check a read of every item; planned with the values, it is one probe of the live-name index
 * (docs/benchmarks.md § session 13).
 */
export async function isNameTaken(knex: Knex, place: NamePlace, name: string): Promise<boolean> {
  const live =
    'select 1 from drive_items where drive_name_key(name) = drive_name_key(?) and not trashed and deleted_at is null';
  const { rows } = (await ('folderUuid' in place
    ? knex.raw(`${live} and parent_uuid = ? limit 1`, [name, place.folderUuid])
    : knex.raw(`${live} and parent_uuid is null and workspace_uuid = ? and owner_uuid = ? limit 1`, [
        name,
        place.rootOf.workspaceUuid,
        place.rootOf.userUuid,
      ]))) as { rows: unknown[] };
  return rows.length > 0;
}

/** Each name's drive_name_key, in order: the key a batch of renames claims before the indexes see it. */
export async function nameKeys(knex: Knex, names: string[]): Promise<string[]> {
  const { rows } = (await knex.raw(
    'select drive_name_key(n) as key from unnest(?::text[]) with ordinality as t(n, i) order by i',
    [names],
  )) as {
    rows: { key: string }[];
  };
  return rows.map((row) => row.key);
}

export async function ancestorUuids(knex: Knex, parentUuid: string | null): Promise<string[]> {
  if (!parentUuid) return [];
  const rows = await knex.raw(
    `with recursive up as (
       select uuid, parent_uuid, 0 as n from drive_items where uuid = ?
       union all
       select d.uuid, d.parent_uuid, up.n + 1 from drive_items d join up on d.uuid = up.parent_uuid
     ) select uuid from up order by n`,
    [parentUuid],
  );
  return rows.rows.map((row: { uuid: string }) => row.uuid);
}

export async function createFolder(
  tx: Knex.Transaction,
  caller: Caller,
  input: { name: string; parentUuid: string | null; color?: string | null },
): Promise<string> {
  const name = checkName(input.name);
  const color = input.color === undefined ? null : checkColor(input.color);
  const { parentUuid, depth } = await resolveDestination(tx, caller, input.parentUuid);
  const epochBase = await chainEpochs(tx, parentUuid);
  const [folder] = await tx('drive_items')
    .insert({
      workspace_uuid: caller.workspaceUuid,
      owner_uuid: caller.userUuid,
      kind: 'folder',
      parent_uuid: parentUuid,
      name,
      color,
      depth,
      epoch_base: epochBase,
    })
    .returning('*');
  await appendChange(tx, 'create', folder);
  return folder.uuid;
}

export interface MetadataChange {
  name?: string;
  /** A move: into a folder, or (null) to the owner's Drive root. */
  parentUuid?: string | null;
  /** `#RRGGBB`, or blank/null to clear. */
  color?: string | null;
}

/**
 * The epochs of a folder and of every folder above it (0 for a Drive root, null): what an item placed in it starts from
 * (`epoch_base`, docs/drive-trash.md § Versions).
 */
export async function chainEpochs(knex: Knex, folderUuid: string | null): Promise<number> {
  if (folderUuid === null) return 0;
  const { rows } = (await knex.raw('select drive_chain_epochs(?) as epochs', [folderUuid])) as {
    rows: { epochs: number }[];
  };
  return rows[0]!.epochs;
}

/**
 * Before an item leaves its ancestors: the change to its `epoch_base` that keeps its presented version (own counter +
 * ancestors' epochs - epoch_base) from falling or repeating under the new ones. Taken under the workspace's change-log
 * lock, which every Drive write holds until commit: an epoch above either place that changed before this read is
 * counted, and one that changes later commits after the move.
 */
export async function rebaseOnMove(
  tx: Knex.Transaction,
  item: ItemRow,
  newParentUuid: string | null,
): Promise<number> {
  await lockWorkspaceChangeLog(tx, item.workspace_uuid);
  return (await chainEpochs(tx, newParentUuid)) - (await chainEpochs(tx, item.parent_uuid));
}

/**
 * One more change to the row inside the same update, told whether the version was bumped already: the update
 * routes' trash flag (item-update.ts). It answers the row as it leaves it.
 */
export type FollowingChange = (row: ItemRow, versionBumped: boolean) => Promise<ItemRow>;

/**
 * Renames, moves and recolours an item (locked by the caller) in one change: version +1 and one update in the
 * feed, whatever else `then` changes on the row. A move also re-depths the subtree, and refuses a folder moving
 * into itself (422 invalid_move). Answers the row as it now stands.
 */
export async function updateItemMetadata(
  tx: Knex.Transaction,
  caller: Caller,
  item: ItemRow,
  change: MetadataChange,
  then?: FollowingChange,
): Promise<ItemRow> {
  const patch: Record<string, unknown> = {};
  if (change.name !== undefined) patch.name = checkName(change.name);
  if (change.color !== undefined) patch.color = checkColor(change.color);
  let moved: { oldAbove: string[]; newAbove: string[]; baseShift: number } | undefined;
  if (change.parentUuid !== undefined && change.parentUuid !== item.parent_uuid) {
    if (change.parentUuid === null && item.owner_uuid !== caller.userUuid) {
      throw notAuthorized('Only the owner can move an item to their Drive root.');
    }
    // The destination first: an unknown, malformed or invisible folder is 404 before its ancestors are read.
    const destination = await resolveDestination(tx, caller, change.parentUuid);
    const newAbove = await ancestorUuids(tx, change.parentUuid);
    if (item.kind === 'folder' && newAbove.includes(item.uuid)) throw invalidMove();
    const oldAbove = await ancestorUuids(tx, item.parent_uuid);
    // Moving never changes who owns an item, and only its owner may take it where more people reach it, or reach
    // it with a higher role (docs/drive-sharing.md § Moves and roles): else an editor could move a shared file into
    // their own folder and manage it (delete it for good) as that folder's owner.
    if (
      item.owner_uuid !== caller.userUuid &&
      widensAccess(await chainAccess(tx, oldAbove), await chainAccess(tx, newAbove), item.owner_uuid)
    ) {
      throw notAuthorized(
        'Only the owner can move this item there: the destination would give someone more access to it than it has now.',
      );
    }
    patch.parent_uuid = destination.parentUuid;
    patch.depth = destination.depth;
    const baseShift = await rebaseOnMove(tx, item, destination.parentUuid);
    patch.epoch_base = tx.raw('epoch_base + ?', [baseShift]);
    // Everything below a moved folder reads with a new version at once (its path, and maybe someone's my_role, changed).
    if (item.kind === 'folder') patch.epoch = tx.raw('epoch + 1');
    moved = { oldAbove, newAbove, baseShift };
  }
  const patched = Object.keys(patch).length > 0;
  let row = item;
  if (patched) {
    // Its own statement, before `then`: a new name is checked against the live siblings while the item is
    // still where it was (a rename refused as taken stays refused when the same request trashes the item).
    const [updated] = (await tx('drive_items')
      .where({ uuid: item.uuid })
      .update({ ...patch, version: tx.raw('version + 1'), updated_at: tx.fn.now() })
      .returning('*')) as ItemRow[];
    row = updated!;
  }
  if (then) row = await then(row, patched);
  if (row === item) return item;
  // Both chains, so the feed can tell readers who lost the item (old ancestors) and who gained it (new ones).
  const chain = moved ? [...new Set([...moved.oldAbove, ...moved.newAbove])] : [];
  await appendChange(tx, 'update', row, chain);
  if (moved && row.kind === 'folder') await announceMovedSubtree(tx, row, chain, moved.baseShift);
  return row;
}

/**
 * A folder's move changes the depth of everything below it and may change who can see it and with which role:
 * each descendant gets an update change recording the old and new ancestors, so readers who gained or lost the
 * subtree through a share are told, parents first as the feed requires. Each reads with a new version already, through
 * the folder's epoch, which the caller bumped (a reader whose my_role changed must not skip the change as a version
 * it holds, spec rule 4); its `epoch_base` moves by `baseShift` (rebaseOnMove) so that the folders it left and joined
 * above the moved one count no more.
 */
export async function announceMovedSubtree(
  tx: Knex.Transaction,
  folder: ItemRow,
  chainAbove: string[],
  baseShift: number,
): Promise<void> {
  const result = await tx.raw(
    `with recursive sub(uuid, path) as (
       select uuid, array[?::uuid] from drive_items where parent_uuid = ?
       union all select d.uuid, d.parent_uuid || sub.path from drive_items d join sub on d.parent_uuid = sub.uuid
     )
     update drive_items i set depth = ? + cardinality(sub.path), epoch_base = i.epoch_base + ? from sub where i.uuid = sub.uuid
     returning i.*, sub.path`,
    [folder.uuid, folder.uuid, folder.depth, baseShift],
  );
  const rows = (result.rows as (ItemRow & { path: string[] })[]).sort(
    (a, b) => a.depth - b.depth || a.uuid.localeCompare(b.uuid),
  );
  const chains = new Map(rows.map((row) => [row.uuid, [...row.path, ...chainAbove]]));
  await appendChanges(tx, 'update', rows, (row) => chains.get(row.uuid) ?? chainAbove);
}

/**
 * The live items of a folder the caller can see (404 otherwise), or of their own Drive root (null), by name.
 * Answers the folder's uuid as stored, with the items.
 */
export async function listFolder(
  knex: Knex,
  caller: Caller,
  folderUuid: string | null,
): Promise<{ folderUuid: string | null; items: PresentableItem[] }> {
  const visible = [caller.userUuid, caller.workspaceUuid, caller.workspaceUuid];
  if (folderUuid === null) {
    const { rows } = await prepared(knex, 'listed_root', LISTED_ROOT, [...visible, caller.userUuid]);
    return { folderUuid: null, items: rows as PresentableItem[] };
  }
  if (!isUuid(folderUuid)) throw notFound();
  const rows = (
    await prepared(knex, 'listed_folder', LISTED_FOLDER, [
      folderUuid,
      caller.workspaceUuid,
      caller.userUuid,
      caller.workspaceUuid,
      ...visible,
    ])
  ).rows as (PresentableItem & { listed_folder_uuid: string })[];
  if (!rows.length) throw notFound();
  return { folderUuid: rows[0]!.listed_folder_uuid, items: rows.filter((row) => row.uuid !== null) };
}

/**
 * What a listing reads of each item: the columns its answer shows (PresentableItem), the rest of VISIBLE_COLUMNS left
 * out, since parsing a column costs the API time on every row of every page.
 */
const LISTED_COLUMNS = `i.uuid, i.kind, i.parent_uuid, i.name, i.content_type, i.file_size_bytes, i.upload_status, i.color,
  s.trashed as trashed,
  i.has_preview,
  i.version + s.epochs - i.epoch_base as version,
  i.ctag, i.content_hash, i.created_at, i.updated_at,
  r.my_role,
  (exists (select 1 from drive_grants g where g.item_uuid = i.uuid and g.status <> 'revoked')
   or exists (select 1 from drive_public_links l where l.item_uuid = i.uuid)) as shared,
  i.owner_uuid,
  o.first_name as owner_first_name,
  o.last_name as owner_last_name`;

/**
 * An item for a GET to answer (presentFile, presentFolder) if the caller can see it, else 404 not_found: findVisibleItem
 * without the columns no answer shows (LISTED_COLUMNS), which pg would otherwise parse on every read. A file is found
 * while it uploads too; a folder never uploads.
 */
export async function findPresentableItem(
  knex: Knex,
  caller: Caller,
  uuid: string,
  kind: ItemKind,
): Promise<PresentableItem> {
  if (!isUuid(uuid)) throw notFound();
  const { rows } = await prepared(knex, 'presentable_item', PRESENTABLE_ITEM, [
    caller.userUuid,
    caller.workspaceUuid,
    caller.workspaceUuid,
    uuid,
    kind,
  ]);
  const item = rows[0] as PresentableItem | undefined;
  if (!item) throw notFound();
  return item;
}

/**
 * The live children a listing shows: under a live folder a live row is live, and a trashed row may be coming back with
 * a restore still running. Bindings: those of VISIBLE_FROM and VISIBLE_WHERE; the caller narrows it to one place.
 */
const LISTED_CHILDREN = `select ${LISTED_COLUMNS} from ${VISIBLE_FROM}
  where ${VISIBLE_WHERE} and (i.trashed = false or not s.trashed) and i.upload_status is distinct from 'uploading'`;

/** findPresentableItem's statement; bindings: those of VISIBLE_FROM and VISIBLE_WHERE, the uuid and the kind. */
const PRESENTABLE_ITEM = `select ${LISTED_COLUMNS} from ${VISIBLE_FROM}
  where ${VISIBLE_WHERE} and i.uuid = ? and i.kind = ? limit 1`;

/** A Drive root's listing; bindings: those of LISTED_CHILDREN, then the caller's user. */
const LISTED_ROOT = `${LISTED_CHILDREN} and i.parent_uuid is null and i.owner_uuid = ? order by i.name, i.uuid`;

/**
 * One round trip: the folder as findVisibleItem would find it, and its children beside it (none when the folder is in
 * the trash: everything inside a folder in the trash is in the trash, whether its cascade has reached it or not).
 * Bindings: the folder's uuid, the caller's workspace, user and workspace, then those of LISTED_CHILDREN.
 */
const LISTED_FOLDER = `select f.uuid as listed_folder_uuid, c.*
  from (select i.uuid, drive_item_trashed(i.uuid) as effective_trashed from drive_items as i
        where i.uuid = ? and i.workspace_uuid = ? and i.kind = 'folder' and i.upload_status is distinct from 'uploading'
          and drive_effective_role(i.uuid, ?, ?) is not null) as f
  left join lateral (${LISTED_CHILDREN} and i.parent_uuid = f.uuid) as c on not f.effective_trashed
  order by c.name, c.uuid`;

/**
 * Every item in the trash the caller can see: trashed rows (less those a running restore brings back) and the
 * live rows under a trashed folder that its cascade has not reached yet. Most recently trashed first; the ones
 * still waiting for their cascade (no trashed_at of their own yet) come first.
 */
export async function listTrash(knex: Knex, caller: Caller): Promise<VisibleItem[]> {
  const underTrashedFolders = `with recursive under(uuid) as (
       select uuid from drive_items where workspace_uuid = ? and kind = 'folder' and trashed and deleted_at is null
       union
       select c.uuid from under u
       cross join lateral (select c.uuid from drive_items c
                            where c.parent_uuid = u.uuid and c.kind = 'folder' and not c.trashed and c.deleted_at is null) c
     )
     select c.uuid from under u join drive_items c on c.parent_uuid = u.uuid where not c.trashed and c.deleted_at is null`;
  return (await selectVisible(knex, caller)
    .where((q) =>
      q.where('i.trashed', true).orWhereRaw(`i.uuid in (${underTrashedFolders})`, [caller.workspaceUuid]),
    )
    .whereRaw('s.trashed')
    .orderBy([
      { column: 'i.trashed_at', order: 'desc' },
      { column: 'i.uuid', order: 'asc' },
    ])) as VisibleItem[];
}
