// What a chain of folders gives the people who can reach an item through it, and the move rule built on it:
// a move by someone other than the item's owner may not widen who reaches the item, or how far (docs/drive-sharing.md
// § Moves and roles). The roles themselves are computed by the SQL function drive_effective_role; this reads the same
// two sources it does: owning a folder above (manager) and accepted grants on a folder above.
import type { Knex } from 'knex';
import type { GrantRole } from '../roles.js';

/** Who a source reaches: one user, or every member of the item's workspace (a workspace grant). */
export type Principal = `user:${string}` | 'workspace';

/** Per principal, the best rank a folder chain gives: 1 viewer, 2 commenter, 3 editor, 4 manager. */
export type ChainAccess = Map<Principal, number>;

const RANK: Record<GrantRole, number> = { viewer: 1, commenter: 2, editor: 3, manager: 4 };
const OWNS_A_FOLDER_ABOVE = RANK.manager;

export const userPrincipal = (userUuid: string): Principal => `user:${userUuid}`;

/** What the given folders (an item's ancestors) give, as drive_effective_role counts it: ownership and accepted grants. */
export async function chainAccess(knex: Knex, folderUuids: string[]): Promise<ChainAccess> {
  const access: ChainAccess = new Map();
  if (!folderUuids.length) return access;
  const raise = (principal: Principal, rank: number) =>
    access.set(principal, Math.max(access.get(principal) ?? 0, rank));
  const owners = (await knex('drive_items').whereIn('uuid', folderUuids).select('owner_uuid')) as {
    owner_uuid: string;
  }[];
  for (const { owner_uuid } of owners) raise(userPrincipal(owner_uuid), OWNS_A_FOLDER_ABOVE);
  const grants = (await knex('drive_grants')
    .whereIn('item_uuid', folderUuids)
    .where({ status: 'accepted' })
    .select('principal_type', 'principal_user_uuid', 'role')) as {
    principal_type: 'user' | 'workspace';
    principal_user_uuid: string | null;
    role: GrantRole;
  }[];
  for (const grant of grants)
    raise(
      grant.principal_type === 'workspace' ? 'workspace' : userPrincipal(grant.principal_user_uuid!),
      RANK[grant.role],
    );
  return access;
}

/**
 * True when `after` gives some principal more than `before` did: a user a higher rank than their own and every
 * workspace grant in `before` together, or the workspace more than it had. `exempt` (the moved item's owner) is
 * left out: they own the item, and manage everything below it through it, whatever is above.
 */
export function widensAccess(before: ChainAccess, after: ChainAccess, exempt: string): boolean {
  const everyone = before.get('workspace') ?? 0;
  for (const [principal, rank] of after) {
    if (principal === userPrincipal(exempt)) continue;
    const had = principal === 'workspace' ? everyone : Math.max(before.get(principal) ?? 0, everyone);
    if (rank > had) return true;
  }
  return false;
}
