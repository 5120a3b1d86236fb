// SIGKILL of the worker, of the API and of both, at seeded moments, while five kinds of work run together: uploads
// and replacements, a tree's trash, restore and delete, webhook deliveries, a document purge and a thumbnail burst.
// Then the stack's invariants and each workload's own outcome are checked (docs/faults.md).
import { afterAll, describe, expect, it } from 'vitest';
import { closeTemporalClient } from '../../platform/temporal.js';
import { Chaos, faultCounters, seedFor, tally } from './support/chaos.js';
import { checkInvariants } from './support/invariants.js';
import { sized } from './support/scale.js';
import {
  closeAll,
  documentPurgeWorkload,
  runAll,
  summaries,
  thumbnailsWorkload,
  treeWorkload,
  uploadsWorkload,
  webhooksWorkload,
} from './support/workloads.js';

afterAll(closeTemporalClient);

describe('processes killed mid-work', () => {
  it('loses nothing and leaves nothing behind when the worker, the API or both are SIGKILLed at random moments', async () => {
    const workloads = [
      await uploadsWorkload(seedFor('uploads'), sized(40, 200)),
      await treeWorkload(sized(2_000, 20_000)),
      await webhooksWorkload(seedFor('webhooks'), sized(60, 500), [
        '127.0.0.201',
        '127.0.0.202',
        '127.0.0.203',
      ]),
      await documentPurgeWorkload(sized(10, 50)),
      await thumbnailsWorkload(sized(12, 60)),
    ];
    const started = Date.now();
    const chaos = new Chaos(seedFor('kills'), { kills: sized(8, 40) }).start();
    try {
      const work = runAll(workloads);
      // The plan may outlast quick work; what counts is that kills met work in flight.
      await work.finally(() => chaos.stop());
      const kills = chaos.kills;
      console.log(
        `[faults] kills: ${kills.length} ${JSON.stringify(tally(kills))} over ${Math.round((Date.now() - started) / 1000)} s; client retries ${JSON.stringify(faultCounters)}`,
      );
      expect(kills.length).toBeGreaterThan(0);

      const waited = await checkInvariants();
      for (const workload of workloads) await workload.check();
      console.log(
        `[faults] kills: invariants held ${waited} ms after the work; ${JSON.stringify(summaries(workloads))}`,
      );
    } finally {
      await closeAll(workloads);
    }
  });
});
