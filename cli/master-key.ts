// Operator commands for master-key rotation (docs/operations.md § Master-key rotation): start the rewrap of every
// wrapped key under the configured FOLIO_MASTER_KEY, and see where it stands.
import { Command, InvalidArgumentError } from 'commander';
import { WorkflowNotFoundError } from '@temporalio/client';
import { countWrappedKeys, WRAPPED_KEY_TABLES } from '../domain/master-key-rotation.js';
import { config } from '../platform/config.js';
import { db } from '../platform/database.js';
import { closeTemporalClient, temporalClient } from '../platform/temporal.js';
import { masterKeyRotationWorkflowId } from '../workflows/ids.js';
import { workflowClient } from '../workflows/client.js';
import type { TableProgress } from '../workflows/master-key-rotation.js';

type Output = (result: object, options: { json?: boolean }) => void;

function pageSize(value: string): number {
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > 10_000)
    throw new InvalidArgumentError('must be a whole number from 1 to 10000');
  return size;
}

export function registerMasterKeyCommands(program: Command, output: Output) {
  const masterKey = program
    .command('master-key')
    .description('Master-key rotation: rewrap every stored key under FOLIO_MASTER_KEY (docs/operations.md).');

  masterKey
    .command('rotate')
    .description(
      'Start rewrapping every wrapped key under the configured FOLIO_MASTER_KEY (id FOLIO_MASTER_KEY_ID); again is harmless.',
    )
    .option('--page-size <rows>', 'rows rewrapped per activity', pageSize, 500)
    .option('--json', 'print one JSON object')
    .action(async (options: { pageSize: number; json?: boolean }) => {
      const keyId = config().masterKey.keyId ?? 0;
      try {
        const { workflowId, started } = await workflowClient().startDirect('masterKeyRotation', {
          keyId,
          tables: WRAPPED_KEY_TABLES.map((table) => table.table),
          pageSize: options.pageSize,
        });
        if (started) output({ workflow_id: workflowId, key_id: keyId, started: true }, options);
        else
          output(
            {
              workflow_id: workflowId,
              key_id: keyId,
              started: false,
              note: 'a rotation to this key is already running',
            },
            options,
          );
      } finally {
        await closeTemporalClient();
      }
    });

  masterKey
    .command('status')
    .description(
      'How many wrapped keys each master key id holds, and the rotation workflow to the configured key, if any.',
    )
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const keyId = config().masterKey.keyId ?? 0;
      const workflowId = masterKeyRotationWorkflowId(keyId);
      const counts = await countWrappedKeys(db());
      let workflow: { status: string; progress: TableProgress[] | null } | null = null;
      try {
        const handle = (await temporalClient()).workflow.getHandle(workflowId);
        const { status } = await handle.describe();
        const progress =
          status.name === 'RUNNING'
            ? await handle.query<TableProgress[]>('progress')
            : await handle.result().catch(() => null);
        workflow = { status: status.name, progress };
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      } finally {
        await closeTemporalClient();
      }
      const remaining = counts.reduce(
        (sum, count) =>
          sum +
          Object.entries(count.byKeyId)
            .filter(([id]) => Number(id) !== keyId)
            .reduce((s, [, n]) => s + n, 0),
        0,
      );
      output(
        {
          key_id: keyId,
          remaining_under_other_keys: remaining,
          wrapped_keys: counts,
          workflow_id: workflowId,
          workflow,
        },
        options,
      );
    });
}
