// Who administers a workspace: the admin flag of its membership, set by `folio user create --admin`.
import type { Knex } from 'knex';
import type { Caller } from '../caller.js';

export async function isWorkspaceAdmin(knex: Knex, caller: Caller): Promise<boolean> {
  const row = await knex('workspace_members')
    .where({ workspace_uuid: caller.workspaceUuid, user_uuid: caller.userUuid, admin: true })
    .first('user_uuid');
  return Boolean(row);
}
