// Sharing: grants on files and folders (user or workspace principals), public links, and the sharing
// settings a caller may read. Grant status transitions and what they announce in the feed: docs/drive-sharing.md.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';
import type { GrantRole } from '../roles.js';
import { isUuid } from '../uuid.js';
import { appendChanges } from './change-log.js';
import type { MasterKey } from './crypto.js';
import { ancestorUuids, findVisibleItem } from './items.js';
import type { ItemKind, ItemRow, VisibleItem } from './rows.js';
import { openPublicLinkToken, sealPublicLinkToken } from './sealed-tokens.js';

export const GRANT_ROLES = [
  'viewer',
  'commenter',
  'editor',
  'manager',
] as const satisfies readonly GrantRole[];
export type GrantStatus = 'pending' | 'accepted' | 'revoked';

export type GrantPrincipal =
  { type: 'user'; userUuid: string } | { type: 'workspace'; workspaceUuid: string };

export interface GrantRow {
  uuid: string;
  workspace_uuid: string;
  item_uuid: string;
  principal_type: 'user' | 'workspace';
  principal_user_uuid: string | null;
  principal_workspace_uuid: string | null;
  role: GrantRole;
  status: GrantStatus;
  created_at: Date;
  updated_at: Date;
  /** The user's email for a user grant; null for a workspace grant. */
  principal_email: string | null;
}

/** A link as the API presents it: the token unsealed and the url built from it (neither is stored in clear). */
export interface PublicLinkRow {
  uuid: string;
  item_uuid: string;
  resource_type: ItemKind;
  token: string;
  url: string;
  status: 'pending' | 'ready' | 'failed';
  created_at: Date;
  updated_at: Date;
}

/** A row of drive_public_links: the token only as its hash (the lookup) and sealed under the master key (to show it). */
interface StoredPublicLink {
  uuid: string;
  item_uuid: string;
  token_hash: Buffer;
  token_key_wrapped: Buffer;
  token_sealed: Buffer;
  status: PublicLinkRow['status'];
  created_at: Date;
  updated_at: Date;
}

/** What making or showing a link needs: the address links live under and the master key their tokens are sealed with. */
export interface PublicLinkKeys {
  publicUrl: string;
  masterKey: MasterKey;
}

export interface SharingSettings {
  item: VisibleItem;
  accesses: GrantRow[];
  publicLink: PublicLinkRow | null;
}

/** An operator mistake in a sharing command (unknown item, principal outside the workspace...). */
export class SharingError extends Error {
  override name = 'SharingError';
}

function selectGrants(knex: Knex) {
  return knex('drive_grants as g')
    .leftJoin('users as u', 'u.uuid', 'g.principal_user_uuid')
    .select('g.*', 'u.email as principal_email');
}

async function loadGrant(knex: Knex, uuid: string): Promise<GrantRow | undefined> {
  if (!isUuid(uuid)) return undefined;
  return (await selectGrants(knex).where('g.uuid', uuid).first()) as GrantRow | undefined;
}

/** Locks the item, so grant changes on one item apply one at a time. */
async function lockItem(tx: Knex.Transaction, uuid: string, kind: ItemKind): Promise<ItemRow> {
  const item = isUuid(uuid)
    ? ((await tx('drive_items').where({ uuid }).forUpdate().first()) as ItemRow | undefined)
    : undefined;
  // An item whose permanent delete is under way is gone already.
  if (!item || item.kind !== kind || item.deleted_at) throw new SharingError(`No ${kind} ${uuid}`);
  return item;
}

/**
 * Tells the feed that the item (and, when access changed, its whole subtree) looks different to someone:
 * version +1 and an update change each, parents first. Each change records the item's ancestors, so a reader
 * who just lost access through this share finds out (a delete in their feed; changes-feed.ts).
 */
async function announce(tx: Knex.Transaction, item: ItemRow, scope: 'item' | 'subtree'): Promise<void> {
  const above = await ancestorUuids(tx, item.parent_uuid);
  const result = await tx.raw(
    `with recursive sub(uuid, path) as (
       select uuid, array[]::uuid[] from drive_items where uuid = ?
       ${scope === 'subtree' ? 'union all select d.uuid, sub.uuid || sub.path from drive_items d join sub on d.parent_uuid = sub.uuid' : ''}
     )
     update drive_items i set version = i.version + 1 from sub where i.uuid = sub.uuid
     returning i.*, sub.path`,
    [item.uuid],
  );
  const rows = (result.rows as (ItemRow & { path: string[] })[]).sort(
    (a, b) => a.depth - b.depth || a.uuid.localeCompare(b.uuid),
  );
  const chains = new Map(rows.map((row) => [row.uuid, [...row.path, ...above]]));
  await appendChanges(tx, 'update', rows, (row) => chains.get(row.uuid) ?? above);
}

