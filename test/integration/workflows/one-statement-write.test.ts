// RunOneStatement (workflows/outbox.ts): a write that is one statement commits as it ends, with no BEGIN or COMMIT of
// the client around it and its commit not waiting for the WAL flush; the runner returns once a later flush answered,
// and starts the workflows the statement recorded only after that. Seen in the statements the runner sends and when
// they answer, and in what its `start` is asked.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { STATEMENT_REFUSED, type WorkflowStarts } from '../../../domain/unit-of-work.js';
import { db } from '../../../platform/database.js';
import type { OutboxRequest } from '../../../workflows/registry.js';
import { outboxKit } from '../../../workflows/outbox.js';
import { makeUser } from '../../support/api.js';

/**
 * The statements sent to PostgreSQL while `run` runs, and when each answered, in order; then 'returned'. Seen on pg's
 * client, below knex: prepared statements go to a pooled connection straight through pg (domain/prepared.ts).
 */
async function recordSteps(steps: string[], run: () => Promise<unknown>): Promise<void> {
  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const original = prototype.query;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string };
    const text = typeof config === 'string' ? config : config.text;
    steps.push(`sent ${text}`);
    const answered = () => void steps.push(`answered ${text}`);
    const callback = args.at(-1);
    if (typeof callback === 'function')
      args[args.length - 1] = (...results: unknown[]) => {
        answered();
        return (callback as (...results: unknown[]) => unknown)(...results);
      };
    const result = original.apply(this, args);
    return result instanceof Promise ? result.finally(answered) : result;
  };
  try {
    await run();
    steps.push('returned');
  } finally {
    prototype.query = original;
  }
}

/** A runner whose workflow starts are recorded, with the steps at which each was asked. */
function recordingRunner(steps: () => string[]) {
  const started: { request: OutboxRequest; atStep: number }[] = [];
  const unused = () => Promise.reject(new Error('not used here'));
  const { runOneStatement } = outboxKit({
    start: async (request) => void started.push({ request, atStep: steps().length }),
    wakes: {
      uploadLifecycle: unused,
      replaceLifecycle: unused,
      documentPurge: unused,
      retryWebhookDelivery: unused,
      terminateWebhookDelivery: unused,
    },
    log: { warn: () => undefined },
  });
  return { run: runOneStatement(db()), started };
}

/** A write of the workspace's name, tagged so the steps show it, recording a thumbnail request when `write` holds. */
const renameWorkspace = (workspaceUuid: string, name: string, write = true) => ({
  name: `test_rename_workspace_${write}`,
  sql: ({ commitMode, recordWorkflows }: { commitMode: string; recordWorkflows(anchor: string): string }) =>
    `with ${commitMode},
       renamed as (update workspaces set name = :name where uuid = :workspace::uuid and :write::boolean returning name),
       ${recordWorkflows('renamed')}
     select renamed.name, commit_mode.batch from renamed, commit_mode /* folio_one_statement_probe */`,
  bindings: { name, workspace: workspaceUuid, write },
  workflows: (requests: WorkflowStarts) =>
    void requests.startThumbnail({ workspaceUuid, fileUuid: workspaceUuid, versionUuid: workspaceUuid }),
});

const workspaceName = async (uuid: string) =>
  ((await db()('workspaces').where({ uuid }).first('name')) as { name: string }).name;

describe('a one-statement write', () => {
  it('commits as its statement ends, asynchronously, and returns once a later flush answered, then starts its workflows', async () => {
    const user = await makeUser();
    const steps: string[] = [];
    const runner = recordingRunner(() => steps);
    let row: object | undefined;
    await recordSteps(steps, async () => {
      row = await runner.run(renameWorkspace(user.workspaceUuid, 'renamed in one statement'));
    });
    expect(row).toEqual({ name: 'renamed in one statement' });
    expect(await workspaceName(user.workspaceUuid)).toBe('renamed in one statement');
    const index = (pattern: RegExp) => steps.findIndex((step) => pattern.test(step));
    expect(index(/^sent (BEGIN|COMMIT)/i), steps.join('\n')).toBe(-1);
    expect(steps[0]).toMatch(
      /^sent .*set_config\('synchronous_commit', 'off', true\).*folio_one_statement_probe/s,
    );
    const flushSent = index(/^sent .*pg_logical_emit_message\(true/);
    const flushAnswered = index(/^answered .*pg_logical_emit_message\(true/);
    expect(flushSent).toBeGreaterThan(index(/^answered .*folio_one_statement_probe/));
    expect(flushAnswered).toBeGreaterThan(flushSent);
    // The workflow asked for is started after the flush, and its outbox row is then removed.
    expect(runner.started).toHaveLength(1);
    expect(runner.started[0]!.atStep).toBeGreaterThan(flushAnswered);
    expect(runner.started[0]!.request).toMatchObject({ type: 'thumbnail', fileUuid: user.workspaceUuid });
    expect(await db()('workflow_outbox').whereRaw(`request->>'fileUuid' = ?`, [user.workspaceUuid])).toEqual(
      [],
    );
  });

  it('records no workflow and answers nothing when its anchor has no row', async () => {
    const user = await makeUser();
    const runner = recordingRunner(() => []);
    const before = await workspaceName(user.workspaceUuid);
    expect(await runner.run(renameWorkspace(user.workspaceUuid, 'not written', false))).toBeUndefined();
    expect(await workspaceName(user.workspaceUuid)).toBe(before);
    expect(runner.started).toEqual([]);
    expect(await db()('workflow_outbox').whereRaw(`request->>'fileUuid' = ?`, [user.workspaceUuid])).toEqual(
      [],
    );
  });

  it('rolls the whole statement back when a step refuses, naming the refusal', async () => {
    const user = await makeUser();
    const runner = recordingRunner(() => []);
    const before = await workspaceName(user.workspaceUuid);
    const refused = runner.run({
      ...renameWorkspace(user.workspaceUuid, 'refused after the write'),
      name: 'test_rename_then_refuse',
      sql: ({ commitMode, recordWorkflows }) =>
        `with ${commitMode},
           renamed as (update workspaces set name = :name where uuid = :workspace::uuid returning name),
           ${recordWorkflows('renamed')}
         select renamed.name, commit_mode.batch from renamed, commit_mode
         where folio_refuse_unless(false, 'test_refusal')`,
    });
    await expect(refused).rejects.toMatchObject({
      code: STATEMENT_REFUSED,
      detail: 'test_refusal',
    });
    expect(await workspaceName(user.workspaceUuid)).toBe(before);
    expect(runner.started).toEqual([]);
    expect(await db()('workflow_outbox').whereRaw(`request->>'fileUuid' = ?`, [user.workspaceUuid])).toEqual(
      [],
    );
  });
});
