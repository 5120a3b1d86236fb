// Faults only the production engine has (FOLIO_TEST_CLUSTER=1, `npm run test:cluster`): SIGKILL of the Temporal
// cluster's history, matching and frontend processes while uploads, a tree's cascades and webhook deliveries run; the
// history shards moving to another host; one drive of MinIO's four-drive erasure set gone while objects are written
// and read. The invariants are those of kills.test.ts (docs/faults.md); docs/cluster.md records the runs. Last, the
// operators' view: the Temporal UI against the cluster finds a delivery by Folio's search attributes.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../deploy/local/services.js';
import {
  killClusterService,
  restartClusterService,
  shardRangeIds,
  startClusterUi,
  startSecondHistoryHost,
  type ClusterService,
} from '../../deploy/local/temporal-cluster.js';
import { bucket, storage } from '../../platform/storage.js';
import { closeTemporalClient } from '../../platform/temporal.js';
import { webhookDeliveryWorkflowId } from '../../workflows/ids.js';
import { makeWorkspace } from '../support/api.js';
import { CLI_TIMEOUT_MS, folio } from '../support/cli.js';
import { deliver, emlMessage, makeDestination, makeMailbox } from '../support/mail.js';
import { startReceiver, until } from '../support/webhook-receivers.js';
import { draw, seedFor, sleep } from './support/chaos.js';
import { checkInvariants } from './support/invariants.js';
import { sized } from './support/scale.js';
import {
  closeAll,
  runAll,
  summaries,
  treeWorkload,
  uploadsWorkload,
  webhooksWorkload,
  type Workload,
} from './support/workloads.js';

afterAll(closeTemporalClient);

const root = () => process.env.FOLIO_TEST_ROOT!;

async function removeOneObject(): Promise<void> {
  for await (const object of storage().listObjectsV2(bucket(), '', true))
    if (object.name) return storage().removeObject(bucket(), object.name);
}

/** Runs the workloads, injects the fault at a seeded moment while they run, then checks every invariant. */
async function underFault(
  name: string,
  workloads: Workload[],
  inject: (seed: number) => Promise<void>,
): Promise<void> {
  const seed = seedFor(`cluster-${name}`);
  try {
    const started = Date.now();
    const work = runAll(workloads);
    await sleep(draw(fc.integer({ min: 2_000, max: 8_000 }), seed, 1)[0]!);
    const faultAt = Date.now();
    await inject(seed);
    const backAt = Date.now();
    await work;
    const workDone = Date.now();
    // FOLIO_FAULTS_PLANT_LOSS=1 shows that a case fails when something is lost (docs/faults.md § Showing that a case
    // can fail): one stored object is removed after the work, as a write the erasure set lost would leave it.
    if (process.env.FOLIO_FAULTS_PLANT_LOSS === '1') await removeOneObject();
    const waited = await checkInvariants();
    for (const workload of workloads) await workload.check();
    console.log(
      `[faults] cluster, ${name}: fault ${Math.round((faultAt - started) / 1000)} s into the work, service back ${backAt - faultAt} ms later, ` +
        `work done ${workDone - backAt} ms after that; invariants held ${waited} ms after the work; ${JSON.stringify(summaries(workloads))}`,
    );
  } finally {
    await closeAll(workloads);
  }
}

/**
 * Puts a drive's folder back, as a disk reattached. MinIO recreates a missing drive's folder (as it would use an empty
 * disk put in its place) and goes on writing into it, so a recursive removal of that folder races MinIO's writes
 * (ENOTEMPTY): it is renamed out of the way in one step instead, and removed once the original is back. Should MinIO
 * make it again between the two renames, the second rename meets it and the step is done again.
 */
function putDriveBack(drive: string, away: string): void {
  const strays: string[] = [];
  for (let attempt = 1; ; attempt++) {
    if (existsSync(drive)) {
      strays.push(`${drive}.made-by-minio-${attempt}`);
      renameSync(drive, strays.at(-1)!);
    }
    try {
      renameSync(away, drive);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt === 10) throw error;
    }
  }
  // A write MinIO began in a stray folder before its rename may still land there: removal retries (Node's backoff).
  for (const stray of strays) rmSync(stray, { recursive: true, force: true, maxRetries: 10 });
}

const mixedWork = async (seed: number, hosts: string[]) => [
  await uploadsWorkload(seed, sized(12, 60)),
  await treeWorkload(sized(400, 4_000)),
  await webhooksWorkload(seed, sized(15, 100), hosts),
];

/**
 * The receivers' addresses: the fault suite's, which the test certificate names (test/support/test-ca.ts). Any other
 * address fails every attempt with tls_error, and two events failed in a row disable a destination. The cases run one
 * at a time, each closing its receivers, and so do the suite's files (fileParallelism: false), so they share them.
 */