async function recordAudience(
  tx: Knex.Transaction,
  grant: Pick<
    GrantRow,
    'workspace_uuid' | 'item_uuid' | 'principal_type' | 'principal_user_uuid' | 'principal_workspace_uuid'
  >,
) {
  await tx('drive_share_audience')
    .insert({
      workspace_uuid: grant.workspace_uuid,
      item_uuid: grant.item_uuid,
      principal_type: grant.principal_type,
      principal_uuid: grant.principal_user_uuid ?? grant.principal_workspace_uuid,
    })
    .onConflict(['item_uuid', 'principal_type', 'principal_uuid'])
    .ignore();
}

/** What a grant change alters: who can reach the subtree (accepted role) or only the item's `shared` flag. */
async function announceGrantChange(
  tx: Knex.Transaction,
  item: ItemRow,
  before: Pick<GrantRow, 'role' | 'status'> | undefined,
  after: GrantRow,
) {
  const access = (grant: Pick<GrantRow, 'role' | 'status'> | undefined) =>
    grant?.status === 'accepted' ? grant.role : null;
  if (access(before) !== access(after)) {
    if (after.status === 'accepted') await recordAudience(tx, after);
    await announce(tx, item, 'subtree');
  } else if (before?.status !== after.status) {
    await announce(tx, item, 'item');
  }
}

async function checkPrincipal(tx: Knex.Transaction, item: ItemRow, principal: GrantPrincipal): Promise<void> {
  if (principal.type === 'workspace') {
    if (principal.workspaceUuid !== item.workspace_uuid) {
      throw new SharingError(
        `A workspace grant names the item's own workspace (${item.workspace_uuid}); Drive items are never shared across workspaces.`,
      );
    }
    return;
  }
  const member = isUuid(principal.userUuid)
    ? await tx('workspace_members')
        .where({ workspace_uuid: item.workspace_uuid, user_uuid: principal.userUuid })
        .first()
    : undefined;
  if (!member)
    throw new SharingError(
      `User ${principal.userUuid} is not a member of the item's workspace ${item.workspace_uuid}.`,
    );
  if (principal.userUuid === item.owner_uuid)
    throw new SharingError(`User ${principal.userUuid} owns the item already.`);
}

/**
 * Shares a file or folder with a user or the whole workspace. A principal holds one live grant per item:
 * granting again changes its role, and can move it from pending to accepted but never back.
 */
export async function grantAccess(
  tx: Knex.Transaction,
  input: {
    itemUuid: string;
    kind: ItemKind;
    principal: GrantPrincipal;
    role: GrantRole;
    status: Exclude<GrantStatus, 'revoked'>;
  },
): Promise<GrantRow> {
  const item = await lockItem(tx, input.itemUuid, input.kind);
  await checkPrincipal(tx, item, input.principal);
  const principalColumn =
    input.principal.type === 'user' ? 'principal_user_uuid' : 'principal_workspace_uuid';
  const principalUuid =
    input.principal.type === 'user' ? input.principal.userUuid : input.principal.workspaceUuid;
  const existing = (await tx('drive_grants')
    .where({ item_uuid: item.uuid, principal_type: input.principal.type, [principalColumn]: principalUuid })
    .whereNot('status', 'revoked')
    .first()) as GrantRow | undefined;

  let uuid: string;
  if (existing) {
    const status = existing.status === 'accepted' ? 'accepted' : input.status;
    if (existing.role !== input.role || existing.status !== status) {
      await tx('drive_grants')
        .where({ uuid: existing.uuid })
        .update({ role: input.role, status, updated_at: tx.fn.now() });
    }
    uuid = existing.uuid;
  } else {
    const [row] = await tx('drive_grants')
      .insert({
        workspace_uuid: item.workspace_uuid,
        item_uuid: item.uuid,
        principal_type: input.principal.type,
        [principalColumn]: principalUuid,
        role: input.role,
        status: input.status,
      })
      .returning('uuid');
    uuid = row.uuid;
  }
  const grant = (await loadGrant(tx, uuid))!;
  await announceGrantChange(tx, item, existing, grant);
  return grant;
}

/** pending → accepted; accepting an accepted grant changes nothing. A revoked grant stays revoked. */
export async function acceptGrant(tx: Knex.Transaction, grantUuid: string): Promise<GrantRow> {
  return changeGrantStatus(tx, grantUuid, 'accepted');
}

/** pending or accepted → revoked; revoking twice changes nothing. */
export async function revokeGrant(tx: Knex.Transaction, grantUuid: string): Promise<GrantRow> {
  return changeGrantStatus(tx, grantUuid, 'revoked');
}

