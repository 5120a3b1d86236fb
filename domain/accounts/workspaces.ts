// Creating workspaces and their members, as the operator CLI does.
import type { Knex } from 'knex';

export async function createWorkspace(
  knex: Knex,
  input: { name: string; storageLimitBytes: number },
): Promise<{ uuid: string }> {
  const [row] = await knex('workspaces')
    .insert({ name: input.name, storage_limit_bytes: input.storageLimitBytes })
    .returning('uuid');
  return { uuid: row.uuid };
}

export async function setStorageLimit(knex: Knex, workspaceUuid: string, bytes: number): Promise<boolean> {
  return (
    (await knex('workspaces')
      .where({ uuid: workspaceUuid })
      .update({ storage_limit_bytes: bytes, updated_at: knex.fn.now() })) > 0
  );
}

/**
 * Adds a person to a workspace. One email is one person across workspaces: an existing user is
 * added to the workspace (and their names updated when given) rather than duplicated.
 */
export async function createUser(
  knex: Knex,
  input: { workspaceUuid: string; email: string; firstName?: string; lastName?: string; admin?: boolean },
): Promise<{ uuid: string }> {
  return knex.transaction(async (tx) => {
    const workspace = await tx('workspaces').where({ uuid: input.workspaceUuid }).first();
    if (!workspace) throw new Error(`No workspace ${input.workspaceUuid}`);
    const [user] = await tx('users')
      .insert({ email: input.email, first_name: input.firstName ?? null, last_name: input.lastName ?? null })
      .onConflict(tx.raw('(lower(email))'))
      .merge({
        first_name: tx.raw('coalesce(excluded.first_name, users.first_name)'),
        last_name: tx.raw('coalesce(excluded.last_name, users.last_name)'),
        updated_at: tx.fn.now(),
      })
      .returning('uuid');
    await tx('workspace_members')
      .insert({ workspace_uuid: input.workspaceUuid, user_uuid: user.uuid, admin: input.admin ?? false })
      .onConflict(['workspace_uuid', 'user_uuid'])
      .merge(['admin']);
    return { uuid: user.uuid };
  });
}
