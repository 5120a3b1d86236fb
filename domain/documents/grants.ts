// Document-level sharing: grants to a user or a whole workspace, as `folio share grant --document` records them.
import type { Knex } from 'knex';
import { ROLES, type GrantRole } from '../roles.js';

type DocumentGrantStatus = 'pending' | 'accepted';

export interface DocumentGrantInput {
  documentUuid: string;
  /** Exactly one of principalUserUuid and principalWorkspaceUuid. */
  principalUserUuid?: string;
  principalWorkspaceUuid?: string;
  role: GrantRole;
  status?: DocumentGrantStatus;
}

const GRANT_ROLES: readonly string[] = ROLES.filter((role) => role !== 'owner');

/**
 * Grants a role on a document. A principal has at most one live grant per document: granting again replaces its
 * role and status (the partial unique indexes document_grants_live_* hold that under concurrency).
 */
export async function grantDocumentAccess(knex: Knex, input: DocumentGrantInput): Promise<{ uuid: string }> {
  if ((input.principalUserUuid === undefined) === (input.principalWorkspaceUuid === undefined)) {
    throw new Error('A document grant names exactly one principal: a user or a workspace.');
  }
  if (!GRANT_ROLES.includes(input.role))
    throw new Error(`A document grant role is one of ${GRANT_ROLES.join(', ')}.`);
  const status = input.status ?? 'accepted';
  if (status !== 'pending' && status !== 'accepted')
    throw new Error('A document grant status is pending or accepted.');
  const document = await knex('documents')
    .where({ uuid: input.documentUuid })
    .first('uuid', 'workspace_uuid');
  if (!document) throw new Error(`No document ${input.documentUuid}`);
  const byUser = input.principalUserUuid !== undefined;
  const [row] = await knex('document_grants')
    .insert({
      workspace_uuid: document.workspace_uuid,
      document_uuid: document.uuid,
      principal_type: byUser ? 'user' : 'workspace',
      principal_user_uuid: input.principalUserUuid ?? null,
      principal_workspace_uuid: input.principalWorkspaceUuid ?? null,
      role: input.role,
      status,
    })
    .onConflict(
      knex.raw(
        byUser
          ? `(document_uuid, principal_user_uuid) where principal_type = 'user' and status <> 'revoked'`
          : `(document_uuid, principal_workspace_uuid) where principal_type = 'workspace' and status <> 'revoked'`,
      ),
    )
    .merge({ role: input.role, status, updated_at: knex.fn.now() })
    .returning('uuid');
  return { uuid: row.uuid as string };
}

/** Revokes a document grant; true when a live grant was found. Revoking twice is harmless. */
export async function revokeDocumentGrant(knex: Knex, grantUuid: string): Promise<boolean> {
  const count = await knex('document_grants')
    .where({ uuid: grantUuid })
    .whereNot({ status: 'revoked' })
    .update({ status: 'revoked', updated_at: knex.fn.now() });
  return count > 0;
}