async function changeGrantStatus(
  tx: Knex.Transaction,
  grantUuid: string,
  status: 'accepted' | 'revoked',
): Promise<GrantRow> {
  const found = await loadGrant(tx, grantUuid);
  if (!found) throw new SharingError(`No grant ${grantUuid}`);
  const item = (await tx('drive_items').where({ uuid: found.item_uuid }).forUpdate().first()) as ItemRow;
  const before = (await loadGrant(tx, grantUuid))!; // Re-read under the item lock.
  if (before.status === status) return before;
  if (before.status === 'revoked')
    throw new SharingError(`Grant ${grantUuid} is revoked; share the item again to give access.`);
  await tx('drive_grants').where({ uuid: grantUuid }).update({ status, updated_at: tx.fn.now() });
  const after = (await loadGrant(tx, grantUuid))!;
  await announceGrantChange(tx, item, before, after);
  return after;
}

/** Where a public link is opened: under the address clients reach the API at (FOLIO_PUBLIC_URL). */
export const publicLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/s/${token}`;

function toPublicLink(row: StoredPublicLink, kind: ItemKind, keys: PublicLinkKeys): PublicLinkRow {
  const token = openPublicLinkToken(keys.masterKey, row);
  return {
    uuid: row.uuid,
    item_uuid: row.item_uuid,
    resource_type: kind,
    token,
    url: publicLinkUrl(keys.publicUrl, token),
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Removes the item's public link, if it has one: its url stops working at once. Answers the removed link. */
export async function removePublicLink(
  tx: Knex.Transaction,
  input: { itemUuid: string; kind: ItemKind },
  keys: PublicLinkKeys,
): Promise<PublicLinkRow | null> {
  const item = await lockItem(tx, input.itemUuid, input.kind);
  const [removed] = (await tx('drive_public_links')
    .where({ item_uuid: item.uuid })
    .delete()
    .returning('*')) as StoredPublicLink[];
  if (!removed) return null;
  await announce(tx, item, 'item'); // Its `shared` flag may have just turned false.
  return toPublicLink(removed, item.kind, keys);
}

/** The upload of a file with a pending link completed: the bytes the link serves now exist. */
export async function markPublicLinkReady(tx: Knex.Transaction, itemUuid: string): Promise<void> {
  await tx('drive_public_links')
    .where({ item_uuid: itemUuid, status: 'pending' })
    .update({ status: 'ready', updated_at: tx.fn.now() });
}

/**
 * The item's public link, created on first use. Folio serves the live item, so the only copy to wait for is
 * the file's own upload: a link to a file still uploading is `pending` until the upload completes, any other
 * is `ready` at once; none becomes `failed` (docs/drive-sharing.md § Public links).
 */
export async function createPublicLink(
  tx: Knex.Transaction,
  input: { itemUuid: string; kind: ItemKind },
  keys: PublicLinkKeys,
): Promise<PublicLinkRow> {
  const item = await lockItem(tx, input.itemUuid, input.kind);
  const existing = (await tx('drive_public_links').where({ item_uuid: item.uuid }).first()) as
    StoredPublicLink | undefined;
  if (existing) return toPublicLink(existing, item.kind, keys);
  const token = randomBytes(24).toString('base64url');
  const status = item.upload_status === 'uploading' ? 'pending' : 'ready';
  // The uuid is chosen here because the sealed token binds it.
  const uuid = randomUUID();
  const [link] = (await tx('drive_public_links')
    .insert({ uuid, item_uuid: item.uuid, ...sealPublicLinkToken(keys.masterKey, uuid, token), status })
    .returning('*')) as StoredPublicLink[];
  await announce(tx, item, 'item'); // Its `shared` flag may have just turned true.
  return toPublicLink(link!, item.kind, keys);
}

/** The sharing settings of an item the caller can see (viewer or higher), else 404 not_found. */
export async function readSharing(
  knex: Knex,
  caller: Caller,
  uuid: string,
  kind: ItemKind,
  keys: PublicLinkKeys,
): Promise<SharingSettings> {
  const item = await findVisibleItem(knex, caller, uuid, { kind, needs: 'viewer', includeUploading: true });
  // Every direct grant, revoked ones included: the spec's drive_access status has `revoked`.
  const accesses = (await selectGrants(knex)
    .where('g.item_uuid', item.uuid)
    .orderBy([{ column: 'g.created_at' }, { column: 'g.uuid' }])) as GrantRow[];
  const link = (await knex('drive_public_links').where({ item_uuid: item.uuid }).first()) as
    StoredPublicLink | undefined;
  return { item, accesses, publicLink: link ? toPublicLink(link, item.kind, keys) : null };
}
