// Temporal plumbing end to end: a workflow on the real dev server, run by the suite's worker, whose
// activity writes to PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../../domain/accounts/credentials.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { tokenCleanupWorkflowId } from '../../../workflows/ids.js';
import { makeUser } from '../../support/api.js';

afterAll(closeTemporalClient);

describe('tokenCleanupWorkflow', () => {
  it('deletes tokens dead for longer than the cutoff and keeps the rest', async () => {
    const user = await makeUser();
    const day = 86_400_000;
    const insert = (label: string, fields: Record<string, unknown>) =>
      db()('access_tokens')
        .insert({
          token_hash: hashSecret(`${label}-${randomUUID()}`),
          workspace_uuid: user.workspaceUuid,
          user_uuid: user.uuid,
          scopes: ['drive.read'],
          expires_at: new Date(Date.now() + day),
          ...fields,
        })
        .returning('uuid');
    const [expiredLongAgo] = await insert('expired', { expires_at: new Date(Date.now() - 40 * day) });
    const [revokedLongAgo] = await insert('revoked', { revoked_at: new Date(Date.now() - 40 * day) });
    const [expiredRecently] = await insert('recent', { expires_at: new Date(Date.now() - day) });
    const [live] = await insert('live', {});

    const client = await temporalClient();
    const result = await client.workflow.execute('tokenCleanupWorkflow', {
      workflowId: tokenCleanupWorkflowId(randomUUID()),
      taskQueue: config().temporal.taskQueue,
      args: [{ keepDeadForMs: 30 * day }],
    });

    expect(result.deleted).toBeGreaterThanOrEqual(2);
    const remaining = await db()('access_tokens')
      .whereIn('uuid', [expiredLongAgo.uuid, revokedLongAgo.uuid, expiredRecently.uuid, live.uuid])
      .pluck('uuid');
    expect(remaining.sort()).toEqual([expiredRecently.uuid, live.uuid].sort());
  });
});
