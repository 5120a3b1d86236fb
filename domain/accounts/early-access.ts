// The editor app's early access (spec/documents.md: "open only to accounts with early access"): a flag on the account,
// set by an operator (`folio user early-access`), read by `folio user show` and by the editor app's gate.
import type { Knex } from 'knex';
import { AppError } from '../errors.js';
import { isUuid } from '../uuid.js';

export interface UserSummary {
  uuid: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  early_access: boolean;
  workspaces: { uuid: string; name: string; admin: boolean }[];
}

const userNotFound = (user: string) => new AppError(404, 'user_not_found', `No user ${user}.`);

/** A user named by uuid or e-mail address (case-insensitive), or 404 user_not_found. */
async function findUser(knex: Knex, user: string): Promise<{ uuid: string }> {
  const query = knex('users');
  if (isUuid(user)) query.where('uuid', user);
  else query.whereRaw('lower(email) = lower(?)', [user]);
  const row = await query.first('uuid');
  if (!row) throw userNotFound(user);
  return row;
}

/** Turns a user's early access on or off; answers the user as `showUser` does. */
export async function setEarlyAccess(knex: Knex, user: string, on: boolean): Promise<UserSummary> {
  const { uuid } = await findUser(knex, user);
  await knex('users').where({ uuid }).update({ early_access: on, updated_at: knex.fn.now() });
  return showUser(knex, uuid);
}

/** A user's account: names, early access, and the workspaces they belong to. */
export async function showUser(knex: Knex, user: string): Promise<UserSummary> {
  const { uuid } = await findUser(knex, user);
  const row = await knex('users')
    .where({ uuid })
    .first('uuid', 'email', 'first_name', 'last_name', 'early_access');
  const workspaces = await knex('workspace_members as m')
    .join('workspaces as w', 'w.uuid', 'm.workspace_uuid')
    .where('m.user_uuid', uuid)
    .orderBy('w.name')
    .select('w.uuid', 'w.name', 'm.admin');
  return { ...row, workspaces };
}