const RECEIVERS = ['127.0.0.204', '127.0.0.205', '127.0.0.206'];

const KILLED: ClusterService[] = ['history', 'matching', 'frontend'];

describe.skipIf(process.env.FOLIO_TEST_CLUSTER !== '1')(
  'the Temporal cluster and MinIO erasure set failing',
  () => {
    for (const service of KILLED) {
      it(`loses nothing when temporal-${service} is SIGKILLed mid-work`, async () => {
        await underFault(
          `SIGKILL of ${service}`,
          await mixedWork(seedFor(`cluster-${service}`), RECEIVERS),
          async (seed) => {
            killClusterService(root(), service);
            await sleep(draw(fc.integer({ min: 0, max: 3_000 }), seed, 2)[1]!);
            await restartClusterService(root(), service);
          },
        );
      });
    }

    it('loses nothing while one MinIO drive of four is gone, and reads everything once it is back', async () => {
      // One MinIO process serves the erasure set (4 drives, parity 2, write quorum 3), so a drive fails by its folder
      // becoming unavailable, as an unmounted disk would: MinIO finds it offline and serves from the other three.
      const drive = join(root(), 'minio', 'drive3');
      const away = `${drive}.away`;
      expect(existsSync(drive)).toBe(true);
      const seed = seedFor('cluster-minio-drive');
      await underFault('one MinIO drive gone', [await uploadsWorkload(seed, sized(24, 120))], async () => {
        renameSync(drive, away);
        try {
          // Writes and reads go on for a while on three drives.
          await sleep(draw(fc.integer({ min: 5_000, max: 15_000 }), seed, 3)[2]!);
        } finally {
          putDriveBack(drive, away);
        }
      });
    });

    it('loses nothing when history shards move to another host', async () => {
      // A second history host joins: the ring gives it part of the shards. Then the first is SIGKILLed mid-work and not
      // brought back, so every shard is acquired by the second host (its range id grows).
      const before = await shardRangeIds(root());
      expect(before.size).toBeGreaterThan(0);
      await startSecondHistoryHost(root());
      await underFault(
        'history shards moved to a new owner',
        await mixedWork(seedFor('cluster-shards'), RECEIVERS),
        async () => killClusterService(root(), 'history'),
      );
      const after = await shardRangeIds(root());
      for (const [shard, rangeId] of before) expect(after.get(shard)).toBeGreaterThan(rangeId);
    });

    it(
      "an operator finds a delivery on the cluster: the Temporal UI by Folio's search attributes, and folio delivery list",
      async () => {
        const receiver = await startReceiver(RECEIVERS[0]!);
        const ui = await startClusterUi(
          root(),
          Number(process.env.FOLIO_TEMPORAL_ADDRESS!.split(':').pop()),
          await freePort(),
        );
        try {
          const workspace = await makeWorkspace();
          const mailbox = await makeMailbox(workspace.uuid);
          const destination = await makeDestination(workspace.uuid, receiver.url(), [mailbox.uuid]);
          const stored = await deliver(mailbox.uuid, emlMessage());
          if (stored.outcome !== 'stored') throw new Error(`mail not stored: ${stored.outcome}`);
          const workflowId = webhookDeliveryWorkflowId(
            destination.uuid,
            stored.event_id!.slice('whevt_'.length),
          );
          // What the on-call page (docs/webhooks-on-call.md) types into the UI's search: every delivery to a
          // destination, and those of one event that succeeded; the UI answers from the cluster's SQL visibility.
          for (const query of [
            `FolioWebhookDestination = "${destination.uuid}"`,
            `FolioWebhookEvent = "${stored.event_id}" AND FolioMailbox = "${mailbox.uuid}" AND FolioWebhookOutcome = "succeeded"`,
          ])
            await until(
              `the UI lists the delivery for ${query}`,
              async () => {
                const answer = await fetch(
                  `${ui.url}/api/v1/namespaces/default/workflows?query=${encodeURIComponent(query)}`,
                );
                const { executions } = (await answer.json()) as {
                  executions?: { execution: { workflowId: string } }[];
                };
                return executions?.map((found) => found.execution.workflowId).join() === workflowId;
              },
              120_000,
              500,
            );
          const listed = await folio(
            'delivery',
            'list',
            '--destination',
            destination.uuid,
            '--state',
            'done',
          );
          expect(listed.data).toEqual([
            expect.objectContaining({
              event_id: stored.event_id,
              state: 'succeeded',
              workflow_id: workflowId,
            }),
          ]);
        } finally {
          await ui.service.stop();
          await receiver.close();
        }
      },
      CLI_TIMEOUT_MS,
    );
  },
);
