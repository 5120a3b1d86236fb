// Faults only the production engine has (FOLIO_TEST_CLUSTER=1, `npm run test:cluster`): SIGKILL of the Temporal
// cluster's history, matching and frontend processes while uploads, a tree's cascades and webhook deliveries run; the
// history shards moving to another host; one drive of MinIO's four-drive erasure set gone while objects are written
// and read. The invariants are those of kills.test.ts (docs/faults.md); docs/cluster.md records the runs.
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  killClusterService,
  restartClusterService,
  shardRangeIds,
  startSecondHistoryHost,
  type ClusterService,
} from '../../deploy/local/temporal-cluster.js';
import { closeTemporalClient } from '../../platform/temporal.js';
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

const mixedWork = async (seed: number, hosts: string[]) => [
  await uploadsWorkload(seed, sized(12, 60)),
  await treeWorkload(sized(400, 4_000)),
  await webhooksWorkload(seed, sized(15, 100), hosts),
];

const KILLED: { service: ClusterService; hosts: string[] }[] = [
  { service: 'history', hosts: ['127.0.0.221', '127.0.0.222', '127.0.0.223'] },
  { service: 'matching', hosts: ['127.0.0.224', '127.0.0.225', '127.0.0.226'] },
  { service: 'frontend', hosts: ['127.0.0.227', '127.0.0.228', '127.0.0.229'] },
];

describe.skipIf(process.env.FOLIO_TEST_CLUSTER !== '1')(
  'the Temporal cluster and MinIO erasure set failing',
  () => {
    for (const { service, hosts } of KILLED) {
      it(`loses nothing when temporal-${service} is SIGKILLed mid-work`, async () => {
        await underFault(
          `SIGKILL of ${service}`,
          await mixedWork(seedFor(`cluster-${service}`), hosts),
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
          renameSync(away, drive);
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
        await mixedWork(seedFor('cluster-shards'), ['127.0.0.230', '127.0.0.231', '127.0.0.232']),
        async () => killClusterService(root(), 'history'),
      );
      const after = await shardRangeIds(root());
      for (const [shard, rangeId] of before) expect(after.get(shard)).toBeGreaterThan(rangeId);
    });
  },
);
